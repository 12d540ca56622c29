package widget

import (
	"bytes"
	"context"
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
	if len(msgs) != 1 || msgs[0] != (StatusMsg{Text: "copied " + rows[0].Wallet + " (OSC 52)"}) {
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
		msg := Clipboard{Out: &out, Mux: Tmux}.Copy("hi")()
		want := "\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\"
		if out.String() != want || msg != (StatusMsg{Text: "copied hi (OSC 52)"}) {
			t.Errorf("got %q and %#v, want %q", out.String(), msg, want)
		}
	})
	t.Run("screen passthrough", func(t *testing.T) {
		var out bytes.Buffer
		Clipboard{Out: &out, Mux: Screen}.Copy("hi")()
		if want := "\x1bP\x1b]52;c;aGk=\a\x1b\\"; out.String() != want {
			t.Errorf("got %q, want %q", out.String(), want)
		}
	})
	t.Run("tmux load-buffer first", func(t *testing.T) {
		var out bytes.Buffer
		var ran []string
		var stdin string
		clip := Clipboard{Out: &out, Mux: Tmux, Command: []string{"/usr/bin/tmux", "load-buffer", "-w", "-"},
			Run: func(_ context.Context, argv []string, in string) error { ran, stdin = argv, in; return nil }}
		msg := clip.Copy("0xabc\x1b[2J")()
		if len(ran) == 0 || stdin != "0xabc^[[2J" || out.Len() != 0 {
			t.Errorf("ran %q with %q, wrote %q", ran, stdin, out.String())
		}
		if msg != (StatusMsg{Text: "copied 0xabc^[[2J (tmux paste buffer)"}) {
			t.Errorf("status %#v", msg)
		}
	})
	t.Run("a failed command falls back to OSC 52", func(t *testing.T) {
		var out bytes.Buffer
		clip := Clipboard{Out: &out, Command: []string{"/usr/bin/xclip"},
			Run: func(context.Context, []string, string) error { return errors.New("xclip: Can't open display") }}
		if msg := clip.Copy("hi")(); msg != (StatusMsg{Text: "copied hi (OSC 52)"}) || payload(t, out.String()) != "hi" {
			t.Errorf("status %#v, wrote %q", msg, out.String())
		}
	})
	t.Run("system command", func(t *testing.T) {
		clip := Clipboard{Command: []string{"/usr/bin/wl-copy"}, Run: func(context.Context, []string, string) error { return nil }}
		if msg := clip.Copy("hi")(); msg != (StatusMsg{Text: "copied hi (wl-copy)"}) {
			t.Errorf("status %#v", msg)
		}
	})
	failures := []struct {
		name string
		clip Clipboard
		text string
		want string
	}{
		{"no way at all", Clipboard{}, "x", "copy failed: no clipboard command and no terminal output; select it by hand: x"},
		{"command fails, no terminal", Clipboard{Command: []string{"xsel"}, Run: func(context.Context, []string, string) error { return errors.New("xsel: no display") }},
			"0xab", "copy failed: xsel: no display; select it by hand: 0xab"},
		{"empty", Clipboard{Out: &bytes.Buffer{}}, "", "copy failed: nothing to copy"},
		{"too long", Clipboard{Out: &bytes.Buffer{}}, strings.Repeat("a", maxCopyBytes+1), "copy failed: text too long (4097 bytes, limit 4096)"},
		{"write error", Clipboard{Out: failingWriter{}}, "x", "copy failed: write to terminal: broken pipe; select it by hand: x"},
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

func TestSystemCommand(t *testing.T) {
	found := func(name string) (string, error) {
		if name == "xsel" || name == "wl-copy" || name == "pbcopy" {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	env := func(vars ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name string
		env  func(string) string
		goos string
		want string
	}{
		{"x11 without xclip takes xsel", env("DISPLAY", ":0"), "linux", "/usr/bin/xsel --clipboard --input"},
		{"wayland", env("WAYLAND_DISPLAY", "wayland-0", "DISPLAY", ":0"), "linux", "/usr/bin/wl-copy"},
		{"macOS", env(), "darwin", "/usr/bin/pbcopy"},
		{"over ssh the desktop is elsewhere", env("DISPLAY", ":0", "SSH_TTY", "/dev/pts/1"), "linux", ""},
		{"a console", env(), "linux", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(systemCommand(tc.env, tc.goos, found), " "); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }
