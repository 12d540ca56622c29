package widget

import "allot/internal/sanitize"

// Align says on which side of its column a cell's text sits.
type Align int

const (
	// AlignLeft suits text: ids, addresses, names, statuses.
	AlignLeft Align = iota
	// AlignRight suits numbers, so that digits of equal weight line up.
	AlignRight
)

// Column describes one column of a Table whose rows have type R.
//
// The functions Cell, Sort (and the table's ID) must be pure and safe to call
// from another goroutine: the table calls them off the UI goroutine to sort
// and to build its filter index.
type Column[R any] struct {
	// Title heads the column.
	Title string
	// Cell returns the column's text for a row, raw: the table sanitizes it
	// before it is drawn or cached, because it usually came from the network.
	Cell func(R) string
	// Align places the text in the column; numbers go right.
	Align Align
	// MinWidth is the narrowest the column may get before it is dropped
	// instead; 0 means the width of the title.
	MinWidth int
	// MaxWidth caps how far Flex may widen the column; 0 means no cap.
	MaxWidth int
	// Flex is the column's share of the width left after every column got
	// its MinWidth; 0 keeps the column at MinWidth.
	Flex int
	// Priority decides which columns go when the terminal is too narrow for
	// all of them: the column with the highest Priority is dropped first,
	// and among equals the rightmost.
	Priority int
	// Sort orders two rows by this column (negative, zero, positive, like
	// cmp.Compare); nil leaves the column out of the sort cycle.
	Sort func(a, b R) int
	// SortRef is Sort for rows too large to copy at every comparison (a
	// million compact stakes sort a third faster): it orders two rows in
	// place and must not modify them. It is used instead of Sort when set.
	SortRef func(a, b *R) int
}

// sortable says whether the column takes part in the sort cycle.
func (c Column[R]) sortable() bool { return c.Sort != nil || c.SortRef != nil }

const (
	// markerWidth is the room at the start of each line for the selection
	// marker, which keeps the focused row visible without color.
	markerWidth = 2
	columnGap   = "  "
)

func (c Column[R]) minWidth() int {
	if c.MinWidth > 0 {
		return c.MinWidth
	}
	return max(displayWidth(c.Title), 1)
}

func (c Column[R]) maxWidth() int {
	if c.MaxWidth > 0 {
		return max(c.MaxWidth, c.minWidth())
	}
	return 0
}

// layout gives each column its width in a line of total cells, 0 for a
// column that does not fit. Columns are dropped by Priority until the rest
// fit at their minimum widths; the space left over goes to flexible columns
// by weight, up to their caps.
func layout[R any](cols []Column[R], total int) []int {
	widths := make([]int, len(cols))
	avail := total - markerWidth
	if avail <= 0 || len(cols) == 0 {
		return widths
	}
	kept := len(cols)
	need := -len(columnGap)
	for i, c := range cols {
		widths[i] = c.minWidth()
		need += widths[i] + len(columnGap)
	}
	for need > avail && kept > 1 {
		drop := -1
		for i := len(cols) - 1; i >= 0; i-- {
			if widths[i] > 0 && (drop < 0 || cols[i].Priority > cols[drop].Priority) {
				drop = i
			}
		}
		need -= widths[drop] + len(columnGap)
		widths[drop] = 0
		kept--
	}
	if need > avail {
		// One column left and still too wide: it gets what there is.
		for i := range widths {
			if widths[i] > 0 {
				widths[i] = avail
			}
		}
		return widths
	}
	grow(cols, widths, avail-need)
	return widths
}

// grow hands out extra cells to the kept flexible columns in proportion to
// their Flex, respecting MaxWidth; cells nobody can take stay unused.
func grow[R any](cols []Column[R], widths []int, extra int) {
	for extra > 0 {
		weight := 0
		for i, c := range cols {
			if canGrow(c, widths[i]) {
				weight += c.Flex
			}
		}
		if weight == 0 {
			return
		}
		given := 0
		for i, c := range cols {
			if !canGrow(c, widths[i]) {
				continue
			}
			share := extra * c.Flex / weight
			if m := c.maxWidth(); m > 0 {
				share = min(share, m-widths[i])
			}
			widths[i] += share
			given += share
		}
		if given == 0 {
			// Rounding left less than one cell per weight: go one by one.
			for i, c := range cols {
				if extra-given > 0 && canGrow(c, widths[i]) {
					widths[i]++
					given++
				}
			}
		}
		extra -= given
	}
}

func canGrow[R any](c Column[R], w int) bool {
	if w == 0 || c.Flex <= 0 {
		return false
	}
	m := c.maxWidth()
	return m == 0 || w < m
}

// contentSample bounds the rows whose cells are measured for a table's
// natural width: enough to see typical names and amounts, cheap on the UI
// goroutine whatever the number of rows.
const contentSample = 200

// naturalWidth is the width at which every column shows the cells of the
// first rows whole: each column between its MinWidth and its MaxWidth,
// plus the marker and the gaps. 0 without rows.
func naturalWidth[R any](cols []Column[R], rows RowSet[R]) int {
	if rows.Len() == 0 || len(cols) == 0 {
		return 0
	}
	total := markerWidth - len(columnGap)
	for _, c := range cols {
		w := c.minWidth()
		for i := range min(rows.Len(), contentSample) {
			w = max(w, displayWidth(sanitize.Line(c.Cell(*rows.At(i)))))
		}
		if m := c.maxWidth(); m > 0 {
			w = min(w, m)
		}
		total += w + len(columnGap)
	}
	return total
}
