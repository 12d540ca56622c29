package widget

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"allot/internal/amount"
)

const ellipsis = "…"

// isASCII reports whether s is plain ASCII, where bytes are terminal cells
// and width arithmetic needs no Unicode tables.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// displayWidth is the number of terminal cells s occupies. Escape sequences
// count as zero, so it also measures styled strings.
func displayWidth(s string) int {
	if isASCII(s) && !hasEscape(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

func hasEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			return true
		}
	}
	return false
}

// truncate cuts s to at most w cells, marking a cut with an ellipsis.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if isASCII(s) && !hasEscape(s) {
		if len(s) <= w {
			return s
		}
		return s[:w-1] + ellipsis
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}

// isID reports whether s is an identifier people tell apart by both ends:
// a 0x-prefixed hex string (an address, a hash) of at least eight digits
// or a UUID. Amounts, names and statuses are not.
func isID(s string) bool {
	if len(s) >= 10 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return allHex(s[2:], false)
	}
	if len(s) != 36 {
		return false
	}
	for _, i := range [...]int{8, 13, 18, 23} {
		if s[i] != '-' {
			return false
		}
	}
	return allHex(s, true)
}

// allHex reports whether s is hex digits only (and dashes, when allowed).
func allHex(s string, dashes bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || dashes && c == '-') {
			return false
		}
	}
	return true
}

// shortenMiddle cuts an identifier (ASCII, see isID) to w cells by
// replacing its middle with an ellipsis, as wallets and explorers write
// addresses: 0x3e3D…6EC9 keeps the "0x" and as many digits on each side.
func shortenMiddle(s string, w int) string {
	if len(s) <= w {
		return s
	}
	if w < 3 {
		return truncate(s, w)
	}
	prefix := ""
	if w >= 5 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")) {
		prefix, s, w = s[:2], s[2:], w-2
	}
	tail := (w - 1) / 2
	head := w - 1 - tail
	return prefix + s[:head] + ellipsis + s[len(s)-tail:]
}

// appendSpaces appends n spaces to b (none when n <= 0).
func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// appendFitted appends s to b in exactly w cells: cut with an ellipsis when
// too wide (in the middle for an identifier), padded with spaces on the
// side that align leaves free.
func appendFitted(b []byte, s string, w int, align Align) []byte {
	if len(s) > w && isID(s) {
		s = shortenMiddle(s, w)
	} else {
		s = truncate(s, w)
	}
	pad := w - displayWidth(s)
	if align == AlignRight {
		b = appendSpaces(b, pad)
		return append(b, s...)
	}
	b = append(b, s...)
	return appendSpaces(b, pad)
}

// fitCell returns s in exactly w cells (see appendFitted).
func fitCell(s string, w int, align Align) string {
	return string(appendFitted(make([]byte, 0, w+len(s)), s, w, align))
}

// appendLower appends the lowercase form of s to b without the intermediate
// string strings.ToLower would allocate; filtering lowercases millions of
// cells.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += size
	}
	return b
}

// FormatCount formats a count with thousands separators: 100000 -> "100,000".
func FormatCount(n int) string {
	return amount.Format(strconv.Itoa(n))
}

// Truncate cuts s to at most width cells, marking a cut with an ellipsis.
func Truncate(s string, width int) string { return truncate(s, width) }

// Page lays text out in width x height: long lines wrap, and when the text
// is taller than height its last shown line says how much is cut. Styled
// text keeps its escapes.
func Page(s string, width, height int) string {
	lines := wrapText(strings.TrimRight(s, "\n"), max(width, 1))
	if height > 0 && len(lines) > height {
		cut := len(lines) - height + 1
		lines = append(lines[:height-1], truncate(fmt.Sprintf("… %d more lines (make the terminal taller)", cut), width))
	}
	return strings.Join(lines, "\n")
}

// WrapWords breaks one line of sanitized text into lines of at most width
// cells, at spaces. An identifier longer than a line (a hash, an address,
// maybe in brackets) is shortened in the middle, 0x405a…c2d1, as the
// tables shorten it: a hash broken across lines reads as two (the whole
// one is in the details or the copy). Another word longer than a line is
// cut into equal parts, so that no line holds a lone few characters of it.
func WrapWords(s string, width int) []string {
	if width < 1 || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	cur := ""
	for _, w := range strings.Split(s, " ") {
		w = fitID(w, width)
		ww := ansi.StringWidth(w)
		switch {
		case ww > width && isASCII(w):
			if cur != "" {
				lines = append(lines, cur)
			}
			n := (ww + width - 1) / width
			size := (ww + n - 1) / n
			for len(w) > size {
				lines = append(lines, w[:size])
				w = w[size:]
			}
			cur = w
		case ww > width: // not ASCII: cut where the cells run out
			if cur != "" {
				lines = append(lines, cur)
			}
			parts := strings.Split(ansi.Hardwrap(w, width, false), "\n")
			lines = append(lines, parts[:len(parts)-1]...)
			cur = parts[len(parts)-1]
		case cur == "":
			cur = w
		case ansi.StringWidth(cur)+1+ww <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	return append(lines, cur)
}

// wrapWordsBlock is WrapWords for each line of sanitized text: a question
// breaks at spaces only, never at an id's dashes, and shortens an id too
// long for a line in the middle.
func wrapWordsBlock(s string, width int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		for _, l := range WrapWords(para, width) {
			lines = append(lines, truncate(l, width))
		}
	}
	return lines
}

// fitID shortens an identifier word longer than width cells to width,
// in the middle, keeping the punctuation around it ("(0x12…ab),").
func fitID(w string, width int) string {
	if len(w) <= width {
		return w
	}
	core := strings.TrimLeft(w, "([")
	lead := w[:len(w)-len(core)]
	core = strings.TrimRight(core, ")],.;:")
	trail := w[len(lead)+len(core):]
	room := width - len(lead) - len(trail)
	if !isID(core) || room < 11 {
		return w
	}
	return lead + shortenMiddle(core, room) + trail
}
