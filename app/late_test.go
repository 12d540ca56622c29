package app

import (
	"bytes"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/views"
)

// lateSpy stands for the Transactions tab: it says when its first load
// starts, and whether the contracts were still loading then.
type lateSpy struct {
	page
	contractsBusy func() bool
	inits         *atomic.Int32
	whileBusy     *atomic.Bool
}

func (s lateSpy) Init() tea.Cmd {
	s.inits.Add(1)
	s.whileBusy.Store(s.contractsBusy())
	return nil
}

func spyOnTransactions(m *Model) lateSpy {
	spy := lateSpy{page: page{title: "Transactions"}, inits: &atomic.Int32{}, whileBusy: &atomic.Bool{}}
	contracts := m.stacks[tabContracts][0]
	spy.contractsBusy = func() bool { return contracts.Mode().Busy }
	m.stacks[tabTransactions] = []views.Screen{spy}
	return spy
}

// TestJournalWaitsForTheFirstData: the Transactions tab, which reads the
// journal (seconds at a million entries while its index is rebuilt),
// starts its first load only once the contracts are on screen, so that
// start-up does not share the machine with it; shown earlier, it loads
// at once.
func TestJournalWaitsForTheFirstData(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	m := newModel(s)
	spy := spyOnTransactions(m)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Team & Advisors Vesting")) },
		teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	// It starts a moment after the contracts are drawn (lateDelay).
	teatest.WaitFor(t, tm.Output(), func([]byte) bool { return spy.inits.Load() > 0 },
		teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	final(t, tm)
	if n := spy.inits.Load(); n != 1 {
		t.Fatalf("the Transactions tab's first load started %d times", n)
	}
	if spy.whileBusy.Load() {
		t.Error("the Transactions tab loaded while the contracts were loading")
	}

	m = newModel(s)
	spy = spyOnTransactions(m)
	m.Init() // the contracts' load asked, not answered
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	if n := spy.inits.Load(); n != 0 {
		t.Fatalf("loaded before the contracts' answer: %d", n)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'4'}})
	if n := spy.inits.Load(); n != 1 || !spy.whileBusy.Load() {
		t.Errorf("shown at once: %d loads (contracts still loading: %v)", n, spy.whileBusy.Load())
	}
}
