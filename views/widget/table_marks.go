package widget

// changedMarker stands in the marker's place beside a row a refresh
// changed, while it is marked: a character, not only a color, so that it
// reads on a terminal without colors.
const changedMarker = "• "

// SetChanged marks the rows of ids as changed by the last refresh (nil:
// none), until marked again.
func (t *Table[R]) SetChanged(ids map[string]bool) { t.changed = ids }

// marker is what stands beside the row at position pos of the view.
func (t *Table[R]) marker(pos int, plain string) string {
	if len(t.changed) == 0 || !t.changed[t.id(*t.rows.At(t.view[pos]))] {
		return plain
	}
	if t.width < markerWidth {
		return truncate(changedMarker, t.width)
	}
	return changedMarker
}
