package views

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestAddressWrapsAnswersOnly: what a screen's command yields comes back
// addressed to it, through batches and sequences alike; events, pages
// opened and closed, messages already addressed to another screen and
// Bubble Tea's own messages pass as they are.
func TestAddressWrapsAnswersOnly(t *testing.T) {
	me, other := &LostWrite{}, &LostWrite{}
	answer := Loaded[int]{Seq: 1, Value: 7}
	for _, c := range []struct {
		name      string
		msg       tea.Msg
		addressed bool
	}{
		{"an answer", answer, true},
		{"a status", StatusMsg{Text: "copied"}, true},
		{"an error", ErrorMsg{Op: "load"}, true},
		{"a transaction's status", TxStatusMsg{Op: "claim"}, false},
		{"a new head", HeadMsg{Block: 9}, false},
		{"a page opened", NavigateMsg{Screen: other}, false},
		{"a page closed", BackMsg{}, false},
		{"an answer for another", Addressed{To: other, Msg: answer}, false},
		{"quit", tea.QuitMsg{}, false},
		{"a size", tea.WindowSizeMsg{Width: 80}, false},
	} {
		msg := c.msg
		yield := func() tea.Msg { return msg }
		for _, wrap := range []struct {
			how string
			cmd tea.Cmd
		}{
			{"alone", yield},
			{"in a batch", func() tea.Msg { return tea.BatchMsg{yield} }},
			{"in a sequence", tea.Sequence(yield, yield)},
		} {
			got := Address(me, wrap.cmd)()
			for got != nil {
				switch g := got.(type) {
				case tea.BatchMsg:
					got = g[0]()
					continue
				}
				if seq, ok := sequence(got); ok {
					got = seq.Index(0).Interface().(tea.Cmd)()
					continue
				}
				break
			}
			env, isEnv := got.(Addressed)
			switch {
			case c.addressed && (!isEnv || env.To != me || env.Msg != msg):
				t.Errorf("%s %s: got %#v, want it addressed to the screen that asked", c.name, wrap.how, got)
			case !c.addressed && got != msg:
				t.Errorf("%s %s: got %#v, want it as it was", c.name, wrap.how, got)
			}
		}
	}
}
