package app

import (
	"context"
	"io"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// trusting is a screen that takes every answer of its type as its own: it
// checks no request number, as a new screen might forget to.
type trusting struct {
	views.Base
	ctx   *views.Context
	name  string
	heard []string
}

func (s *trusting) Init() tea.Cmd {
	name := s.name
	return views.Load(s.ctx, 1, func(context.Context) (string, error) { return "for " + name, nil })
}

func (s *trusting) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.Loaded[string]:
		s.heard = append(s.heard, msg.Value)
	case views.TxStatusMsg:
		s.heard = append(s.heard, "status of "+msg.Op)
	}
	return nil
}

func (s *trusting) Title() string         { return s.name }
func (s *trusting) View() string          { return s.name }
func (s *trusting) SetSize(int, int)      {}
func (s *trusting) Keys() widget.Bindings { return nil }

// openAsking opens s as the root does, and returns the answer of its
// load in the envelope the program hands back to the root (its Init runs
// again for it: a load and nothing else).
func openAsking(t *testing.T, m *Model, s *trusting) tea.Msg {
	t.Helper()
	m.Update(views.NavigateMsg{Screen: s})
	answer, ok := tag(s, s.Init())().(views.Addressed)
	if !ok || answer.To != views.Screen(s) {
		t.Fatalf("%s's load yielded %#v, not an answer addressed to it", s.name, answer)
	}
	return answer
}

// TestAnswerReachesOnlyWhoAsked: two screens of the same kind, open in
// two tabs, each taking any answer of its type without a check; each
// hears only its own, because the answer comes addressed, not broadcast.
func TestAnswerReachesOnlyWhoAsked(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	a := &trusting{ctx: m.ctx, name: "A"}
	toA := openAsking(t, m, a)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	b := &trusting{ctx: m.ctx, name: "B"}
	toB := openAsking(t, m, b)

	m.Update(toA)
	m.Update(toB)
	if len(a.heard) != 1 || a.heard[0] != "for A" {
		t.Errorf("A heard %q, want only its own answer", a.heard)
	}
	if len(b.heard) != 1 || b.heard[0] != "for B" {
		t.Errorf("B heard %q, want only its own answer", b.heard)
	}
	// An answer addressed to A, handed to the root again (as a stray
	// message would be), still reaches A alone.
	m.Update(views.Addressed{To: a, Msg: views.Loaded[string]{Value: "again"}})
	if len(b.heard) != 1 {
		t.Errorf("B heard A's answer: %q", b.heard)
	}
}

// TestReplacedScreensAnswerIsDropped: a screen closed and opened anew (a
// reload, a profile switch) never hears the answer its predecessor asked
// for, though the new one takes any answer of its type.
func TestReplacedScreensAnswerIsDropped(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	old := &trusting{ctx: m.ctx, name: "Lookup"}
	late := openAsking(t, m, old)
	m.Update(views.BackMsg{Screen: old})
	fresh := &trusting{ctx: m.ctx, name: "Lookup"}
	own := openAsking(t, m, fresh)

	m.Update(late)
	if len(fresh.heard) != 0 || len(old.heard) != 0 {
		t.Fatalf("the closed screen's answer reached someone: new %q, closed %q", fresh.heard, old.heard)
	}
	m.Update(own)
	if len(fresh.heard) != 1 {
		t.Errorf("the new screen did not hear its own answer: %q", fresh.heard)
	}
}

// TestEventsReachEveryScreen: what is a fact for all (a transaction's
// status), even when a screen's command found it, is not addressed, and
// every open screen hears it.
func TestEventsReachEveryScreen(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	a := &trusting{ctx: m.ctx, name: "A"}
	openAsking(t, m, a)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	b := &trusting{ctx: m.ctx, name: "B"}
	openAsking(t, m, b)

	status := views.Address(a, func() tea.Msg { return views.TxStatusMsg{Op: "claim"} })()
	m.Update(status)
	for _, s := range []*trusting{a, b} {
		if len(s.heard) != 1 || s.heard[0] != "status of claim" {
			t.Errorf("%s heard %q, want the transaction's status", s.name, s.heard)
		}
	}
}

// TestAnswerAcrossProfileSwitchIsDropped: a page's load still on its way
// when the profile switches comes back to no one: not to the page, gone
// with the old profile's tabs, nor to its like opened on the new profile.
func TestAnswerAcrossProfileSwitchIsDropped(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	old := &trusting{ctx: m.ctx, name: "Lookup"}
	late := openAsking(t, m, old)

	m.switching = "other"
	m.Update(profileOpened{s: shared.Session(t)})
	fresh := &trusting{ctx: m.ctx, name: "Lookup"}
	openAsking(t, m, fresh)
	m.Update(late)
	if len(fresh.heard) != 0 || len(old.heard) != 0 {
		t.Fatalf("an answer from before the switch reached a page: new %q, old %q", fresh.heard, old.heard)
	}
}
