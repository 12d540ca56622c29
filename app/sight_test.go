package app

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/views"
	"allot/views/operator"
	"allot/views/reopen"
	"allot/views/transactions"
	"allot/views/widget"
)

// reviews are the dashboard's questions before a write or a signature:
// open brings one on screen; sent counts what its yes would have done.
var reviews = []struct {
	name     string
	open     func(f *flow)
	question string
	no       string // drawn once No is answered
	sent     func(f *flow) int
}{
	{"claim request", func(f *flow) {
		f.unlock()
		f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
		f.runes("C").wait("Claim allocation").key(tea.KeyEnter)
	}, "Send this claim request", "enter reviews the claim request", func(f *flow) int { return applied(f.s, "/claim") }},
	{"claim signing", func(f *flow) {
		f.unlock()
		f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
		f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request").runes("y")
	}, "Sign and send this transaction?", "not signed", func(f *flow) int { return signatures(f, "claim") }},
	{"stake signing", func(f *flow) {
		f.unlock()
		f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
		f.runes("2").wait("Season").runes("S").wait("Stake in").typ("150").key(tea.KeyEnter)
	}, "Sign and send", "not signed", func(f *flow) int { return signatures(f, "stake") + signatures(f, "approve") }},
	{"operator request", func(f *flow) {
		f.runes("D").wait("Start distribution · Team & Advisors Vesting")
		f.typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`)
		f.key(tea.KeyCtrlU).typ(f.s.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS)
	}, "Send this START_DISTRIBUTION request", "recent lookups", func(f *flow) int { return applied(f.s, "transactions/create") }},
	{"schedule", func(f *flow) {
		f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
		f.typ("Cliff only").key(tea.KeyTab).typ("one year cliff").key(tea.KeyTab)
		for range 3 {
			f.key(tea.KeyTab)
		}
		f.typ("All at once").key(tea.KeyCtrlS)
	}, "Create schedule", "not sent", func(f *flow) int { return applied(f.s, "schedules/create") }},
	{"creative", func(f *flow) {
		f.runes(":").typ("creative").key(tea.KeyEnter).wait("logo.png").key(tea.KeyEnter).wait("Name").key(tea.KeyCtrlS)
	}, "Upload logo.png to portal", "not sent", func(f *flow) int { return applied(f.s, "creatives") }},
}

// outcomesJournaled tells whether every write request in the journal has
// its outcome there.
func outcomesJournaled(f *flow) bool {
	waiting := map[string]bool{}
	for _, e := range journaltest.Entries(f.t, f.s.StateDir) {
		switch {
		case e.Write == "":
		case e.Kind == journal.KindRequest:
			waiting[e.Write] = true
		case e.Kind == journal.KindOutcome:
			delete(waiting, e.Write)
		}
	}
	return len(waiting) == 0
}

// signatures counts the transactions of op the journal says were signed.
func signatures(f *flow, op string) int {
	return len(journaltest.Of(journaltest.Entries(f.t, f.s.StateDir), journal.KindSignature, op))
}

// inLogoDir runs the test in a folder holding logo.png, where the
// creative's file picker opens.
func inLogoDir(t *testing.T) {
	dir := t.TempDir()
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
	if err := os.WriteFile(filepath.Join(dir, "logo.png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
}

// TestHiddenQuestionsSayNo: on every review, with the focus on Yes, the
// terminal shrinks below 60x20 (the question is hidden) and y is pressed;
// nothing happens. Back to size, the question is on No, and enter
// answers No: nothing is sent or signed.
func TestHiddenQuestionsSayNo(t *testing.T) {
	for _, tt := range reviews {
		t.Run(tt.name, func(t *testing.T) {
			inLogoDir(t)
			f := newFlow(t)
			tt.open(f)
			f.wait(tt.question).key(tea.KeyRight).wait("▶ [ Yes ]")
			f.send(tea.WindowSizeMsg{Width: MinWidth - 1, Height: MinHeight}).wait("too small")
			f.runes("y")
			f.send(tea.WindowSizeMsg{Width: 120, Height: 36}).wait(tt.question)
			f.waitFrom(f.mark, "▶ [ No ]")
			f.key(tea.KeyEnter).wait(tt.no)
			f.quit()
			if n := tt.sent(f); n != 0 {
				t.Errorf("a question answered while hidden, or reset to No, sent %d", n)
			}
		})
	}
}

// TestQuestionsAnsweredAtTheSmallestSize: at 60x20, in the compact
// layout, every review draws its question whole, and y answers it.
func TestQuestionsAnsweredAtTheSmallestSize(t *testing.T) {
	for _, tt := range reviews {
		t.Run(tt.name, func(t *testing.T) {
			inLogoDir(t)
			f := newFlow(t)
			f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
			tt.open(f)
			f.wait("[ Yes ]").runes("y")
			// What yes does runs in the background: wait for it, and for
			// the outcome of every write it sent to be journaled, which
			// would otherwise land in the state directory as it is removed.
			for end := time.Now().Add(15 * time.Second); (tt.sent(f) == 0 || !outcomesJournaled(f)) && time.Now().Before(end); {
				time.Sleep(50 * time.Millisecond)
			}
			f.quit()
			if n := tt.sent(f); n == 0 {
				t.Errorf("y did not answer the question at %dx%d", MinWidth, MinHeight)
			}
		})
	}
}

// TestTooSmallOnlyQuits: below 60x20 the page is hidden: what is typed
// does not reach its form, and q quits.
func TestTooSmallOnlyQuits(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
	f.send(tea.WindowSizeMsg{Width: MinWidth - 1, Height: 30}).wait("too small")
	f.typ("abc")
	f.send(tea.WindowSizeMsg{Width: 120, Height: 36}).wait("New unlock schedule")
	f.send(tea.WindowSizeMsg{Width: 100, Height: MinHeight - 1}).wait("too small")
	f.runes("q")
	m := f.tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probed).Model
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	if v := m.View(); strings.Contains(v, "abc") || !strings.Contains(v, "New unlock schedule") {
		t.Errorf("keys typed while the page was hidden reached it:\n%s", v)
	}
}

// TestQuitQuestionAnsweredOnlyWhenShown: q with work running asks; the
// too-small notice asks it too; where it does not fit, y does nothing.
func TestQuitQuestionAnsweredOnlyWhenShown(t *testing.T) {
	t.Parallel()
	s, err := embedded.Sandbox(sandbox.Options{Faults: sandbox.Faults{Latency: time.Minute}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("loading").runes("q").wait("Quit anyway? (y/N)")
	f.send(tea.WindowSizeMsg{Width: 30, Height: 5}).wait("too small")
	f.runes("y")
	f.send(tea.WindowSizeMsg{Width: 60, Height: 20}).wait("Quit anyway? (y/N)")
	f.runes("y")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestQuestionUnderAPageSaysNo: a page opened over a review hides its
// question; closed again, the question is on No.
func TestQuestionUnderAPageSaysNo(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("D").wait("Start distribution · Team & Advisors Vesting")
	f.typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`)
	f.key(tea.KeyCtrlU).typ(f.s.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS).wait("Send this START_DISTRIBUTION request")
	f.key(tea.KeyRight).wait("▶ [ Yes ]")
	f.send(views.NavigateMsg{Screen: transactions.New(f.m.ctx, reopen.Unknown)}).wait("No transactions yet")
	f.key(tea.KeyEsc).wait("Send this START_DISTRIBUTION request")
	f.waitFrom(f.mark, "▶ [ No ]")
	f.key(tea.KeyEnter).wait("recent lookups")
	f.quit()
	if n := applied(f.s, "transactions/create"); n != 0 {
		t.Errorf("sent %d after the question was hidden", n)
	}
}

// TestUnknownWithoutOutcome: requests a run journaled without an outcome
// (it quit or crashed while they were in flight) are UNKNOWN rows of the
// Transactions screen in every run after, whatever kind of write they
// are, and open to be checked; what another deployment of the same
// profile name journaled is not listed.
func TestUnknownWithoutOutcome(t *testing.T) {
	t.Parallel()
	s, j := journaled(t)
	d := s.Deployment()
	start, _ := json.Marshal(&api.StartDistributionRequest{ContractID: s.Fixtures.ContractIDs[0], TokenID: s.TokenIDs[0], AllocationIDs: []string{s.Fixtures.AllocationIDs[0]}})
	n := func(v string) api.Number { x, _ := api.ParseAmount(v); return x }
	schedule, _ := json.Marshal(api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Quit while sending", Description: "d", UnlockAtStart: n("1"),
		Cliff: api.CliffRequest{Value: n("0"), Duration: n("0")}, RoundingMode: "FLOOR",
		Pieces: []api.SchedulePiece{{Name: "p", Portion: n("0"), StartDelay: api.ValueOf{Value: n("0")}, OneOff: &api.OneOffConf{Offset: api.ValueOf{Value: n("0")}, DayOfMonth: 1}}}})
	other := journal.Deployment{Profile: s.Name, BaseURL: "http://127.0.0.1:8080", ChainID: d.ChainID}
	created, _ := json.Marshal(api.TransactionsResult{Transactions: []api.Transaction{{TransactionID: "0badc0de-8a51-4c1e-9d7a-2b6c4f1e0a11", Status: "PENDING"}}})
	for _, e := range []journal.Entry{
		d.Stamp(journal.Entry{Kind: journal.KindRequest, Op: "transactions/create", Ref: api.ActionStartDistribution, Write: "w1", Data: start}),
		d.Stamp(journal.Entry{Kind: journal.KindRequest, Op: "schedules/create", Ref: "Quit while sending", Write: "w2", Data: schedule}),
		other.Stamp(journal.Entry{Kind: journal.KindRequest, Op: "transactions/create", Ref: api.ActionInitialize, Write: "w3", Data: []byte(`{}`)}),
		other.Stamp(journal.Entry{Kind: journal.KindOutcome, Op: "transactions/create", Ref: api.ActionInitialize, Write: "w3", Status: "PENDING", Data: created}),
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	f := newFlowOn(t, s)
	f.runes("4").wait("no outcome recorded")
	f.waitFrom(0, "START_DISTRIBUTION")
	f.waitFrom(0, "schedule")
	// Newest first: the schedule. It was sent before this run, to a
	// sandbox gone with its writes: the check cannot tell.
	f.key(tea.KeyEnter).wait("sent before this run of allot")
	f.key(tea.KeyEsc).wait("New unlock schedule").key(tea.KeyEsc).wait("no outcome recorded") // to its form, then out
	f.key(tea.KeyDown).key(tea.KeyEnter).wait("Outcome unknown: START_DISTRIBUTION")
	m := f.quit()
	m.pop()
	view := m.View()
	rows := 0
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "(no outcome recorded") && strings.Contains(l, "UNKNOWN") {
			rows++
		}
	}
	if v := view; strings.Contains(v, "0badc0de") || rows != 2 {
		t.Errorf("want the two UNKNOWN requests, and not the other deployment's transaction:\n%s", v)
	}
}

