package views

// Answers are addressed: what a screen's command yields goes back to that
// screen only, in an envelope the dashboard opens, and only events are
// heard by every screen.

import (
	"reflect"

	tea "github.com/charmbracelet/bubbletea"
)

// Addressed is a message for one screen: the dashboard gives Msg to To
// while To is open, and to no one once it is closed or replaced (a reload,
// a profile switch), so that a screen never sees another's answer. Msg is
// a StatusMsg or an ErrorMsg, too: the status line shows it as To's.
type Addressed struct {
	To  Screen
	Msg tea.Msg
}

// An Event is a fact every screen may act on, whoever's command found it:
// a transaction's status, an allocation followed. The dashboard gives it
// to every screen, where an answer goes only to the screen that asked.
type Event interface{ Event() }

// Event makes a transaction's status heard by every screen.
func (TxStatusMsg) Event() {}

// Event makes a new chain head heard by every screen.
func (HeadMsg) Event() {}

// Address makes the messages cmd yields, in a batch or a sequence alike,
// messages for to: answers, spinner ticks and statuses come back to the
// screen whose command it was. Left as they are: events, the pages opened
// and closed (NavigateMsg, BackMsg), messages already addressed (a screen
// that starts a page's work addresses it to that page), and Bubble Tea's
// own, which the program itself acts on (quit, a terminal's title).
func Address(to Screen, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			for i, c := range msg {
				msg[i] = Address(to, c)
			}
			return msg
		case Event, NavigateMsg, BackMsg, Addressed:
			return msg
		default:
			if seq, ok := sequence(msg); ok {
				for i := range seq.Len() {
					c := seq.Index(i)
					c.Set(reflect.ValueOf(Address(to, c.Interface().(tea.Cmd))))
				}
				return msg
			}
			if reflect.TypeOf(msg).PkgPath() == teaPkg {
				return msg
			}
			return Addressed{To: to, Msg: msg}
		}
	}
}

// teaPkg is Bubble Tea's package, whose messages are the program's.
var teaPkg = reflect.TypeFor[tea.QuitMsg]().PkgPath()

// sequence is tea.Sequence's message, whose type bubbletea does not
// export: a list of commands that is not a batch. Its commands are run in
// order by the program, so Address rewrites them in place.
func sequence(msg tea.Msg) (reflect.Value, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return reflect.Value{}, false
	}
	return v, true
}
