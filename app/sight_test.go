package app

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/api/sandbox"

	"allot/app/journal"
	"allot/app/journal/journaltest"
	"allot/app/session"
	"allot/views"
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
		f.runes("3").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
		f.runes("C").wait("Claim allocation").key(tea.KeyEnter)
	}, "Send this claim request", "enter reviews the claim request", func(f *flow) int { return applied(f.s, "/claim") }},
	{"claim signing", func(f *flow) {
		f.unlock()
		f.runes("3").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
		f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request").runes("y")
	}, "Sign and send this transaction?", "not signed", func(f *flow) int { return signatures(f, "claim") }},
	{"stake signing", func(f *flow) {
		f.unlock()
		f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
		f.runes("2").wait("Season").runes("S").wait("Stake in").typ("150").key(tea.KeyEnter)
	}, "Sign and send", "not signed", func(f *flow) int { return signatures(f, "stake") + signatures(f, "approve") }},
	{"operator request", func(f *flow) {
		f.runes("D").wait("Start distribution · Team & Advisors Vesting")
		f.typ("nope").wait(`"nope" is not a UUID`)
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
// terminal shrinks below 80x24 (the question is hidden) and y is pressed;
// nothing happens. Back to size, the question is on No, and enter
// answers No: nothing is sent or signed.
func TestHiddenQuestionsSayNo(t *testing.T) {
	for _, tt := range reviews {
		t.Run(tt.name, func(t *testing.T) {
			inLogoDir(t)
			f := newFlow(t)
			tt.open(f)
			f.wait(tt.question).key(tea.KeyRight).wait("▶ [ Yes ]")
			f.send(tea.WindowSizeMsg{Width: 60, Height: 20}).wait("too small")
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

// TestTooSmallOnlyQuits: below 80x24 the page is hidden: what is typed
// does not reach its form, and q quits.
func TestTooSmallOnlyQuits(t *testing.T) {
	f := newFlow(t)
	f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
	f.send(tea.WindowSizeMsg{Width: 79, Height: 30}).wait("too small")
	f.typ("abc")
	f.send(tea.WindowSizeMsg{Width: 120, Height: 36}).wait("New unlock schedule")
	f.send(tea.WindowSizeMsg{Width: 100, Height: 23}).wait("too small")
	f.runes("q")
	m := f.tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	if v := m.View(); strings.Contains(v, "abc") || !strings.Contains(v, "New unlock schedule") {
		t.Errorf("keys typed while the page was hidden reached it:\n%s", v)
	}
}

// TestQuitQuestionAnsweredOnlyWhenShown: q with work running asks; the
// too-small notice asks it too; where it does not fit, y does nothing.
func TestQuitQuestionAnsweredOnlyWhenShown(t *testing.T) {
	s, err := session.Sandbox(sandbox.Options{Faults: sandbox.Faults{Latency: time.Minute}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
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
	f := newFlow(t)
	f.runes("D").wait("Start distribution · Team & Advisors Vesting")
	f.typ("nope").wait(`"nope" is not a UUID`)
	f.key(tea.KeyCtrlU).typ(f.s.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS).wait("Send this START_DISTRIBUTION request")
	f.key(tea.KeyRight).wait("▶ [ Yes ]")
	f.send(views.NavigateMsg{Screen: views.NewTransactions(f.m.ctx)}).wait("No transactions yet")
	f.key(tea.KeyEsc).wait("Send this START_DISTRIBUTION request")
	f.waitFrom(f.mark, "▶ [ No ]")
	f.key(tea.KeyEnter).wait("recent lookups")
	f.quit()
	if n := applied(f.s, "transactions/create"); n != 0 {
		t.Errorf("sent %d after the question was hidden", n)
	}
}