// TestFailedLoadIsNotEmpty: with the service out of reach, Contracts and
// Pools say what failed where their rows would be, not that the token
// has none; E details the failure and r tries again.
func TestFailedLoadIsNotEmpty(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	// No wait between tries, but the retry's: it is held until its
	// "Loading" is on screen, which a quick failure could replace before
	// the renderer draws it.
	var hold atomic.Bool
	released := make(chan struct{})
	release := sync.OnceFunc(func() { close(released) })
	t.Cleanup(release)
	client, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", Timeout: time.Second,
		Backoff: func(int) time.Duration {
			if hold.Load() {
				<-released
			}
			return 0
		}})
	if err != nil {
		t.Fatal(err)
	}
	s.API = client
	m := newModel(s)
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("Could not load Contracts")
	f.runes("2").wait("Could not load Pools")
	f.runes("E").wait("Error details (E to close)")
	f.runes("E").wait("Could not load Pools")
	// The failure again after the retry's Loading, not the frame that
	// closed the details, which may be drawn after r is sent.
	hold.Store(true)
	f.runes("r").wait("Loading")
	release()
	f.waitFrom(f.mark+bytes.Index(f.seen.Bytes()[f.mark:], []byte("Loading")), "Could not load Pools")
	v := f.quit().View()
	for _, empty := range []string{"has no contracts", "has no staking pools"} {
		if strings.Contains(f.seen.String(), empty) {
			t.Errorf("a failed load was shown as empty: %q", empty)
		}
	}
	if !strings.Contains(v, "E: error details · r: retry") {
		t.Errorf("the keys that help are not shown:\n%s", v)
	}
}

