package widget

import (
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// defaultDebounce is how long the filter waits after the last keystroke
// before it filters: long enough to skip the intermediate queries of a fast
// typist, short enough to feel immediate.
const defaultDebounce = 100 * time.Millisecond

// filterStatusRoom is what the footer keeps right of the filter being
// typed, for the position ("1,234/100,000").
const filterStatusRoom = 24

// findInFrame is how many rows SetRows searches for the focused row on
// the UI goroutine; more rows are searched in a job.
const findInFrame = 20_000

// maxQueryLen bounds the filter input.
const maxQueryLen = 200

// TableConfig configures a Table. Columns and ID are required.
type TableConfig[R any] struct {
	Columns []Column[R]
	// ID identifies a row across SetRows calls, so that the cursor stays on
	// the same row when the rows are replaced, sorted or filtered.
	ID func(R) string
	// CopyText is what the copy key puts on the clipboard (an id, an
	// address); nil copies the ID.
	CopyText func(R) string
	// OnOpen runs when the user presses enter on a row; nil disables enter.
	OnOpen func(R) tea.Cmd
	// OnFilter sees every filter query once it settles (after the debounce,
	// on enter, and "" when the filter is cleared), before the table filters
	// locally. It returns handled = true to take the query over, for example
	// to ask the server for a full wallet address; the table then shows the
	// rows the screen gives it with SetRows and does not filter them. Its
	// command, if any, is run either way.
	OnFilter func(query string) (cmd tea.Cmd, handled bool)
	// FilterText, when set, appends the text the filter searches in a row,
	// in place of every column's cell: a screen of a million rows writes
	// it without a string per cell. Fields are best separated by a NUL;
	// the table lowercases ASCII letters and turns every control byte into
	// a separator, so it cannot break the index.
	FilterText func(dst []byte, row R) []byte
	// Clipboard receives copies; the zero value means TerminalClipboard.
	Clipboard Clipboard
	// Keys overrides DefaultTableKeyMap.
	Keys *TableKeyMap
	// Styles overrides DefaultStyles.
	Styles *Styles
	// Debounce overrides the filter's 100ms debounce.
	Debounce time.Duration
	// Empty is shown when there are no rows at all; default "No rows.".
	Empty string
}

// sortKey is a sort order: a column index (-1 for the order the rows were
// given in) and a direction.
type sortKey struct {
	col  int
	desc bool
	// kept marks an order a refresh kept (table_refresh.go): the order
	// the rows were on show in, not the sort's. It never equals the sort
	// the user asks for, so that a new sort or filter sorts anew.
	kept bool
}

var unsorted = sortKey{col: -1}

// Table is a scrolling, sortable, filterable table of rows of type R that
// stays fluid at a million rows: rows stay where the caller put them and the
// table orders and filters a slice of indexes into them; each row's line is
// rendered once per width and cached; View draws only the visible window.
// Cursor moves and View cost O(visible rows). Sorting and filtering cost
// O(n) or more and run in tea.Cmds, off the UI goroutine.
//
// Create it with NewTable, give it SetSize and SetRows, and forward messages
// to Update: the debounce ticks and background results come back that way.
type Table[R any] struct {
	cols      []Column[R]
	text      rowText[R] // what the filter searches in a row
	id        func(R) string
	changed   map[string]bool // ids a refresh changed, marked (table_marks.go)
	copyText  func(R) string
	onOpen    func(R) tea.Cmd
	onFilter  func(string) (tea.Cmd, bool)
	clipboard Clipboard
	keys      TableKeyMap
	styles    Styles
	debounce  time.Duration
	empty     string

	// rows are on screen. next is the newest slice given to SetRows; it
	// differs from rows while a background job sorts or filters it, and the
	// old rows stay on screen meanwhile. gens number the slices.
	rows, next       RowSet[R]
	rowsGen, nextGen int64
	order            []int        // every row index, in sort order
	orderSort        sortKey      // the sort order was computed for
	view             []int        // the rows shown: order, filtered
	index            *filterIndex // lowercase cells of rows; built on first filter
	applied          string       // the local filter view was computed for

	sort      sortKey // the sort the user asked for
	query     string  // the filter that is applied or being applied
	remote    bool    // query was handled by OnFilter
	input     textinput.Model
	editing   bool
	filterSeq int64 // numbers debounce ticks; only the latest counts
	jobSeq    int64 // numbers background jobs; only the latest counts
	pending   string

	cursor, offset int // positions in view
	width, height  int
	widths         []int  // per column; 0 when dropped
	content        []int  // the width each column's cells need; nil before rows
	ids            []bool // the columns whose cells are identifiers; nil before rows
	fracs          []int  // the fraction digits of each Decimal column; nil before rows
	natural        int    // NaturalWidth
	header         string
	cache          lineCache
	scratch        []byte
	spinner        func() string
	// replaced is what the table showed before the last SetRows, kept so
	// that a screen giving those rows back (after a server filter) finds
	// them as they were: sorted, indexed, the cursor where it was.
	replaced *shownState[R]
}

// shownState is the rows on screen and what was computed for them.
type shownState[R any] struct {
	rows           RowSet[R]
	order, view    []int
	orderSort      sortKey
	applied        string
	index          *filterIndex
	cursor, offset int
}

// NewTable builds a table. It panics when ID or a column's Cell is missing:
// that is a programming error, not a runtime condition.
func NewTable[R any](cfg TableConfig[R]) *Table[R] {
	if cfg.ID == nil {
		panic("widget: TableConfig.ID is nil")
	}
	for _, c := range cfg.Columns {
		if c.Cell == nil {
			panic("widget: column " + c.Title + " has no Cell")
		}
	}
	t := &Table[R]{
		cols:      cfg.Columns,
		id:        cfg.ID,
		copyText:  cfg.CopyText,
		onOpen:    cfg.OnOpen,
		onFilter:  cfg.OnFilter,
		clipboard: cfg.Clipboard,
		keys:      DefaultTableKeyMap(),
		styles:    DefaultStyles(),
		debounce:  cfg.Debounce,
		empty:     cfg.Empty,
		sort:      unsorted,
		orderSort: unsorted,
		widths:    make([]int, len(cfg.Columns)),
	}
	if t.copyText == nil {
		t.copyText = cfg.ID
	}
	t.text = cellsText(cfg.Columns)
	if cfg.FilterText != nil {
		t.text = customText(cfg.FilterText)
	}
	if t.clipboard.Out == nil {
		t.clipboard = TerminalClipboard()
	}
	if cfg.Keys != nil {
		t.keys = *cfg.Keys
	}
	if cfg.Styles != nil {
		t.styles = *cfg.Styles
	}
	if t.debounce <= 0 {
		t.debounce = defaultDebounce
	}
	if t.empty == "" {
		t.empty = "No rows."
	}
	t.input = textinput.New()
	t.input.Prompt = "/ "
	t.input.Placeholder = "filter"
	t.input.CharLimit = maxQueryLen
	// A static cursor sends no blink messages: nothing to route, and
	// golden files stay stable.
	t.input.Cursor.SetMode(cursor.CursorStatic)
	return t
}

// SetDebounce sets how long the filter waits after the last keystroke, as
// TableConfig.Debounce does, on a table a screen built: a test that runs
// each keystroke's tick to its end before the next key waits it out once
// per key.
func (t *Table[R]) SetDebounce(d time.Duration) {
	if d <= 0 {
		d = defaultDebounce
	}
	t.debounce = d
}

// SetSize sets the table's area, header and footer lines included. Column
// widths follow the width; rendered lines are cached per width.
func (t *Table[R]) SetSize(width, height int) {
	if width != t.width {
		t.width = width
		t.widths = layout(t.cols, width, t.content, t.ids)
		t.cache.reset()
		t.header = t.renderHeader()
		// Room for a whole address (42) beside the position on the
		// right: half the width scrolled "0x" off at 80 columns.
		t.input.Width = max(width-filterStatusRoom, 10)
	}
	t.height = height
	t.setCursor(t.cursor)
}

// NaturalWidth is the width at which the first rows' cells show whole, so
// that a screen can give the table that much before a side pane takes the
// rest; 0 before any rows.
func (t *Table[R]) NaturalWidth() int { return t.natural }

// Rows returns the rows given (by SetRows, then AppendRows), in that
// order, including those a job is still sorting or filtering in.
func (t *Table[R]) Rows() RowSet[R] { return t.next }

// Shown returns the rows and, as indexes into them, those shown in order
// (sorted and filtered): for work over what the user sees, such as a
// histogram of the filtered rows, off the UI goroutine. The table never
// modifies either afterwards.
func (t *Table[R]) Shown() (rows RowSet[R], shown []int) { return t.rows, slices.Clip(t.view) }

// Len is the number of rows shown (after the filter).
func (t *Table[R]) Len() int { return len(t.view) }

// Selected returns the focused row; false when no row is shown.
func (t *Table[R]) Selected() (R, bool) {
	if len(t.view) == 0 {
		var zero R
		return zero, false
	}
	return *t.rows.At(t.view[t.cursor]), true
}

// SelectID moves the cursor to the row with the given ID and reports
// whether it is shown. It scans the shown rows: O(n), for navigation, not
// for every frame.
func (t *Table[R]) SelectID(id string) bool {
	pos := t.find(id)
	if pos < 0 {
		return false
	}
	t.setCursor(pos)
	return true
}

// SetLoading shows that rows are being fetched: with no rows, the body says
// "Loading…" after the caller's spinner frame; with rows, the footer says
// "loading" after it. spinner is called on every View (pass the View method
// of a spinner, or a func returning "" for the words alone); nil ends the
// loading state.
func (t *Table[R]) SetLoading(spinner func() string) { t.spinner = spinner }

// SortBy sorts by column col (an index into Columns) in the given direction,
// as if the user had cycled to it. A column without Sort is ignored.
func (t *Table[R]) SortBy(col int, desc bool) tea.Cmd {
	if col < 0 || col >= len(t.cols) || !t.cols[col].sortable() {
		return nil
	}
	t.sort = sortKey{col: col, desc: desc}
	t.header = t.renderHeader()
	return t.reorder(false, "sorting")
}

// Query is the filter in force ("" for none): applied locally, or handed to
// OnFilter.
func (t *Table[R]) Query() string { return t.query }

// EditingFilter reports whether the filter input has the keyboard. The app
// must then send every key to the table, global keys included (a "q" is
// part of the query, not quit).
func (t *Table[R]) EditingFilter() bool { return t.editing }

// Filtering says a new filter is being applied in the background: until
// it lands, the focused row is not yet the one the filter will focus.
func (t *Table[R]) Filtering() bool { return t.pending == "filtering" }

func (t *Table[R]) localQuery() string {
	if t.remote {
		return ""
	}
	return t.query
}

func (t *Table[R]) focusedID() (string, bool) {
	r, ok := t.Selected()
	if !ok {
		return "", false
	}
	return t.id(r), true
}

// find returns the position of the row with the given ID in the view, or -1.
func (t *Table[R]) find(id string) int {
	for pos, i := range t.view {
		if t.id(*t.rows.At(i)) == id {
			return pos
		}
	}
	return -1
}

func (t *Table[R]) bodyHeight() int { return max(t.height-2, 0) }

func (t *Table[R]) move(delta int) { t.setCursor(t.cursor + delta) }

// setCursor moves the cursor to pos (clamped) and scrolls just enough to
// keep it in view.
func (t *Table[R]) setCursor(pos int) {
	n := len(t.view)
	if n == 0 {
		t.cursor, t.offset = 0, 0
		return
	}
	t.cursor = min(max(pos, 0), n-1)
	body := max(t.bodyHeight(), 1)
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+body {
		t.offset = t.cursor - body + 1
	}
	t.offset = min(max(t.offset, 0), max(n-body, 0))
}

// place puts the cursor on pos after the view changed, on the same screen
// line as before when possible, so that the focused row does not jump. A
// negative pos (the row is gone) keeps the cursor's position, clamped.
func (t *Table[R]) place(pos int) {
	if pos < 0 {
		t.setCursor(t.cursor)
		return
	}
	t.offset = pos - (t.cursor - t.offset)
	t.setCursor(pos)
}

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
