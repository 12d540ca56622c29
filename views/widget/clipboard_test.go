package widget

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// payload extracts and decodes the text of one OSC 52 sequence.
func payload(t *testing.T, seq string) string {
	t.Helper()
	const start = "\x1b]52;c;"
	if !strings.HasPrefix(seq, start) || !strings.HasSuffix(seq, "\a") {
		t.Fatalf("not an OSC 52 sequence: %q", seq)
	}
	text, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(seq, start), "\a"))
	if err != nil {
		t.Fatalf("payload is not base64: %v", err)
	}
	return string(text)
}

func TestTableCopiesFocusedRow(t *testing.T) {
	rows := makeStakes(5)
	rows[1].Wallet = "0xabc\x1b]52;c;ZXZpbA==\a\n; rm -rf ~"
	var out bytes.Buffer
	tb := newStakeTable(rows, 120, 10, TableConfig[stake]{
		Clipboard: Clipboard{Out: &out},
		CopyText:  func(s stake) string { return s.Wallet },
	})

	msgs := press(tb, "y")
	if got := payload(t, out.String()); got != rows[0].Wallet {
		t.Errorf("copied %q, want %q", got, rows[0].Wallet)
	}
	if len(msgs) != 1 || msgs[0] != (StatusMsg{Text: "copied " + rows[0].Wallet}) {
		t.Errorf("status %#v", msgs)
	}

	out.Reset()
	press(tb, "j", "y")
	got := payload(t, out.String())
	for _, c := range got {
		if c < 0x20 || c == 0x7f {
			t.Fatalf("copied text carries control character %q: %q", c, got)
		}
	}
	if !strings.HasPrefix(got, "0xabc^[]52") {
		t.Errorf("copied %q, want the sanitized wallet", got)
	}
}

func TestClipboardCopy(t *testing.T) {
	t.Run("tmux passthrough", func(t *testing.T) {
		var out bytes.Buffer
		Clipboard{Out: &out, Tmux: true}.Copy("hi")()
		want := "\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\"
		if out.String() != want {
			t.Errorf("got %q, want %q", out.String(), want)
		}
	})
	failures := []struct {
		name string
		clip Clipboard
		text string
		want string
	}{
		{"no output", Clipboard{}, "x", "copy failed: no terminal output"},
		{"empty", Clipboard{Out: &bytes.Buffer{}}, "", "copy failed: nothing to copy"},
		{"too long", Clipboard{Out: &bytes.Buffer{}}, strings.Repeat("a", maxCopyBytes+1), "copy failed: text too long (4097 bytes, limit 4096)"},
		{"write error", Clipboard{Out: failingWriter{}}, "x", "copy failed: write to terminal: broken pipe"},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			msg := f.clip.Copy(f.text)()
			if msg != (StatusMsg{Text: f.want, Error: true}) {
				t.Errorf("got %#v, want error %q", msg, f.want)
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }
