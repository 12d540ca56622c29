package app

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// probed is the dashboard with a way for a test to ask, in the program's
// own order, what it holds: a probe sent after a key is answered once the
// key has been handled, by the loop that handles it, so reading the model
// races with nothing.
type probed struct{ *Model }

// probeMsg asks for the dashboard's state; the answer goes to reply.
type probeMsg struct{ reply chan<- probeState }

type probeState struct {
	busy bool   // a screen or a profile switch has work running
	view string // the frame the dashboard draws now (not counted by its sight)
}

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if answered(p.Model, msg) {
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

// answered answers msg for m if it is a probe: what a test's wrapper of
// the dashboard calls first in its Update.
func answered(m *Model, msg tea.Msg) bool {
	q, ok := msg.(probeMsg)
	if ok {
		q.reply <- probeState{busy: m.busy(), view: m.view()}
	}
	return ok
}

// probeVia returns the dashboard's state once everything sent before it
// through send (a program's Send) has been handled.
func probeVia(t testing.TB, send func(tea.Msg)) probeState {
	t.Helper()
	reply := make(chan probeState, 1)
	send(probeMsg{reply})
	select {
	case st := <-reply:
		return st
	case <-time.After(20 * time.Second):
		t.Fatal("the dashboard did not handle a message in 20 s")
		return probeState{}
	}
}

// settle returns the dashboard's state once it has handled everything
// sent before and nothing it started still runs: the writes a key started
// have been answered, and what was not started never will be. It is the
// wait a check that something did not happen needs.
func settle(t testing.TB, tm *teatest.TestModel) probeState {
	t.Helper()
	return settleVia(t, tm.Send)
}

// settleVia is settle for a program a test runs itself: send is its Send.
func settleVia(t testing.TB, send func(tea.Msg)) probeState {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := probeVia(t, send)
		if !st.busy {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatal("the dashboard was still busy after 20 s")
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, not a wait for the outcome
	}
}

// final ends the program and returns the dashboard's final state.
func final(t testing.TB, tm *teatest.TestModel) *Model {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	switch m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(type) {
	case probed:
		return m.Model
	case unfaded:
		return m.Model
	case *heldPin:
		return m.Model
	case *Model:
		return m
	}
	t.Fatal("the program ran no dashboard")
	return nil
}
