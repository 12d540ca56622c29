package views

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views/widget"
)

// List is a screen made of a table, a detail pane for the focused row, and
// an optional summary line; most screens are one.
type List[R any] struct {
	Ctx    *Context
	title  string
	Table  *widget.Table[R]
	id     func(R) string
	detail *widget.Detail
	// fields lists the focused row in the detail pane.
	fields func(R) []widget.Field
	// Fetch loads the rows; nil for a screen whose rows are pushed.
	Fetch func(context.Context) ([]R, error)
	// Summary is the line above the table, computed when rows arrive: its
	// parts, most important first (see SummaryParts).
	Summary func([]R) []string

	// SummaryLine keeps the line for a screen that sets SummaryParts itself.
	SummaryLine bool
	// Loaded, when set, reworks rows as they arrive.
	Loaded func([]R) []R
	// Own, when set, are the screen's own keys on the focused row (c
	// copies a request as curl), listed and answered before the list's.
	Own func(row R, ok bool) widget.Bindings
	// Actions open a screen about the focused row.
	Actions []RowAction[R]
	// DetailActions, when set, are the keys a row's details page (enter)
	// answers beside scrolling, as the list does for that row.
	DetailActions func(R) []DetailAction
	// ReloadAfter names the acts (a followed transaction's Op: "claim",
	// "stake") whose mined transactions change the rows: the list reads
	// them again when one is final, rather than showing what the act
	// changed as it was until r.
	ReloadAfter []string
	// NewestFirst is for a list given newest first (Requests,
	// Transactions): while the cursor is on the first row it stays there
	// as newer rows arrive, so that the screen opens on the newest.
	NewestFirst bool

	Seq int
	// Reqs numbers the list's loads, and those of a screen built on it.
	Reqs Requests
	busy bool
	// refreshing is a quiet reload on its way (RefreshMsg): the rows stay
	// on show, and the dashboard does not count it as work to lose.
	refreshing bool
	// warned says the last load put its warning on the status line.
	warned bool
	// fresh is how old the rows on show are.
	fresh Freshness
	// prints are the rows' fingerprints at the last load, to tell the
	// rows a refresh changed (refresh.go).
	prints      map[string]string
	markedUntil time.Time // the marks' end; zero: none
	// held are keys pressed while a new filter was being applied: they
	// act on the rows it shows, once it has, so that enter right after
	// the filter's enter opens the first match, not the row the cursor
	// was on before.
	held []tea.KeyMsg
	Err  error
	// SummaryParts is the line above the table, most important first,
	// joined by " · ": a part that does not fit the width is dropped
	// whole, with those after it, rather than cut mid-number.
	SummaryParts []string
	Focused      string
	Width        int
	Height       int
	split        widget.Split // the table's and the pane's places, set by layout
}

// RowsWarning is what a fetch returns with rows that are shown, but not
// all there was to read (a damaged journal line): the rows load, and the
// status line says what is missing.
type RowsWarning string

// Error is the warning's text.
func (w RowsWarning) Error() string { return string(w) }

// NewList is a list titled title: the table cfg, fields for the detail
// pane of a row; the screen sets Fetch, and actions if it has any.
func NewList[R any](ctx *Context, title string, cfg widget.TableConfig[R], fields func(R) []widget.Field) *List[R] {
	if cfg.Clipboard.Out == nil {
		cfg.Clipboard = ctx.Clipboard
	}
	l := &List[R]{Ctx: ctx, title: title, id: cfg.ID, detail: widget.NewDetail(), fields: fields}
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
	l.Table = widget.NewTable(cfg)
	return l
}

// describe opens every field of row on a page of its own.
func (l *List[R]) describe(row R) tea.Cmd {
	var acts []DetailAction
	if l.DetailActions != nil {
		acts = l.DetailActions(row)
	}
	return Navigate(newDescribe(l.Ctx, "Details", l.fields(row), acts...))
}

func (l *List[R]) Title() string { return l.title }

// SetTitle names the list anew, for a screen that learns what it shows
// only once it has looked it up.
func (l *List[R]) SetTitle(title string) { l.title = title }

