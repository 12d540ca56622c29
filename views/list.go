package views

import (
	"context"
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views/widget"
)

// list is a screen made of a table, a detail pane for the focused row, and
// an optional summary line; most screens are one.
type list[R any] struct {
	ctx    *Context
	title  string
	table  *widget.Table[R]
	id     func(R) string
	detail *widget.Detail
	// fields lists the focused row in the detail pane.
	fields func(R) []widget.Field
	// fetch loads the rows; nil for a screen whose rows are pushed.
	fetch func(context.Context) ([]R, error)
	// summary is a line above the table, computed when rows arrive.
	summary func([]R) string

	// summaryLine keeps the line for a screen that sets summaryTxt itself.
	summaryLine bool
	// loaded, when set, reworks rows as they arrive.
	loaded func([]R) []R
	// actions open a screen about the focused row.
	actions []rowAction[R]
	// newestFirst is for a list given newest first (Requests,
	// Transactions): while the cursor is on the first row it stays there
	// as newer rows arrive, so that the screen opens on the newest.
	newestFirst bool

	seq        int
	busy       bool
	err        error
	summaryTxt string
	focused    string
	width      int
	height     int
	split      widget.Split // the table's and the pane's places, set by layout
}

// rowsWarning is what a fetch returns with rows that are shown, but not
// all there was to read (a damaged journal line): the rows load, and the
// status line says what is missing.
type rowsWarning string

func (w rowsWarning) Error() string { return string(w) }

// rowAction is a key that opens a screen about the focused row: a form
// that acts on it.
type rowAction[R any] struct {
	key  key.Binding
	open func(R) Screen
	// only, when set, says which rows the action is for: on any other row
	// its key goes on to the table (enter then opens the row's details).
	only func(R) bool
	// refuse, when set, says why the action cannot be taken on a row it
	// is for ("" when it can): the status line tells, and nothing opens.
	refuse func(R) string
}

func newList[R any](ctx *Context, title string, cfg widget.TableConfig[R], fields func(R) []widget.Field) *list[R] {
	if cfg.Clipboard.Out == nil {
		cfg.Clipboard = ctx.Clipboard
	}
	l := &list[R]{ctx: ctx, title: title, id: cfg.ID, detail: widget.NewDetail(), fields: fields}
	if cfg.OnOpen == nil {
		// A row that opens nothing else opens its details.
		cfg.OnOpen = l.describe
		keys := widget.DefaultTableKeyMap()
		if cfg.Keys != nil {
			keys = *cfg.Keys
		}
		keys.Open.SetHelp("enter", "details")
		cfg.Keys = &keys
	}
	l.table = widget.NewTable(cfg)
	return l
}

// describe opens every field of row on a page of its own.
func (l *list[R]) describe(row R) tea.Cmd {
	return navigate(newDescribe(l.ctx, "Details", l.fields(row)))
}

func (l *list[R]) Title() string { return l.title }
func (l *list[R]) Busy() bool    { return l.busy }

func (l *list[R]) Capturing() bool { return l.table.EditingFilter() }

func (l *list[R]) Narrowed() bool { return l.table.Query() != "" }

func (l *list[R]) Init() tea.Cmd { return l.reload() }

func (l *list[R]) reload() tea.Cmd {
	if l.fetch == nil {
		return nil
	}
	l.seq = nextSeq()
	l.busy = true
	l.err = nil
	l.table.SetLoading(func() string { return "" })
	return load(l.seq, l.fetch)
}

func (l *list[R]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loaded[[]R]:
		if msg.seq != l.seq {
			return nil // an answer to an older request
		}
		l.busy = false
		var warn rowsWarning
		if msg.err != nil && !errors.As(msg.err, &warn) {
			// Not an empty list: the table's place says what failed (the
			// status line belongs to the screen on show, which may be
			// another tab's).
			l.err = msg.err
			l.table.SetLoading(nil)
			return nil
		}
		rows := msg.value
		if l.loaded != nil {
			rows = l.loaded(rows)
		}
		cmd := l.setRows(rows)
		if warn != "" {
			return tea.Batch(cmd, func() tea.Msg { return widget.StatusMsg{Text: l.title + ": " + string(warn), Error: true} })
		}
		return cmd
	case tea.KeyMsg:
		if l.table.EditingFilter() {
			break
		}
		if key.Matches(msg, keyRefresh) && l.fetch != nil {
			return l.reload()
		}
		row, ok := l.table.Selected()
		switch {
		case key.Matches(msg, l.detail.Keys.Up, l.detail.Keys.Down):
			return l.detail.Update(msg)
		case ok && key.Matches(msg, keyDetailKey):
			return l.describe(row)
		}
		for _, a := range l.actions {
			if !ok || !key.Matches(msg, a.key) || a.only != nil && !a.only(row) {
				continue
			}
			if a.refuse != nil {
				if why := a.refuse(row); why != "" {
					return func() tea.Msg { return widget.StatusMsg{Text: why, Error: true} }
				}
			}
			return navigate(a.open(row))
		}
	}
	cmd := l.table.Update(msg)
	l.syncDetail()
	return cmd
}

