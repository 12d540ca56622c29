package app

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/core/session"
	clk "allot/internal/clock"
	"allot/views"
	"allot/views/widget"
)

// contractsRead counts the contracts listings the session asked for.
func contractsRead(s *session.Session) int {
	n := 0
	for _, x := range s.Requests.All() {
		if x.Op == "contracts" && x.Attempt == 1 {
			n++
		}
	}
	return n
}

// TestRefreshOnTheClock: the screen on show reads its list again when the
// profile's period has passed on the dashboard's clock (moved by the test,
// never slept on), and the header says how old its rows are.
func TestRefreshOnTheClock(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fake := clk.NewFake(clock)
	m := New(s, Options{Clock: fake, Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting").wait("updated 0s ago")
	before := contractsRead(s)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fake.BlockUntil(ctx, 2); err != nil { // the chain's and the lists' rhythms
		t.Fatal(err)
	}
	f.mark = f.seen.Len()
	fake.Advance(20 * time.Second)
	f.wait("updated 20s ago")
	if n := contractsRead(s); n != before {
		t.Fatalf("the contracts were read again before their 30s: %d reads, %d before", n, before)
	}
	f.mark = f.seen.Len()
	fake.Advance(10 * time.Second)
	f.wait("updated 0s ago")
	if contractsRead(s) == before {
		t.Fatal("the header says the rows are new, and the contracts were not read again")
	}
	f.quit()
}

// TestPauseDropsTheTicks: p pauses the refresh (a tick that comes then
// asks no screen to read again, nor waits for the next), and resumes it,
// reading the screen on show again at once; the help lists p.
func TestPauseDropsTheTicks(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	m := New(s, Options{Clock: clk.NewFake(clock), Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	tick := refreshTick{gen: m.refreshGen}
	if m.refresh(tick) == nil {
		t.Fatal("a tick of the current rhythm asked nothing")
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if !m.refreshPaused || !strings.Contains(m.View(), "refresh paused") {
		t.Fatalf("p did not pause:\n%s", m.View())
	}
	if m.refresh(refreshTick{gen: m.refreshGen}) != nil || m.refresh(tick) != nil {
		t.Fatal("a tick while paused asked the screen to read again")
	}
	_, resume := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if m.refreshPaused || resume == nil {
		t.Fatal("p did not resume")
	}
	if m.refresh(tick) != nil {
		t.Fatal("a tick armed before the pause still counts")
	}
	m.mode = modeHelp
	m.fillPage()
	if !strings.Contains(m.fullHelp(), "pause or resume the refresh") {
		t.Fatal("the help does not list p")
	}
}

// poolsRead counts the pools listings the session asked for.
func poolsRead(s *session.Session) int {
	n := 0
	for _, x := range s.Requests.All() {
		if strings.Contains(x.Op, "pools") && x.Attempt == 1 {
			n++
		}
	}
	return n
}

// TestTabShownAgainCatchesUp: a tab in the background is not refreshed;
// shown again with rows older than its period, it reads them at once.
func TestTabShownAgainCatchesUp(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fake := clk.NewFake(clock)
	m := New(s, Options{Clock: fake, Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting").wait("updated 0s ago")
	f.runes("2").wait("Whale pool")
	f.runes("1").wait("Team & Advisors Vesting")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fake.BlockUntil(ctx, 2); err != nil {
		t.Fatal(err)
	}
	before := poolsRead(s)
	f.mark = f.seen.Len()
	fake.Advance(20 * time.Second)
	f.wait("updated 20s ago")
	f.mark = f.seen.Len()
	fake.Advance(10 * time.Second) // the contracts on show are read again
	f.wait("updated 0s ago")
	if poolsRead(s) != before {
		t.Fatal("the pools, in the background, were read again")
	}
	// A second on, so that the header the pools' refresh draws differs.
	f.mark = f.seen.Len()
	fake.Advance(time.Second)
	f.send(tea.WindowSizeMsg{Width: 120, Height: 36}).wait("updated 1s ago")
	f.runes("2").wait("Whale pool").wait("updated 0s ago")
	if poolsRead(s) == before {
		t.Fatal("the pools, shown again 30s old, were not read again")
	}
	f.quit()
}

// aged is a page whose data is as old as it says.
type aged struct {
	views.Base
	fresh views.Freshness
}

func (a *aged) Title() string              { return "Aged" }
func (a *aged) Update(tea.Msg) tea.Cmd     { return nil }
func (a *aged) View() string               { return "" }
func (a *aged) SetSize(int, int)           {}
func (a *aged) Keys() widget.Bindings      { return nil }
func (a *aged) Freshness() views.Freshness { return a.fresh }

// TestHeaderSaysHowOld: the header says how old the data on show is, to
// the second under a minute; stale after a failed refresh; paused.
func TestHeaderSaysHowOld(t *testing.T) {
	t.Parallel()
	m := New(shared.Session(t), Options{Clock: clk.NewFake(clock), Clipboard: widget.Clipboard{Out: io.Discard}})
	page := &aged{}
	m.stacks[m.active] = append(m.stacks[m.active], page)
	for _, tc := range []struct {
		at     time.Duration // before now
		stale  error
		paused bool
		want   string
	}{
		{12 * time.Second, nil, false, "updated 12s ago"},
		{3 * time.Minute, nil, false, "updated 3m ago"},
		{2 * time.Hour, nil, false, "updated 2h ago"},
		{40 * time.Second, errors.New("down"), false, "✗ stale: updated 40s ago"},
		{5 * time.Second, nil, true, "updated 5s ago · paused"},
	} {
		page.fresh = views.Freshness{At: clock.Add(-tc.at), Stale: tc.stale}
		m.refreshPaused = tc.paused
		if got := m.freshness(); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%v old, stale %v, paused %v: %q, want %q", tc.at, tc.stale, tc.paused, got, tc.want)
		}
	}
	page.fresh = views.Freshness{}
	if got := m.freshness(); got != nil {
		t.Errorf("before the first read: %q", got)
	}
}