// Mode: busy while a fetch runs; the table takes keys while its filter is
// typed, and esc clears a filter before it closes the page.
func (l *List[R]) Mode() Mode {
	return Mode{Busy: l.busy, TakesKeys: l.Table.EditingFilter(), OwnsEsc: l.Table.Query() != ""}
}

func (l *List[R]) Init() tea.Cmd { return l.Reload() }

// Reload fetches the rows again (r), if the screen has a Fetch. Rows on
// show stay, and stay marked stale if it fails, as on a refresh.
func (l *List[R]) Reload() tea.Cmd {
	if l.Fetch == nil {
		return nil
	}
	l.Seq = l.Reqs.Next()
	l.busy, l.refreshing = true, false
	l.Err = nil
	if !l.shown() {
		l.Table.SetLoading(func() string { return "" })
	}
	return Load(l.Ctx, l.Seq, l.Fetch)
}

// Freshness says how old the rows on show are.
func (l *List[R]) Freshness() Freshness { return l.fresh }

// Refreshed says the rows on show were read just now, for a screen whose
// rows are pushed.
func (l *List[R]) Refreshed() { l.fresh = Freshness{At: l.Ctx.Now()} }

// MarkStale says a refresh failed for err: the rows on show stay.
func (l *List[R]) MarkStale(err error) { l.fresh.Stale = err }

func (l *List[R]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Loaded[[]R]:
		if msg.Seq != l.Seq {
			return nil // an answer to an older request
		}
		quiet := l.refreshing
		l.busy, l.refreshing = false, false
		var warn RowsWarning
		if msg.Err != nil && !errors.As(msg.Err, &warn) && l.shown() {
			// The rows on show stay, marked stale in the header.
			l.fresh.Stale = msg.Err
			return nil
		}
		if msg.Err != nil && !errors.As(msg.Err, &warn) {
			// Not an empty list: the table's place says what failed (the
			// status line belongs to the screen on show, which may be
			// another tab's).
			l.Err = msg.Err
			l.Table.SetLoading(nil)
			return nil
		}
		l.Err = nil
		l.fresh = Freshness{At: l.Ctx.Now()}
		rows := msg.Value
		if l.Loaded != nil {
			rows = l.Loaded(rows)
		}
		l.markChanged(rows, quiet)
		cmd := l.setRows(rows, quiet)
		if warn != "" {
			l.warned = true
			return tea.Batch(cmd, func() tea.Msg { return widget.StatusMsg{Text: l.title + ": " + string(warn), Error: true} })
		}
		return cmd
	case TxStatusMsg:
		if msg.Final && msg.Err == nil && slices.Contains(l.ReloadAfter, msg.Op) {
			return l.Reload()
		}
		return nil
	case RefreshMsg:
		if msg.Chain {
			return nil // the service's list: its own rhythm
		}
		return l.refresh()
	case tea.KeyMsg:
		if l.Table.EditingFilter() {
			break
		}
		if l.Table.Filtering() {
			if len(l.held) < maxHeld {
				l.held = append(l.held, msg)
			}
			return nil
		}
		cmd, _ := l.keys().Dispatch(msg)
		return l.synced(cmd)
	}
	return l.synced(l.Table.Update(msg))
}

// synced shows the row now focused in the detail pane, and gives the
// keys held while a filter landed their turn.
func (l *List[R]) synced(cmd tea.Cmd) tea.Cmd {
	l.SyncDetail()
	if len(l.held) > 0 && !l.Table.Filtering() {
		held := l.held
		l.held = nil
		cmds := []tea.Cmd{cmd}
		for _, k := range held {
			cmds = append(cmds, l.Update(k))
		}
		cmd = tea.Batch(cmds...)
	}
	return cmd
}

// maxHeld bounds the keys held while a filter lands: a burst beyond it
// is a key held down, not keys the user means one by one.
const maxHeld = 16

// SetRows shows rows, with their summary; a list given newest first keeps
// the cursor on the newest.
func (l *List[R]) SetRows(rows []R) tea.Cmd { return l.setRows(rows, false) }

// RefreshRows shows rows read again, as a refresh does: in the order on
// show, not sorted anew (widget.Table.RefreshRows).
func (l *List[R]) RefreshRows(rows []R) tea.Cmd { return l.setRows(rows, true) }

