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
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/views"
	"allot/views/creative"
	"allot/views/operator"
	"allot/views/schedule"
	"allot/views/widget"
)

// yesCounter counts the questions answered yes, by kind, as monitor does,
// without monitor's checks of each frame.
type yesCounter struct {
	inner   *Model
	mu      sync.Mutex
	yes     map[string]int
	answers int // the questions answered, yes or no
}

// answered returns how many questions have been answered.
func (y *yesCounter) answered() int {
	y.mu.Lock()
	defer y.mu.Unlock()
	return y.answers
}

func (y *yesCounter) Init() tea.Cmd { return y.inner.Init() }
func (y *yesCounter) View() string  { return y.inner.View() }

func (y *yesCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if answered(y.inner, msg) {
		return y, nil
	}
	if c, ok := unaddressed(msg).(widget.ConfirmMsg); ok {
		y.mu.Lock()
		y.answers++
		if c.Yes {
			y.yes[strings.SplitN(c.Tag, "-", 2)[0]]++
		}
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
			s, err := embedded.Sandbox(sandbox.Options{Faults: faults, Clock: func() time.Time { return clock }}, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			y := &yesCounter{inner: newModel(s), yes: map[string]int{}}
			p := tea.NewProgram(y, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
			done := make(chan error, 1)
			go func() { _, err := p.Run(); done <- err }()
			yes := runes("y")
			p.Send(tea.WindowSizeMsg{Width: 120, Height: 36})
			// Each step waits for what it started to end (settle: the
			// loads, the write a yes sent, its retries and its check),
			// never for a length of time. An answer to a question comes
			// back to the dashboard as a message of its own: a y to a
			// question shown waits for it, so that the settle after it
			// waits for the write it sends.
			settled := func(msgs ...tea.Msg) {
				for _, msg := range msgs {
					if text, ok := msg.(showing); ok {
						waitVia(t, p.Send, string(text), func(st probeState) bool { return strings.Contains(st.view, string(text)) })
						continue
					}
					k, isKey := msg.(tea.KeyMsg)
					asked := isKey && k.String() == "y" && strings.Contains(probeVia(t, p.Send).view, "y yes")
					n := y.answered()
					p.Send(msg)
					if asked {
						waitVia(t, p.Send, "the answer to the question", func(probeState) bool { return y.answered() > n })
					}
					settleVia(t, p.Send)
				}
			}
			settled()
			// Three times to a write's question, answered yes: the form
			// opened directly, as the contracts may fail to load, and left
			// open. Then the keys include y, c (check) and r (resend) on
			// the last, in whatever state its write left it.
			ctrlS := tea.KeyMsg{Type: tea.KeyCtrlS}
			for range 3 {
				form := operator.New(y.inner.ctx, api.Contract{ID: s.Fixtures.ContractIDs[0]}, api.ActionStartDistribution)
				settled(views.NavigateMsg{Screen: form}, runes(s.Fixtures.AllocationIDs[1]), ctrlS, yes)
			}
			// Twice to the schedule's question and to the creative's, each
			// form closed after whatever its state: in the loop's order, as
			// an esc's close would come back later and could close the
			// next form.
			lead := func(form views.Screen, steps ...tea.Msg) {
				settled(views.NavigateMsg{Screen: form})
				settled(steps...)
				settled(views.BackMsg{Screen: form})
			}
			for i := range 2 {
				lead(schedule.New(y.inner.ctx), runes(fmt.Sprintf("Monkey %d", i)), tea.KeyMsg{Type: tea.KeyTab},
					runes("d"), ctrlS, runes("p"), ctrlS, yes)
				// The folder is read, and the file chosen inspected, off
				// the loop (no work a screen calls busy): each next key
				// once its outcome shows.
				lead(creative.New(y.inner.ctx), showing("logo.png"), tea.KeyMsg{Type: tea.KeyEnter}, showing("ctrl+s: review"), ctrlS, yes)
			}
			rng := rand.New(rand.NewPCG(seed, seed))
			for i := range 600 {
				if rng.IntN(100) < 35 {
					p.Send(monkeyKeys[rng.IntN(len(monkeyKeys))])
				} else {
					p.Send(runes(string(monkeyRunes[rng.IntN(len(monkeyRunes))])))
				}
				if i%20 == 19 {
					// The program catches up with the burst; answers
					// land between keys as they come.
					probeVia(t, p.Send)
				}
			}
			settleVia(t, p.Send) // the last writes answer, or fail to
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

// showing, among a monkey's steps, waits for its text on screen.
type showing string

// waitVia returns once the dashboard's state is what done wants, and
// fails the test if it is not within 20 s.
func waitVia(t *testing.T, send func(tea.Msg), what string, done func(probeState) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := probeVia(t, send)
		if done(st) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s:\n%s", what, st.view)
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, not a wait for the outcome
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
