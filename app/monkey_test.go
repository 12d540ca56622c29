package app

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/session"
	"allot/views"
	"allot/views/widget"
)

// monitor wraps the dashboard and checks every frame it draws: it fits
// the terminal and shows no style's escape code as text. It counts the
// questions answered yes, which alone may send a write. What a frame
// costs is measured by benchmarks (BenchmarkStakesScreenKeyDown1M,
// BenchmarkStakesKeyDown1M), never by the clock in a test.
type monitor struct {
	inner *Model

	mu       sync.Mutex
	w, h     int
	problems []string
	// yes counts the questions answered yes, by kind (the tag's first
	// word): only those may have sent a write.
	yes map[string]int
}

func (m *monitor) Init() tea.Cmd { return m.inner.Init() }

// unaddressed is the message inside an answer's envelope (views.Addressed),
// or msg itself.
func unaddressed(msg tea.Msg) tea.Msg {
	if env, ok := msg.(views.Addressed); ok {
		return env.Msg
	}
	return msg
}

func (m *monitor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if answered(m.inner, msg) {
		return m, nil
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.mu.Lock()
		m.w, m.h = ws.Width, ws.Height
		m.mu.Unlock()
	}
	if c, ok := unaddressed(msg).(widget.ConfirmMsg); ok && c.Yes {
		m.mu.Lock()
		m.yes[strings.SplitN(c.Tag, "-", 2)[0]]++
		m.mu.Unlock()
	}
	_, cmd := m.inner.Update(msg)
	return m, cmd
}

func (m *monitor) View() string {
	v := m.inner.View()
	m.mu.Lock()
	defer m.mu.Unlock()
	lines := strings.Split(v, "\n")
	if len(lines) > m.h && m.h > 0 {
		m.problems = append(m.problems, fmt.Sprintf("%d lines in a %dx%d terminal", len(lines), m.w, m.h))
	}
	if i := strings.Index(v, "^[["); i >= 0 {
		// The sandbox sends no escape codes: this is a style's own code,
		// drawn and then sanitized as if it were data.
		m.problems = append(m.problems, fmt.Sprintf("a style's escape code shown as text on %s: %q", m.inner.top().Title(), v[max(i-40, 0):min(i+40, len(v))]))
	}
	for _, l := range lines {
		if lipgloss.Width(l) > m.w && m.w > 0 {
			m.problems = append(m.problems, fmt.Sprintf("a line of %d cells in a %dx%d terminal: %q", lipgloss.Width(l), m.w, m.h, l))
			break
		}
	}
	return v
}

// monkeyKeys are the keys a monkey presses: every binding of every screen
// but quit, plus text for filters, ids and commands.
var monkeyKeys = []tea.KeyMsg{
	{Type: tea.KeyEnter}, {Type: tea.KeyEsc}, {Type: tea.KeyTab}, {Type: tea.KeyShiftTab},
	{Type: tea.KeyUp}, {Type: tea.KeyDown}, {Type: tea.KeyPgUp}, {Type: tea.KeyPgDown},
	{Type: tea.KeyHome}, {Type: tea.KeyEnd}, {Type: tea.KeyCtrlD}, {Type: tea.KeyCtrlU}, {Type: tea.KeyBackspace},
	{Type: tea.KeyLeft}, {Type: tea.KeyRight}, {Type: tea.KeyCtrlS}, {Type: tea.KeyCtrlN}, {Type: tea.KeyCtrlR}, {Type: tea.KeySpace},
}

// monkeyRunes include every screen's keys: the forms (I, D, F on a
// contract, S on a pool, C on an allocation), unlock (u, L), the portal
// (6, s, o, h), yes and no.
const monkeyRunes = "jkgGsyhrnTEKJc?:/123456abx0uLCSIDFoyn"

func TestMonkey(t *testing.T) {
	if testing.Short() {
		t.Skip("the monkey takes a while")
	}
	// In colour, as people run it: a style drawn and then sanitized shows
	// its escape codes as text only when there are codes to show. The
	// profile is the process's: the seeds run side by side, and no other
	// test meanwhile (TestMonkey itself is not parallel).
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			t.Parallel()
			monkey(t, seed, 2000)
		})
	}
}