// setRows is SetRows; refresh says the rows are a refresh's, shown in the
// order on show rather than sorted anew (widget.Table.RefreshRows).
func (l *List[R]) setRows(rows []R, refresh bool) tea.Cmd {
	l.Table.SetLoading(nil)
	if l.Summary != nil {
		l.SummaryParts = l.Summary(rows)
	}
	follow := l.NewestFirst && l.onFirstRow()
	var cmd tea.Cmd
	if refresh {
		cmd = l.Table.RefreshRows(rows)
	} else {
		cmd = l.Table.SetRows(rows)
	}
	if follow && cmd == nil && len(rows) > 0 {
		// Shown as given (no sort or filter to wait for): the first row
		// is the newest.
		l.Table.SelectID(l.id(rows[0]))
	}
	l.Layout() // the rows decide how wide the table wants to be
	if row, ok := l.Table.Selected(); ok && l.id(row) == l.Focused {
		l.detail.UpdateFields(l.fields(row)) // the same row: the pane keeps its place
	} else {
		l.Focused = ""
		l.SyncDetail()
	}
	return cmd
}

// onFirstRow says the cursor is on the first of the rows as they were
// given, or on none.
func (l *List[R]) onFirstRow() bool {
	row, ok := l.Table.Selected()
	rows := l.Table.Rows()
	return !ok || rows.Len() > 0 && l.id(row) == l.id(*rows.At(0))
}

// SyncDetail shows the focused row in the detail pane when it changed.
func (l *List[R]) SyncDetail() {
	row, ok := l.Table.Selected()
	if !ok {
		if l.Focused != "" {
			l.detail.SetFields(nil)
			l.Focused = ""
		}
		return
	}
	id := l.id(row)
	if id == l.Focused {
		return
	}
	l.Focused = id
	l.detail.SetFields(l.fields(row))
}

func (l *List[R]) SetSize(width, height int) {
	l.Width, l.Height = width, height
	l.Layout()
}

// Layout places the table and the detail pane in the list's size.
func (l *List[R]) Layout() {
	h := l.Height
	if l.hasSummary() {
		h--
	}
	if l.Ctx.Compact || l.Table.Rows().Len() == 0 && !l.busy {
		// No pane: the compact layout opens a row's details as a page, and
		// with no rows the pane would be empty while the table's message
		// is cut.
		l.split = widget.Split{Main: widget.Size{Width: l.Width, Height: max(h, 1)}}
	} else {
		l.split = widget.SplitPaneFor(l.Width, max(h, 1), l.Table.NaturalWidth())
	}
	l.Table.SetSize(l.split.Main.Width, l.split.Main.Height)
	l.detail.SetSize(l.split.Detail.Width, l.split.Detail.Height)
}

// LoadErr is why the rows could not be loaded, for the error details (E);
// nil once they are.
func (l *List[R]) LoadErr() error { return l.Err }

// failed draws a failed load where the rows would be: what failed, and
// the keys that help.
func (l *List[R]) failed() string {
	first, _, _ := strings.Cut(l.Err.Error(), "\n")
	text := "✗ Could not load " + l.title + ": " + sanitize.Line(first) + "\n\nE: error details · r: retry"
	return widget.Fit(widget.Page(text, max(l.Width, 20), 0), max(l.Width, 20), max(l.Height, 1))
}

func (l *List[R]) View() string {
	l.unmarkOld()
	if l.Err != nil {
		return l.failed()
	}
	var top string
	if l.hasSummary() {
		parts := make([]string, len(l.SummaryParts))
		for i, p := range l.SummaryParts {
			parts[i] = sanitize.Line(p)
		}
		top = l.Ctx.Styles.Muted.Render(widget.JoinParts(l.Width, summarySep, parts...)) + "\n"
	}
	return top + l.split.Join(l.Table.View(), l.detail.View())
}

// summarySep joins the parts of the line above a table.
const summarySep = " · "

// hasSummary says whether the screen keeps a line above its table.
func (l *List[R]) hasSummary() bool { return l.Summary != nil || l.SummaryLine }
