package widget

import (
	"strings"

	"allot/internal/sanitize"
)

// View draws the header, the visible rows and a footer (the filter input or
// the filter in force, and the position), at most width cells wide and
// exactly height lines high.
func (t *Table[R]) View() string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	var b strings.Builder
	// Lines are mostly ASCII; the cursor line adds a few escape bytes.
	b.Grow(t.height * (t.width + 8))
	b.WriteString(t.header)
	body := t.bodyHeight()
	n := len(t.view)
	if n == 0 && body > 0 {
		// The message wraps rather than being cut: at 60 columns it is
		// still read whole.
		for _, l := range wrapText(t.emptyText(), max(t.width-markerWidth, 1)) {
			if body == 0 {
				break
			}
			b.WriteByte('\n')
			b.WriteString(t.styles.Muted.Render(truncate(plainMarker+l, t.width)))
			body--
		}
	}
	selected, plain := selectedMarker, plainMarker
	if t.width < markerWidth {
		selected, plain = truncate(selected, t.width), truncate(plain, t.width)
	}
	for i := range body {
		b.WriteByte('\n')
		pos := t.offset + i
		if pos >= n {
			continue
		}
		line := t.line(t.view[pos])
		if pos == t.cursor {
			b.WriteString(t.styles.Selected.Render(selected + line))
		} else {
			b.WriteString(t.marker(pos, plain))
			b.WriteString(line)
		}
	}
	if t.height > 1 {
		b.WriteByte('\n')
		b.WriteString(t.footer())
	}
	return b.String()
}

// line returns the rendered cells of row i: sanitized, fitted to the column
// widths, unstyled. It is cached, so a row costs its Cell calls once per
// width, not once per frame.
func (t *Table[R]) line(i int) string {
	if s, ok := t.cache.get(i); ok {
		return s
	}
	r := *t.rows.At(i)
	b := t.scratch[:0]
	first := true
	for c, col := range t.cols {
		w := t.widths[c]
		if w == 0 {
			continue
		}
		if !first {
			b = append(b, columnGap...)
		}
		first = false
		cell := sanitize.Line(col.Cell(r))
		if col.Decimal && c < len(t.fracs) {
			cell = padFraction(cell, t.fracs[c])
		}
		b = appendFitted(b, cell, w, col.Align)
	}
	t.scratch = b
	s := string(b)
	t.cache.put(i, s)
	return s
}

func (t *Table[R]) renderHeader() string {
	if t.width <= 0 {
		return ""
	}
	b := []byte(plainMarker)
	first := true
	for c, col := range t.cols {
		w := t.widths[c]
		if w == 0 {
			continue
		}
		if !first {
			b = append(b, columnGap...)
		}
		first = false
		title := sanitize.Line(col.Title)
		if t.sort.col == c {
			arrow := " ↑"
			if t.sort.desc {
				arrow = " ↓"
			}
			title = truncate(title, w-2) + arrow
		}
		b = appendFitted(b, title, w, col.Align)
	}
	return t.styles.Header.Render(truncate(string(b), t.width))
}

func (t *Table[R]) emptyText() string {
	switch {
	case t.spinner != nil && t.rows.Len() == 0:
		return strings.TrimSpace(t.spinner() + " Loading…")
	case t.pending != "":
		return strings.ToUpper(t.pending[:1]) + t.pending[1:] + "…"
	case t.query != "":
		return "No match for \"" + sanitize.Line(t.query) + "\"."
	default:
		return t.empty
	}
}

// footer shows the filter (being edited, or in force) on the left and the
// position and any work in progress on the right.
func (t *Table[R]) footer() string {
	var right []string
	if t.spinner != nil && t.rows.Len() > 0 {
		right = append(right, strings.TrimSpace(t.spinner()+" loading"))
	}
	if t.pending != "" {
		right = append(right, t.pending+"…")
	}
	if label := t.sortLabel(); label != "" {
		// Also in the header's arrow, but the sorted column may be one the
		// width has dropped since.
		right = append(right, label)
	}
	if n := len(t.view); n > 0 {
		pos := FormatCount(t.cursor+1) + "/" + FormatCount(n)
		if t.applied != "" {
			pos += " of " + FormatCount(t.rows.Len())
		}
		right = append(right, pos)
	}
	status := strings.Join(right, "  ")
	var left string
	switch {
	case t.editing:
		left = t.input.View()
	case t.query != "" && t.remote:
		left = "filter: " + sanitize.Line(t.query) + " (server)"
	case t.query != "":
		left = "filter: " + sanitize.Line(t.query)
	}
	room := t.width - displayWidth(status) - 1
	if room < 0 {
		return t.styles.Muted.Render(truncate(status, t.width))
	}
	left = truncate(left, room)
	gap := t.width - displayWidth(left) - displayWidth(status)
	return left + strings.Repeat(" ", gap) + t.styles.Muted.Render(status)
}
