package sanitize

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Writer passes text to an underlying writer with every control character
// but newline and tab made inert as Line makes them (caret notation for C0
// and DEL, U+FFFD for C1 controls and invalid UTF-8, bidirectional
// overrides dropped), so nothing written through it can start an escape
// sequence. The command line prints through one for stdout and one for
// stderr: a command that forgets to sanitize a string still cannot talk to
// the terminal.
type Writer struct {
	w io.Writer
	// partial is the start of a UTF-8 sequence cut by the end of a Write,
	// completed by the next.
	partial []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, made inert. It reports len(p) when the underlying write
// succeeds, whatever length the inert text has.
func (s *Writer) Write(p []byte) (int, error) {
	data := p
	if len(s.partial) > 0 {
		data = append(s.partial, p...)
		s.partial = nil
	}
	// Keep an incomplete sequence at the end for the next write.
	if cut := incompleteTail(data); cut > 0 {
		s.partial = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if plainText(data) {
		if _, err := s.w.Write(data); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	var b strings.Builder
	b.Grow(len(data))
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		i += size
		switch r {
		case '\n', '\t':
			b.WriteRune(r)
		default:
			writeRune(&b, r, size, false)
		}
	}
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// plainText reports whether data is printable ASCII, newlines and tabs.
func plainText(data []byte) bool {
	for _, c := range data {
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// incompleteTail is the length of a UTF-8 sequence started at the end of
// data and not finished, or 0.
func incompleteTail(data []byte) int {
	for n := 1; n < utf8.UTFMax && n <= len(data); n++ {
		c := data[len(data)-n]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(data[len(data)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}