func (l *list[R]) setRows(rows []R) tea.Cmd {
	l.table.SetLoading(nil)
	if l.summary != nil {
		l.summaryTxt = l.summary(rows)
	}
	follow := l.newestFirst && l.onFirstRow()
	cmd := l.table.SetRows(rows)
	if follow && cmd == nil && len(rows) > 0 {
		// Shown as given (no sort or filter to wait for): the first row
		// is the newest.
		l.table.SelectID(l.id(rows[0]))
	}
	l.layout() // the rows decide how wide the table wants to be
	l.focused = ""
	l.syncDetail()
	return cmd
}

// onFirstRow says the cursor is on the first of the rows as they were
// given, or on none.
func (l *list[R]) onFirstRow() bool {
	row, ok := l.table.Selected()
	rows := l.table.Rows()
	return !ok || rows.Len() > 0 && l.id(row) == l.id(*rows.At(0))
}

// syncDetail shows the focused row in the detail pane when it changed.
func (l *list[R]) syncDetail() {
	row, ok := l.table.Selected()
	if !ok {
		if l.focused != "" {
			l.detail.SetFields(nil)
			l.focused = ""
		}
		return
	}
	id := l.id(row)
	if id == l.focused {
		return
	}
	l.focused = id
	l.detail.SetFields(l.fields(row))
}

func (l *list[R]) SetSize(width, height int) {
	l.width, l.height = width, height
	l.layout()
}

func (l *list[R]) layout() {
	h := l.height
	if l.hasSummary() {
		h--
	}
	if l.ctx.Compact || l.table.Rows().Len() == 0 && !l.busy {
		// No pane: the compact layout opens a row's details as a page, and
		// with no rows the pane would be empty while the table's message
		// is cut.
		l.split = widget.Split{Main: widget.Size{Width: l.width, Height: max(h, 1)}}
	} else {
		l.split = widget.SplitPaneFor(l.width, max(h, 1), l.table.NaturalWidth())
	}
	l.table.SetSize(l.split.Main.Width, l.split.Main.Height)
	l.detail.SetSize(l.split.Detail.Width, l.split.Detail.Height)
}

// LoadErr is why the rows could not be loaded, for the error details (E);
// nil once they are.
func (l *list[R]) LoadErr() error { return l.err }

// failed draws a failed load where the rows would be: what failed, and
// the keys that help.
func (l *list[R]) failed() string {
	first, _, _ := strings.Cut(l.err.Error(), "\n")
	text := "✗ Could not load " + l.title + ": " + sanitize.Line(first) + "\n\nE: error details · r: retry"
	return strings.Join(schFit(strings.Split(widget.Page(text, max(l.width, 20), 0), "\n"), max(l.width, 20), max(l.height, 1)), "\n")
}

func (l *list[R]) View() string {
	if l.err != nil {
		return l.failed()
	}
	var top string
	if l.hasSummary() {
		top = l.ctx.Styles.Muted.Render(sanitize.Truncate(l.summaryTxt, l.width)) + "\n"
	}
	return top + l.split.Join(l.table.View(), l.detail.View())
}

// hasSummary says whether the screen keeps a line above its table.
func (l *list[R]) hasSummary() bool { return l.summary != nil || l.summaryLine }

func (l *list[R]) ShortHelp() []key.Binding {
	// The screen's own actions first: the footer cuts from the right. One
	// that is not for the focused row is left out (the full help lists it).
	var keys []key.Binding
	row, selected := l.table.Selected()
	for _, a := range l.actions {
		if !selected || a.only != nil && !a.only(row) || a.refuse != nil && a.refuse(row) != "" {
			continue
		}
		keys = append(keys, a.key)
	}
	keys = append(keys, l.table.ShortHelp()...)
	if l.fetch != nil {
		keys = append(keys, keyRefresh)
	}
	return keys
}

func (l *list[R]) FullHelp() [][]key.Binding {
	var full [][]key.Binding
	var acts []key.Binding
	for _, a := range l.actions {
		acts = append(acts, a.key)
	}
	if acts != nil {
		// First, so that a narrow terminal does not cut them off.
		full = append(full, acts)
	}
	full = append(full, l.table.FullHelp()...)
	if l.ctx.Compact {
		full = append(full, []key.Binding{keyDetailKey}) // no pane to scroll
	} else {
		full = append(full, append(l.detail.ShortHelp(), keyDetailKey))
	}
	if l.fetch != nil {
		full = append(full, []key.Binding{keyRefresh})
	}
	return full
}