func monkey(t *testing.T, seed uint64, presses int) {
	faults, err := sandbox.ParseFaults(fmt.Sprintf("latency=5ms,error=0.1,malformed=0.05,reset=0.05,seed=%d", seed))
	if err != nil {
		t.Fatal(err)
	}
	s, err := embedded.Sandbox(sandbox.Options{Faults: faults, Clock: func() time.Time { return clock }}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mon := &monitor{inner: newModel(s), yes: map[string]int{}}
	p := tea.NewProgram(mon, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()

	rng := rand.New(rand.NewPCG(seed, seed))
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 36})
	settleVia(t, p.Send) // the first data arrives
	// Lead the monkey to a question: look up an allocation, then open the
	// start-distribution form of the first contract, pick the recent id
	// from the list and ask for the review. On odd seeds the lead answers yes, so
	// that the check below sees a confirmed write; on even ones the
	// random keys answer (yes, no, esc, edits).
	lead := []tea.Msg{
		runes("3"), runes("/"), runes(s.Fixtures.AllocationIDs[0]), tea.KeyMsg{Type: tea.KeyEnter},
		runes("1"), runes("D"), tea.KeyMsg{Type: tea.KeyCtrlR}, tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyCtrlS},
	}
	if seed%2 == 1 {
		lead = append(lead, runes("y"))
	}
	for _, msg := range lead {
		p.Send(msg)
		settleVia(t, p.Send)
	}
	for i := range presses {
		switch r := rng.IntN(100); {
		case r < 3:
			p.Send(tea.WindowSizeMsg{Width: 20 + rng.IntN(200), Height: 5 + rng.IntN(60)})
		case r < 35:
			p.Send(monkeyKeys[rng.IntN(len(monkeyKeys))])
		default:
			p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(monkeyRunes[rng.IntN(len(monkeyRunes))])}})
		}
		if i%20 == 19 {
			// The program catches up with the burst; answers land
			// between keys as they come.
			probeVia(t, p.Send)
		}
	}
	settleVia(t, p.Send) // the last answers arrive
	stopMonkey(t, p, done)

	mon.mu.Lock()
	defer mon.mu.Unlock()
	for _, p := range mon.problems[:min(len(mon.problems), 5)] {
		t.Error(p)
	}
	checkWritesConfirmed(t, s, mon.yes)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// writeKinds names the question that must be answered yes before each
// write the sandbox may apply, by a part of its operation.
var writeKinds = []struct{ op, kind string }{
	{"transactions/create", "operator"},
	{"schedules/create", "schedule"},
	{"creatives", "creative"},
	{"_sandbox/uploads", "creative"},
	{"/claim", "claim"},
	{"auth/signin", "signin"},
}

// checkWritesConfirmed reads the sandbox's journal of applied writes
// (/_sandbox/journal) and fails for any write that no yes allowed: each
// kind of write may have been applied at most as often as its question
// was answered yes (an upload is three writes after one yes).
func checkWritesConfirmed(t *testing.T, s *session.Session, yes map[string]int) {
	t.Helper()
	applied := map[string]int{}
	for _, e := range s.Applied() {
		kind := ""
		for _, w := range writeKinds {
			if strings.Contains(e.Operation, w.op) {
				kind = w.kind
				break
			}
		}
		if kind == "" {
			t.Errorf("the sandbox applied a write allot has no question for: %s", e.Operation)
			continue
		}
		applied[e.Operation]++
		if applied[e.Operation] > yes[kind] {
			t.Errorf("%s applied %d times after %d yes to %s questions", e.Operation, applied[e.Operation], yes[kind], kind)
		}
	}
	t.Logf("writes applied %v after yes %v", applied, yes)
}

// frameCounter counts the frames the dashboard draws and the spinner
// ticks it gets, and at each tick of the header's clock hands the counts
// since the last one to ticks (when it has room).
type frameCounter struct {
	*Model
	frames, spins int
	ticks         chan rests
}

// rests is what happened between two ticks of the header's clock.
type rests struct{ frames, spins int }

func (f *frameCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if answered(f.Model, msg) {
		return f, nil
	}
	switch msg.(type) {
	case spinner.TickMsg:
		f.spins++
	case headerTick:
		select {
		case f.ticks <- rests{f.frames, f.spins}:
		default:
		}
		f.frames, f.spins = 0, 0
	}
	_, cmd := f.Model.Update(msg)
	return f, cmd
}

// View is called by the program's loop only, as Update is.
func (f *frameCounter) View() string {
	f.frames++
	return f.Model.View()
}

// TestIdleDashboardRests: once the data is in and nothing runs, the
// dashboard stops animating. A spinner ticking for ever drew about fifteen
// frames a second; what is left is the Transactions screen's look at the
// journal and the Allocation input's blinking cursor, each twice a second,
// and the header's clock once. Counted against the dashboard's own clock,
// not the wall's: once nothing runs, the second of the header's clock
// after the next (a spinner tick on its way by then has come) has no
// spinner tick and at most 8 frames.
func TestIdleDashboardRests(t *testing.T) {
	t.Parallel()
	fc := &frameCounter{Model: newModel(shared.Session(t)), ticks: make(chan rests)}
	p := tea.NewProgram(fc, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() { p.Quit(); <-done }()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 36})
	settleVia(t, p.Send)
	var second rests
	for range 2 {
		select {
		case second = <-fc.ticks:
		case <-time.After(20 * time.Second):
			t.Fatal("the header's clock did not tick in 20 s")
		}
	}
	if second.spins > 0 || second.frames > 8 {
		t.Errorf("an idle dashboard did not rest: in a second of its clock, %d frames and %d spinner ticks", second.frames, second.spins)
	}
	t.Logf("in a second idle: %d frames", second.frames)
}

// stopMonkey quits a monkey's program and fails the test when it stopped on
// its own with an error, or does not stop.
func stopMonkey(t *testing.T, p *tea.Program, done <-chan error) {
	t.Helper()
	p.Quit()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the dashboard stopped: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the dashboard did not stop")
	}
}
