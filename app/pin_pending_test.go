package app

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/core/session/sessiontest"
	"allot/views"
	"allot/views/widget"
)

// heldPin is the dashboard with the answer of the pin question's read
// held back until the test sends releasePin: what the user does while it
// is read is then tested in the program's own order, not a race.
type heldPin struct {
	*Model
	caught chan struct{} // the answer was caught
	held   tea.Msg
}

// releasePin hands the held answer to the dashboard, and replies with
// the frame it draws then.
type releasePin struct{ reply chan<- string }

func (h *heldPin) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if answered(h.Model, msg) {
		return h, nil
	}
	if r, ok := msg.(releasePin); ok {
		_, cmd := h.Model.Update(h.held)
		r.reply <- h.Model.view()
		return h, cmd
	}
	if env, ok := msg.(views.Addressed); ok && h.held == nil && strings.Contains(fmt.Sprintf("%T", env.Msg), "pinInfo") {
		h.held = msg
		close(h.caught)
		return h, nil
	}
	_, cmd := h.Model.Update(msg)
	return h, cmd
}

// TestPinQuestionReadTakesItsKeys: while what the pin question shows is
// read, esc drops the question (it does not come when the read answers)
// and leaves the refused review on show; a y and an enter typed for the
// question do nothing, on the review or the screen below. Before, the
// keys went to the dashboard: esc closed the stake form, and enter then
// opened the pool's stakes below it.
func TestPinQuestionReadTakesItsKeys(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	pins := h.Session.Profile.Pins
	pins.Staking = nil
	path := h.PinIn(t, pins)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := New(h.Session, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	w := &heldPin{Model: m, caught: make(chan struct{})}
	f := &flow{t: t, s: h.Session, m: m, tm: teatest.NewTestModel(t, w, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting")
	stakeTo(f).wait("REFUSED by the signing policy")
	select {
	case <-w.caught:
	case <-time.After(20 * time.Second):
		t.Fatal("the pin question's read did not answer in 20 s")
	}
	f.key(tea.KeyEsc).runes("y").key(tea.KeyEnter)
	view := probeVia(t, f.tm.Send).view
	if !strings.Contains(view, "REFUSED by the signing policy") || strings.Contains(view, "Reading what allot knows") {
		t.Fatalf("esc, y and enter while the pin question was read left:\n%s", view)
	}
	reply := make(chan string, 1)
	f.tm.Send(releasePin{reply})
	if view := <-reply; strings.Contains(view, "as a staking contract?") {
		t.Fatalf("the pin question came after esc dropped it:\n%s", view)
	}
	f.key(tea.KeyEsc)
	if view := probeVia(t, f.tm.Send).view; strings.Contains(view, "REFUSED") || !strings.Contains(view, "Season") {
		t.Fatalf("esc on the refused review did not go back to the pools:\n%s", view)
	}
	f.quit()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the profile changed:\n%s", after)
	}
}
