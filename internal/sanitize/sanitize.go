// Package sanitize makes text from the network or from files safe to print
// on a terminal: control characters and escape sequences become inert, so a
// pool named "\x1b]52;c;..." cannot write to the clipboard or move the cursor.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one printable line: every control character (C0, DEL, C1)
// including newlines and tabs is replaced by a visible escape, invalid UTF-8
// by U+FFFD, and bidirectional overrides are dropped. The result never
// contains ESC, so no escape sequence survives.
func Line(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		writeRune(&b, r, size, false)
	}
	return b.String()
}

// Block is Line for multi-line text: newlines are kept, tabs become spaces,
// and everything else is treated as in Line.
func Block(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		writeRune(&b, r, size, true)
	}
	return b.String()
}

// Truncate sanitizes s with Line and cuts it to at most n runes, marking a
// cut with an ellipsis.
func Truncate(s string, n int) string {
	s = Line(s)
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func writeRune(b *strings.Builder, r rune, size int, multiline bool) {
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError)
	case multiline && r == '\n':
		b.WriteByte('\n')
	case multiline && r == '\t':
		b.WriteString("    ")
	case r < 0x20:
		// Caret notation keeps the character visible without acting on it.
		b.WriteByte('^')
		b.WriteByte(byte(r) + '@')
	case r == 0x7f:
		b.WriteString("^?")
	case r >= 0x80 && r < 0xa0:
		b.WriteRune(utf8.RuneError)
	case isBidiControl(r):
		// Dropped: they reorder what follows and can disguise an address.
	case !unicode.IsPrint(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Mn, r):
		b.WriteRune(utf8.RuneError)
	default:
		b.WriteRune(r)
	}
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
