package widget

import (
	"cmp"
	"slices"
	"strings"

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
	// SortKey speeds up sorting many rows by this column: what its Sort
	// or SortRef compares, as three words compared in order, such that a
	// row ordered before another never has a greater key. exact says
	// that rows of equal keys compare equal; the others are told apart
	// by Sort or SortRef. The table sorts the keys side by side instead
	// of comparing rows read at random (a million stakes: seconds).
	SortKey func(r *R) (key [3]uint64, exact bool)
	// Decimal says the cells are decimal numbers (maybe with a unit
	// after them): right-aligned, each padded with spaces to as many
	// fraction digits as the most among the first rows, so that the
	// points line up (6.50% above 16.875%). Each reads as its cell
	// writes it: no zero is added.
	Decimal bool
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

// shortID is the width an identifier column shortens to before a column
// is dropped: `0x3e3D…6EC9`, as wallets and explorers write an address,
// still tells one row from another.
const shortID = 11

// wholeIDsFirst is the Priority from which a column shows only when the
// identifiers before it are whole again: a time or a second id is not
// worth cutting the wallet a row is about.
const wholeIDsFirst = 3

// layout gives each column its width in a line of total cells, 0 for a
// column that does not fit. content is the width each column's cells need
// and ids marks the columns whose cells are identifiers (isID); both are
// nil before any rows.
//
// Columns are taken in the order the screen wants them (Priority, then
// left to right), each at its MinWidth, at its content for a number (a
// number cut short is wrong, not short) and for Text up to textWant. An
// identifier column gives way first: when the next column does not fit,
// the identifiers taken shorten towards shortID, cut in the middle, and
// get their cells back before the first column of Priority wholeIDsFirst
// or more. A column that does not fit even so is dropped; a later,
// narrower one may still fit. The room left goes to the columns up to
// their content, Text columns first, then to the flexible ones by weight,
// up to their caps. Without rows there is no content to grow to, and the
// columns stay packed at the left rather than spread under an empty table.
func layout[R any](cols []Column[R], total int, content []int, ids []bool) []int {
	widths := make([]int, len(cols))
	avail := total - markerWidth
	if avail <= 0 || len(cols) == 0 {
		return widths
	}
	measured := len(content) == len(cols) && len(ids) == len(cols)
	// want is the width a column asks for; enter the narrowest it takes
	// to come in at all; floor the narrowest it shortens to for others.
	want, enter, floor := make([]int, len(cols)), make([]int, len(cols)), make([]int, len(cols))
	for i, c := range cols {
		want[i] = c.minWidth()
		enter[i] = want[i]
		if measured && c.Text {
			want[i] = max(want[i], min(content[i], textWant))
		}
		if measured && c.Align == AlignRight {
			want[i] = max(want[i], content[i])
			enter[i] = want[i]
		}
		floor[i] = want[i]
		if measured && ids[i] {
			floor[i] = min(want[i], max(shortID, displayWidth(c.Title)))
			enter[i] = floor[i]
		}
	}
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cols[a].Priority, cols[b].Priority) })

	used := -len(columnGap) // the cells taken, gaps included
	slack := func() int {   // what the identifiers taken can give
		n := 0
		for j := range cols {
			if widths[j] > 0 {
				n += widths[j] - floor[j]
			}
		}
		return n
	}
	shorten := func(n int) { // the least wanted identifier first
		for k := len(order) - 1; k >= 0 && n > 0; k-- {
			if j := order[k]; widths[j] > floor[j] {
				d := min(widths[j]-floor[j], n)
				widths[j] -= d
				n -= d
			}
		}
	}
	restored := false
	restore := func() { // the most wanted identifier first
		for _, j := range order {
			if widths[j] > 0 && widths[j] < want[j] && used < avail {
				d := min(want[j]-widths[j], avail-used)
				widths[j] += d
				used += d
			}
		}
		restored = true
	}
	for _, i := range order {
		if !restored && cols[i].Priority >= wholeIDsFirst {
			restore()
		}
		room := avail - used - len(columnGap)
		if !restored {
			room += slack()
		}
		w := min(want[i], room)
		if w < enter[i] {
			continue
		}
		if short := w - (avail - used - len(columnGap)); short > 0 {
			shorten(short)
			used -= short
		}
		widths[i] = w
		used += len(columnGap) + w
	}
	if used < 0 {
		// Not even the most wanted column fits: it gets what there is.
		widths[order[0]] = avail
		return widths
	}
	if !restored {
		restore()
	}
	if !measured {
		return widths
	}
	extra := fill(cols, widths, content, avail-used, true)
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
// first rows whole, between its MinWidth and its MaxWidth, whether those
// cells are all identifiers (isID), and for a Decimal column the fraction
// digits its cells show (the most among those rows); nil without rows.
func contentWidths[R any](cols []Column[R], rows RowSet[R]) (widths []int, ids []bool, fracs []int) {
	if rows.Len() == 0 {
		return nil, nil, nil
	}
	widths, ids, fracs = make([]int, len(cols)), make([]bool, len(cols)), make([]int, len(cols))
	// Each cell is read once: the fraction digits of a Decimal column are
	// counted on the cells as line() pads them, sanitized.
	cells := make([]string, min(rows.Len(), contentSample))
	for i, c := range cols {
		for r := range cells {
			cells[r] = sanitize.Line(c.Cell(*rows.At(r)))
			if c.Decimal {
				fracs[i] = max(fracs[i], fractionDigits(cells[r]))
			}
		}
		fracs[i] = min(fracs[i], maxFraction)
		w := c.minWidth()
		id, seen := c.Align == AlignLeft, false
		for _, cell := range cells {
			if c.Decimal {
				cell = padFraction(cell, fracs[i])
			}
			w = max(w, displayWidth(cell))
			if id && cell != "" {
				id, seen = isID(cell), true
			}
		}
		if m := c.maxWidth(); m > 0 {
			w = min(w, m)
		}
		widths[i], ids[i] = w, id && seen
	}
	return widths, ids, fracs
}

// maxFraction bounds the padding a Decimal column adds: past it, a cell
// with more digits (a token's 18) shows them as they are.
const maxFraction = 6

// numberAt finds the first number in cell (digits with "," and one "."),
// as the byte offsets of its start, its point (-1 without one) and its end.
func numberAt(cell string) (start, point, end int) {
	start = strings.IndexAny(cell, "0123456789")
	if start < 0 {
		return -1, -1, -1
	}
	point = -1
	end = start
	for end < len(cell) {
		ch := cell[end]
		switch {
		case ch >= '0' && ch <= '9', ch == ',':
		case ch == '.' && point < 0 && end+1 < len(cell) && cell[end+1] >= '0' && cell[end+1] <= '9':
			point = end
		default:
			return start, point, end
		}
		end++
	}
	return start, point, end
}

// fractionDigits is the digits after the point of cell's number.
func fractionDigits(cell string) int {
	_, point, end := numberAt(cell)
	if point < 0 {
		return 0
	}
	return end - point - 1
}

// padFraction adds spaces after cell up to digits after its number's
// point (and the point), so that right-aligned numbers line up on it
// while each reads as its cell writes it, as its details and the command
// line write it ("49,040,483.89", never "49,040,483.8900"); what follows
// the number (a "%") stays next to it.
func padFraction(cell string, digits int) string {
	start, point, end := numberAt(cell)
	if start < 0 || digits == 0 {
		return cell
	}
	have := 0
	if point >= 0 {
		have = end - point - 1
	}
	if have >= digits {
		return cell
	}
	pad := digits - have
	if point < 0 {
		pad++ // the point too
	}
	return cell + strings.Repeat(" ", pad)
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
