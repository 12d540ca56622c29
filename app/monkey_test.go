package app

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/api/sandbox"
	"allot/app/session"
)

// monitor wraps the dashboard and checks every Update and View: how long
// each takes, and that every frame fits the terminal.
type monitor struct {
	inner  *Model
	warmup time.Time // slow calls before this are start-up, not counted

	mu         sync.Mutex
	w, h       int
	slowest    time.Duration
	slowestWhy string
	problems   []string
}

func (m *monitor) Init() tea.Cmd { return m.inner.Init() }

func (m *monitor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.mu.Lock()
		m.w, m.h = ws.Width, ws.Height
		m.mu.Unlock()
	}
	start := time.Now()
	_, cmd := m.inner.Update(msg)
	m.record(time.Since(start), fmt.Sprintf("Update(%T %v)", msg, msg))
	return m, cmd
}

func (m *monitor) View() string {
	start := time.Now()
	v := m.inner.View()
	m.record(time.Since(start), "View")
	m.mu.Lock()
	defer m.mu.Unlock()
	lines := strings.Split(v, "\n")
	if len(lines) > m.h && m.h > 0 {
		m.problems = append(m.problems, fmt.Sprintf("%d lines in a %dx%d terminal", len(lines), m.w, m.h))
	}
	for _, l := range lines {
		if lipgloss.Width(l) > m.w && m.w > 0 {
			m.problems = append(m.problems, fmt.Sprintf("a line of %d cells in a %dx%d terminal: %q", lipgloss.Width(l), m.w, m.h, l))
			break
		}
	}
	return v
}

func (m *monitor) record(d time.Duration, what string) {
	if time.Now().Before(m.warmup) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if d > m.slowest {
		m.slowest, m.slowestWhy = d, what
	}
}

// monkeyKeys are the keys a monkey presses: every binding of every screen
// but quit, plus text for filters, ids and commands.
var monkeyKeys = []tea.KeyMsg{
	{Type: tea.KeyEnter}, {Type: tea.KeyEsc}, {Type: tea.KeyTab}, {Type: tea.KeyShiftTab},
	{Type: tea.KeyUp}, {Type: tea.KeyDown}, {Type: tea.KeyPgUp}, {Type: tea.KeyPgDown},
	{Type: tea.KeyHome}, {Type: tea.KeyEnd}, {Type: tea.KeyCtrlD}, {Type: tea.KeyCtrlU}, {Type: tea.KeyBackspace},
}

const monkeyRunes = "jkgGsyhrnTEKJc?:/12345abx0"

func TestMonkey(t *testing.T) {
	if testing.Short() {
		t.Skip("the monkey takes a while")
	}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) { monkey(t, seed, 2000) })
	}
}

func monkey(t *testing.T, seed uint64, presses int) {
	faults, err := sandbox.ParseFaults(fmt.Sprintf("latency=5ms,error=0.1,malformed=0.05,reset=0.05,seed=%d", seed))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Sandbox(sandbox.Options{Faults: faults, Clock: func() time.Time { return clock }}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mon := &monitor{inner: newModel(s), warmup: time.Now().Add(1500 * time.Millisecond)}
	p := tea.NewProgram(mon, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()

	rng := rand.New(rand.NewPCG(seed, seed))
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 36})
	time.Sleep(1500 * time.Millisecond) // the first data arrives
	for i := range presses {
		switch r := rng.IntN(100); {
		case r < 3:
			p.Send(tea.WindowSizeMsg{Width: 20 + rng.IntN(200), Height: 5 + rng.IntN(60)})
		case r < 35:
			p.Send(monkeyKeys[rng.IntN(len(monkeyKeys))])
		default:
			p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(monkeyRunes[rng.IntN(len(monkeyRunes))])}})
		}
		if i%20 == 0 {
			time.Sleep(30 * time.Millisecond) // let answers arrive between bursts
		}
	}
	time.Sleep(500 * time.Millisecond)
	p.Quit()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the dashboard stopped: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the dashboard did not stop")
	}

	mon.mu.Lock()
	defer mon.mu.Unlock()
	for _, p := range mon.problems[:min(len(mon.problems), 5)] {
		t.Error(p)
	}
	t.Logf("slowest call after warm-up: %v (%s)", mon.slowest, truncateANSI(mon.slowestWhy, 100))
	if mon.slowest > 16*time.Millisecond {
		t.Errorf("a call took %v, more than 16 ms: %s", mon.slowest, truncateANSI(mon.slowestWhy, 200))
	}
}
