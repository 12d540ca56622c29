// Package views is the kit the dashboard's screens share: Screen and
// Context, the declarative List, Load and its request numbers, the
// signing review (FormSign), the page of a write whose answer was lost
// (LostWrite), and helpers for bodies, amounts and recent lookups. The
// screens live in packages by family beside it (browse, holder, operator,
// schedule, creative, transactions), built on the widgets of views/widget.
// A screen asks for data with a tea.Cmd that calls the api or wallet
// packages; the answer comes back to that screen alone (Addressed),
// carrying the request's number, and an answer to an older request of
// the screen's is dropped.
package views

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/act"
	"allot/core/journal"
	"allot/core/session"
	"allot/internal/clock"
	"allot/views/widget"
)

// Context is what every screen shares: the session, the clock, the looks,
// the clipboard and the local journal.
type Context struct {
	Session *session.Session
	// Now reads Clock: the dashboard sets both from one clock
	// (internal/clock), which tests move forward instead of sleeping.
	Now func() time.Time
	// Clock is what countdowns wait on; nil is the wall clock.
	Clock     clock.Clock
	Styles    widget.Styles
	Clipboard widget.Clipboard
	Journal   *journal.Journal // nil when the state directory is unusable
	// Recorder journals every write, signature and transaction before it
	// is made: screens act through it, never through the api directly.
	Recorder *act.Recorder
	// Wallet is the stakeholder's keystore account and portal session.
	Wallet *session.Wallet
	// Token is the token the screens show; the header switches it.
	Token string
	// Sight is the dashboard's frames, which tell its questions whether
	// they are shown whole (nil in a screen's own test).
	Sight *widget.Sight
	// Compact says the terminal is below the full layout (80x24): screens
	// leave out their detail panes, which enter opens as a page.
	Compact bool

	// head is the chain's head last seen, 0 for none (head.go).
	head uint64
	// root is what the screens' work runs under, end cancels it (life.go).
	root context.Context
	end  context.CancelFunc
}

// Confirm is a yes/no question in the screens' looks: prompt, and details
// that say what exactly will happen (amounts, addresses, the request). The
// screen sets its width as it lays out.
func (c *Context) Confirm(tag, prompt string, details ...string) *widget.Confirm {
	q := widget.NewConfirm(tag, prompt, details...)
	q.Styles = c.Styles
	if c.Sight != nil {
		c.Sight.Watch(q)
	}
	return q
}

// Screen is one page of the dashboard. Update returns only a command: the
// screen is a pointer and changes itself.
type Screen interface {
	// Title names the screen in tabs and the breadcrumb.
	Title() string
	// Init starts loading.
	Init() tea.Cmd
	Update(tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
	// Keys are the keys the screen answers as it stands, which its
	// Update dispatches and from which the dashboard draws the footer
	// (Bindings.ShortHelp) and the help (Bindings.FullHelp).
	Keys() widget.Bindings
	// Mode is what the dashboard needs to know of the screen on top.
	Mode() Mode
}

// Mode is what the dashboard needs to know of a screen to route a key and
// draw the header; the zero Mode is an idle screen that obeys every key.
type Mode struct {
	// Busy is true while the screen waits for the network: the header
	// spins, and quitting asks first.
	Busy bool
	// Writing is true while a write the user asked for is on its way
	// (sent, signed, uploaded): a profile switch asks first. A read,
	// such as a screen's first load, is Busy alone: a switch only
	// cancels it, and the new profile's screens load their own.
	Writing bool
	// TakesKeys is true while the screen takes text (a filter, an id, a
	// form, a question), so that keys such as q and 1 are typed, not
	// obeyed.
	TakesKeys bool
	// OwnsEsc is true while esc is the screen's own (a filter to clear, a
	// question to leave) before it closes the page.
	OwnsEsc bool
}

// Base gives a screen the defaults of what a Screen must have: nothing to
// start, and the zero Mode. A screen embeds it and writes the rest.
type Base struct{}

// Init starts nothing.
func (Base) Init() tea.Cmd { return nil }

// Mode is the zero Mode: idle, every key obeyed.
func (Base) Mode() Mode { return Mode{} }

// NavigateMsg opens a page on top of the current one.
type NavigateMsg struct{ Screen Screen }

// BackMsg closes a page. With no Screen it closes the page on top, as esc
// does: a screen that takes every key (a form) sends it when the user
// cancels, while it is on top. A page that closes itself when background
// work ends names itself, since by then the user may have moved on.
type BackMsg struct{ Screen Screen }

// Back closes the page on top, as esc does.
func Back() tea.Msg { return BackMsg{} }

// ClosePage closes s wherever it is by the time the message arrives.
func ClosePage(s Screen) tea.Cmd { return func() tea.Msg { return BackMsg{Screen: s} } }

// ErrorMsg reports a failure for the status line; the dashboard keeps
// running.
type ErrorMsg struct {
	Op  string
	Err error
}

// StatusMsg is an informational line for the status line.
type StatusMsg = widget.StatusMsg

// Acting is a page that signs, sends or writes: a form that creates a
// transaction, a schedule or a creative, a claim, a stake. A read-only
// session does not open it, and says why instead.
type Acting interface{ Acting() }

// Navigate opens s on top of the current page.
func Navigate(s Screen) tea.Cmd {
	return func() tea.Msg { return NavigateMsg{Screen: s} }
}

// Requests numbers the requests of one screen, or of one part of it (a
// list, a send, a check), so that a newer request supersedes an older one:
// the answer to any but the latest is dropped. Answers come back to the
// screen that asked (Addressed), so numbers need differ only within it.
// The zero Requests is ready; a part made anew keeps its owner's Requests
// (or its own), so that an answer to the part it replaced is not taken for
// its own.
type Requests struct{ last int }

// Next is the number of a new request, above every earlier one's.
func (r *Requests) Next() int {
	r.last++
	return r.last
}

// Load runs fn off the UI goroutine, under c's root (it ends when the
// user quits or switches profile) and RequestTimeout, and wraps its
// answer as a message.
func Load[T any](c *Context, seq int, fn func(context.Context) (T, error)) tea.Cmd {
	root := c.Root()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(root, RequestTimeout)
		defer cancel()
		v, err := fn(ctx)
		return Loaded[T]{Seq: seq, Value: v, Err: err}
	}
}

// Loaded is the answer to a load; a screen accepts it only when seq is its
// latest request.
type Loaded[T any] struct {
	Seq   int
	Value T
	Err   error
}
