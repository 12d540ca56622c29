package widget

import (
	"cmp"
	"slices"

	"allot/internal/sanitize"
)

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
	// the width of its cells (Text columns first); 0 keeps the column at
	// that width.
	Flex int
	// Text marks free text people read (a name): the width left after
	// every column's MinWidth goes first to such columns, up to the width
	// their cells need, before long values of a fixed form (ids,
	// addresses) grow.
	Text bool
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

// textWant bounds the width a Text column's cells count for when columns
// are dropped: a long name does not push every other column out.
const textWant = 32

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
// fit at their minimum widths; the space left over goes to the columns up
// to content, the width their cells need (nil before any rows), Text
// columns first, then to the flexible ones by weight, up to their caps.
func layout[R any](cols []Column[R], total int, content []int) []int {
	widths := make([]int, len(cols))
	avail := total - markerWidth
	if avail <= 0 || len(cols) == 0 {
		return widths
	}
	kept := len(cols)
	need := -len(columnGap)
	for i, c := range cols {
		widths[i] = c.minWidth()
		if c.Text && len(content) == len(cols) {
			// A name cut short is read wrong: it counts whole (up to
			// textWant) when columns are dropped.
			widths[i] = max(widths[i], min(content[i], textWant))
		}
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
	// A column dropped to make room for a wider one may fit in what is
	// left: the most wanted first.
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cols[a].Priority, cols[b].Priority) })
	for _, i := range order {
		if w := cols[i].minWidth(); widths[i] == 0 && need+len(columnGap)+w <= avail {
			widths[i] = w
			need += len(columnGap) + w
		}
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
	extra := fill(cols, widths, content, avail-need, true)
	grow(cols, widths, fill(cols, widths, content, extra, false))
	return widths
}

// fill widens the kept columns that are Text (or not) to the width their
// cells need, the smallest need first so that as many as can show whole,
// while extra lasts; it returns what is left. A column without Flex grows
// too: a cell cut while the line has room says nothing.
func fill[R any](cols []Column[R], widths, content []int, extra int, text bool) int {
	if len(content) != len(cols) {
		return extra
	}
	need := func(i int) int { return max(content[i]-widths[i], 0) }
	var which []int
	for i, c := range cols {
		if c.Text == text && widths[i] > 0 {
			which = append(which, i)
		}
	}
	slices.SortStableFunc(which, func(a, b int) int { return cmp.Compare(need(a), need(b)) })
	for _, i := range which {
		give := min(need(i), extra)
		widths[i] += give
		extra -= give
	}
	return extra
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

// contentWidths is the width each column needs to show the cells of the
// first rows whole, between its MinWidth and its MaxWidth; nil without
// rows.
func contentWidths[R any](cols []Column[R], rows RowSet[R]) []int {
	if rows.Len() == 0 {
		return nil
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		w := c.minWidth()
		for r := range min(rows.Len(), contentSample) {
			w = max(w, displayWidth(sanitize.Line(c.Cell(*rows.At(r)))))
		}
		if m := c.maxWidth(); m > 0 {
			w = min(w, m)
		}
		widths[i] = w
	}
	return widths
}

// naturalWidth is the width at which every column shows its content
// whole, plus the marker and the gaps; 0 without content.
func naturalWidth(content []int) int {
	if len(content) == 0 {
		return 0
	}
	total := markerWidth - len(columnGap)
	for _, w := range content {
		total += w + len(columnGap)
	}
	return total
}
