package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/act"
	"allot/internal/journal"
	"allot/internal/journal/journaltest"
	"allot/internal/session"
	"allot/views"
	"allot/views/creative"
	"allot/views/operator"
	"allot/views/schedule"
	"allot/views/widget"
)

// yesCounter counts the questions answered yes, by kind, as monitor does,
// without monitor's checks of each frame.
type yesCounter struct {
	inner *Model
	mu    sync.Mutex
	yes   map[string]int
}

func (y *yesCounter) Init() tea.Cmd { return y.inner.Init() }
func (y *yesCounter) View() string  { return y.inner.View() }

func (y *yesCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if c, ok := msg.(widget.ConfirmMsg); ok && c.Yes {
		y.mu.Lock()
		y.yes[strings.SplitN(c.Tag, "-", 2)[0]]++
		y.mu.Unlock()
	}
	_, cmd := y.inner.Update(msg)
	return y, cmd
}

// TestMonkeyUnderFaults: random keys (bounded, seeded) on a dashboard
// whose sandbox resets 30% of the connections and garbles 20% of the
// answers, led first to the operator form's question. Per the sandbox's
// journal of applied writes, no write is applied more often than it was
// confirmed, and every write applied is one the local journal shows as
// done or UNKNOWN (what the Transactions screen lists), never as failed
// or not at all.
func TestMonkeyUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("the monkey takes a while")
	}
	// A picture to upload, in the folder :creative lists (the working
	// directory: the process's, so set here once and only read by the
	// seeds, which run side by side).
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR monkey"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			t.Parallel()
			faults, err := sandbox.ParseFaults(fmt.Sprintf("reset=0.3,malformed=0.2,seed=%d", seed))
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.Sandbox(sandbox.Options{Faults: faults, Clock: func() time.Time { return clock }}, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			y := &yesCounter{inner: newModel(s), yes: map[string]int{}}
			p := tea.NewProgram(y, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
			done := make(chan error, 1)
			go func() { _, err := p.Run(); done <- err }()
			p.Send(tea.WindowSizeMsg{Width: 120, Height: 36})
			time.Sleep(time.Second)
			// Three times to a write's question, answered yes: the form
			// opened directly, as the contracts may fail to load. Then the
			// keys include y, c (check) and r (resend) on whatever page
			// that leaves.
			for range 3 {
				form := operator.New(y.inner.ctx, api.Contract{ID: s.Fixtures.ContractIDs[0]}, api.ActionStartDistribution)
				for _, msg := range []tea.Msg{views.NavigateMsg{Screen: form}, runes(s.Fixtures.AllocationIDs[1]), tea.KeyMsg{Type: tea.KeyCtrlS}, runes("y")} {
					p.Send(msg)
					time.Sleep(200 * time.Millisecond)
				}
				time.Sleep(500 * time.Millisecond)
				p.Send(tea.KeyMsg{Type: tea.KeyEsc})
			}
			// Twice to the schedule's question and to the creative's,
			// answered yes, then out (from an unknown outcome, esc goes
			// to the form first).
			lead := func(steps ...tea.Msg) {
				for _, msg := range steps {
					p.Send(msg)
					time.Sleep(200 * time.Millisecond)
				}
				time.Sleep(time.Second)
				p.Send(tea.KeyMsg{Type: tea.KeyEsc})
				p.Send(tea.KeyMsg{Type: tea.KeyEsc})
				time.Sleep(200 * time.Millisecond)
			}
			ctrlS := tea.KeyMsg{Type: tea.KeyCtrlS}
			for i := range 2 {
				lead(views.NavigateMsg{Screen: schedule.New(y.inner.ctx)}, runes(fmt.Sprintf("Monkey %d", i)), tea.KeyMsg{Type: tea.KeyTab},
					runes("d"), ctrlS, runes("p"), ctrlS, runes("y"))
				lead(views.NavigateMsg{Screen: creative.New(y.inner.ctx)}, tea.KeyMsg{Type: tea.KeyEnter}, ctrlS, runes("y"))
			}
			rng := rand.New(rand.NewPCG(seed, seed))
			for i := range 600 {
				if rng.IntN(100) < 35 {
					p.Send(monkeyKeys[rng.IntN(len(monkeyKeys))])
				} else {
					p.Send(runes(string(monkeyRunes[rng.IntN(len(monkeyRunes))])))
				}
				if i%20 == 0 {
					time.Sleep(30 * time.Millisecond)
				}
			}
			time.Sleep(time.Second) // the last writes answer, or fail to
			stopMonkey(t, p, done)
			y.mu.Lock()
			defer y.mu.Unlock()
			for _, kind := range []string{"operator", "schedule", "creative"} {
				if y.yes[kind] == 0 {
					t.Errorf("no %s question was answered yes: the monkey did not reach that write", kind)
				}
			}
			checkWritesConfirmed(t, s, y.yes)
			checkWritesShown(t, s)
			checkNoneTwice(t, s)
		})
	}
}

// checkWritesShown fails for a write the sandbox applied that the local
// journal does not show as done or UNKNOWN.
func checkWritesShown(t *testing.T, s *session.Session) {
	t.Helper()
	shown := map[string]bool{} // by the body's SHA-256
	for _, w := range journal.Writes(journaltest.Entries(t, s.StateDir)) {
		if w.Outcome == nil || w.Outcome.Status != "failed" && w.Outcome.Status != act.StatusNotApplied {
			sum := sha256.Sum256(w.Request.Data)
			shown[hex.EncodeToString(sum[:])] = true
		}
	}
	for _, e := range s.Applied() {
		if strings.Contains(e.Operation, "auth/signin") || strings.HasPrefix(e.Operation, "_sandbox/uploads") {
			continue // a sign-in is no write of the service's; an upload's is its registration
		}
		if !shown[e.BodySHA256] {
			t.Errorf("the sandbox applied %s (body %s…), which the journal shows as failed or not at all", e.Operation, e.BodySHA256[:12])
		}
	}
}

// checkNoneTwice fails for a write the sandbox applied more often than the
// local journal says it was sent (its body, byte for byte): a write is
// never sent again without the user.
func checkNoneTwice(t *testing.T, s *session.Session) {
	t.Helper()
	sent := map[string]int{} // by the body's SHA-256
	for _, w := range journal.Writes(journaltest.Entries(t, s.StateDir)) {
		sum := sha256.Sum256(w.Request.Data)
		sent[hex.EncodeToString(sum[:])]++
	}
	applied := map[string]int{}
	for _, e := range s.Applied() {
		if strings.Contains(e.Operation, "auth/signin") || strings.HasPrefix(e.Operation, "_sandbox/uploads") {
			continue
		}
		if applied[e.BodySHA256]++; applied[e.BodySHA256] > sent[e.BodySHA256] {
			t.Errorf("the sandbox applied %s (body %s…) %d times, sent %d times", e.Operation, e.BodySHA256[:12], applied[e.BodySHA256], sent[e.BodySHA256])
		}
	}
}
