package sanitize

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Whale pool", "Whale pool"},
		{"osc52 clipboard write", "\x1b]52;c;ZXZpbA==\x07pool", "^[]52;c;ZXZpbA==^Gpool"},
		{"csi clear screen", "a\x1b[2Jb", "a^[[2Jb"},
		{"newline and tab", "a\nb\tc", "a^Jb^Ic"},
		{"delete", "a\x7fb", "a^?b"},
		{"c1 csi", "a\u009b2Jb", "a\ufffd2Jb"},
		{"invalid utf8", "a\xffb", "a\ufffdb"},
		{"bidi override", "0xabc\u202edcba", "0xabcdcba"},
		{"unicode kept", "Pöol ✓ 池", "Pöol ✓ 池"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Line(tt.in)
			if got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if strings.ContainsRune(got, 0x1b) {
				t.Errorf("Line(%q) still contains ESC", tt.in)
			}
		})
	}
}

func TestBlockKeepsNewlines(t *testing.T) {
	got := Block("a\n\tb\x1b[31m")
	want := "a\n    b^[[31m"
	if got != want {
		t.Errorf("Block = %q, want %q", got, want)
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("abcdef", 4); got != "abc…" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("abc", 4); got != "abc" {
		t.Errorf("Truncate short = %q", got)
	}
	if got := Truncate("abc", 0); got != "" {
		t.Errorf("Truncate zero = %q", got)
	}
}

func FuzzLine(f *testing.F) {
	f.Add("\x1b]52;c;x\x07")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Block(s)} {
			for _, r := range out {
				if r == 0x1b || (r >= 0x80 && r < 0xa0) || r == 0x07 {
					t.Fatalf("control %U survived in %q", r, out)
				}
			}
		}
		if strings.ContainsRune(Line(s), '\n') {
			t.Fatalf("Line kept a newline: %q", Line(s))
		}
	})
}

// TestWriter: whatever is written, no ESC, BEL, other C0 control but
// newline and tab, DEL or C1 control (raw byte or UTF-8) comes out, and
// text split anywhere, even inside a character, comes out whole.
func TestWriter(t *testing.T) {
	in := "pool \x1b]52;c;Y3VybCBldmlsLnNofHNo\x07 \x1b[2J\x9b6n \u009b2J \r\x7f\u202etab\there\nsecond line: é…✓ \xff"
	want := "pool ^[]52;c;Y3VybCBldmlsLnNofHNo^G ^[[2J\ufffd6n \ufffd2J ^M^?tab\there\nsecond line: é…✓ \ufffd"
	for split := 0; split <= len(in); split++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		for _, part := range []string{in[:split], in[split:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if out.String() != want {
			t.Fatalf("split at %d:\n got %q\nwant %q", split, out.String(), want)
		}
	}
}

func FuzzWriter(f *testing.F) {
	f.Add([]byte("\x1b]52;c;x\x07\u0085é"), 3)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		var out bytes.Buffer
		w := NewWriter(&out)
		if split < 0 || split > len(data) {
			split = len(data) / 2
		}
		w.Write(data[:split])
		w.Write(data[split:])
		for i, s := 0, out.Bytes(); i < len(s); {
			r, size := utf8.DecodeRune(s[i:])
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) || (r == utf8.RuneError && size == 1) {
				t.Fatalf("%q came out of %q", r, data)
			}
			i += size
		}
	})
}