// TestQuitWhileWriting: quitting while a write is in flight leaves its
// request in the journal with no outcome; the next run of the same
// deployment lists it as UNKNOWN.
func TestQuitWhileWriting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	slow, err := embedded.Sandbox(sandbox.Options{Faults: sandbox.Faults{Latency: time.Minute}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(slow.Close)
	m := New(slow, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: slow, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	form := operator.New(m.ctx, api.Contract{ID: slow.Fixtures.ContractIDs[0]}, api.ActionStartDistribution)
	f.send(views.NavigateMsg{Screen: form}).wait("Start distribution")
	f.typ(slow.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS).wait("Send this START_DISTRIBUTION request")
	f.runes("y").wait("loading")
	f.runes("q").wait("Quit anyway? (y/N)")
	f.runes("y")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	writes := journal.Writes(journaltest.Entries(t, dir))
	if len(writes) != 1 || writes[0].Outcome != nil {
		t.Fatalf("journal after quitting in flight: %+v", writes)
	}
	// The next run of the same deployment (the same world of the
	// sandbox: the next start of the embedded one is a new world, where
	// this write was never sent).
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := transactions.Read(j, slow.Deployment())
	if err != nil || len(rows) != 1 || rows[0].Status != "UNKNOWN" || !strings.Contains(rows[0].ID, "no outcome recorded") {
		t.Fatalf("the next run lists %+v (%v), want the write UNKNOWN with no outcome recorded", rows, err)
	}
}

// TestCheckSettlesUnknown: a check that finds out whether an UNKNOWN
// request of this run was applied records it: the next read lists the
// write as what the check found, no longer as UNKNOWN.
func TestCheckSettlesUnknown(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	f := newFlowOn(t, s)
	start := &api.StartDistributionRequest{ContractID: s.Fixtures.ContractIDs[0], TokenID: s.TokenIDs[0], AllocationIDs: []string{s.Fixtures.AllocationIDs[0]}}
	// Sent in this run, its answer lost before it reached the service.
	err := f.m.ctx.Recorder.Write("transactions/create", start.Action(), start, func() (string, any, error) {
		return "", nil, &api.OutcomeUnknownError{Op: "transactions/create", Err: io.ErrUnexpectedEOF}
	})
	if !act.Unknown(err) {
		t.Fatalf("the write is not unknown: %v", err)
	}
	f.runes("4").wait("no answer: may have been created")
	// The page checks the write as it opens.
	f.key(tea.KeyEnter).wait("Outcome unknown: START_DISTRIBUTION").wait("not applied: safe to resend (r).")
	f.key(tea.KeyEsc).wait("not applied (checked)")
	f.quit()
	writes := journal.Writes(journaltest.Entries(t, s.StateDir))
	if len(writes) != 1 || !writes[0].Settled() || writes[0].Outcome.Status != "not applied (checked)" {
		t.Fatalf("the check was not recorded: %+v", writes)
	}
}
