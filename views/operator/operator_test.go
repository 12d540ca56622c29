package operator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/session"
	"allot/views"
	"allot/views/transactions"
	"allot/views/widget"
	"allot/viewstest"
)

func TestOperatorValidSubmit(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures
	tests := []struct {
		action  string
		lookups []string
		fill    func(h *screen)
		body    func() string
		results int
	}{{
		action: api.ActionInitialize,
		fill: func(h *screen) {
			// The contract is filled in: the admin wallet has the focus.
			h.Paste(fx.AdminWalletIDs[0])
			h.Keys("enter")
		},
		body: func() string {
			return `{"action":"INITIALIZE","contractId":"` + fx.ContractIDs[0] + `","adminWalletId":"` + fx.AdminWalletIDs[0] + `"}`
		},
		results: 1,
	}, {
		action:  api.ActionStartDistribution,
		lookups: []string{fx.AllocationIDs[1], fx.AllocationIDs[0]},
		fill: func(h *screen) {
			// The allocation ids have the focus; ctrl+r lists the recent
			// lookups, newest first: enter adds the one under the cursor;
			// then the other is marked with space and added.
			h.Keys("ctrl+r")
			if v := h.view(); !strings.Contains(v, "Recent lookups") || strings.Index(v, fx.AllocationIDs[0]) > strings.Index(v, fx.AllocationIDs[1]) {
				h.T.Fatalf("the list of recent lookups, newest first:\n%s", h.o.View())
			}
			h.Keys("enter")
			if got := h.o.allocationIDs.Value(); got != fx.AllocationIDs[0] {
				h.T.Fatalf("allocation ids %q after enter", got)
			}
			h.Keys("ctrl+r")
			if !strings.Contains(h.view(), fx.AllocationIDs[0]+"  (in the list)") {
				h.T.Errorf("an id in the list is not shown as such:\n%s", h.o.View())
			}
			h.Keys("up", " ", "down", " ", "enter") // space on the taken id marks nothing
			if got := h.o.allocationIDs.Value(); got != fx.AllocationIDs[0]+", "+fx.AllocationIDs[1] {
				h.T.Fatalf("allocation ids %q after marking the second", got)
			}
			h.Keys("ctrl+r", "esc")
			if h.o.pick != nil || h.o.allocationIDs.Value() != fx.AllocationIDs[0]+", "+fx.AllocationIDs[1] {
				h.T.Fatalf("esc must close the list and change nothing: %q", h.o.allocationIDs.Value())
			}
			h.Keys("tab")
			h.Paste(fx.AdminWalletIDs[0])
			h.Keys("tab")
			h.Paste("first wave")
			h.Keys("ctrl+s")
		},
		body: func() string {
			return `{"action":"START_DISTRIBUTION","contractId":"` + fx.ContractIDs[0] + `","tokenId":"` + fx.TokenIDs[0] +
				`","allocationIds":["` + fx.AllocationIDs[0] + `","` + fx.AllocationIDs[1] + `"],"adminWalletId":"` + fx.AdminWalletIDs[0] + `","memo":"first wave"}`
		},
		results: 1,
	}, {
		action:  api.ActionFundDistribution,
		lookups: []string{fx.AllocationIDs[1], fx.AllocationIDs[0]},
		fill: func(h *screen) {
			// Row 1's allocation has the focus; isTest is above it.
			h.Keys("shift+tab", "right", "tab")
			h.Paste(fx.AllocationIDs[0])
			h.Keys("tab")
			h.Paste("1250.50")
			h.Keys("ctrl+n", "ctrl+r")
			if !strings.Contains(h.view(), fx.AllocationIDs[0]+"  (row 1)") {
				h.T.Errorf("the id of row 1 is not shown as such:\n%s", h.o.View())
			}
			h.Keys("enter")
			if got := h.o.rows[1].id.Value(); got != fx.AllocationIDs[1] {
				h.T.Fatalf("the list filled the new row with %q, want the recent id no other row uses %s", got, fx.AllocationIDs[1])
			}
			h.Keys("tab")
			h.Paste("0.25")
			h.Keys("ctrl+s")
		},
		body: func() string {
			return `{"action":"FUND_DISTRIBUTION","tokenId":"` + fx.TokenIDs[0] + `","data":[{"allocationId":"` + fx.AllocationIDs[0] +
				`","amount":1250.5},{"allocationId":"` + fx.AllocationIDs[1] + `","amount":0.25}],"isTest":true}`
		},
		results: 2,
	}}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			before := len(s.Applied())
			h := openForm(t, s, tt.action, tt.lookups...)
			tt.fill(h)
			shown := h.reviewedBody()
			if string(shown) != tt.body() {
				t.Errorf("review shows\n%s\nwant\n%s", shown, tt.body())
			}
			if !bytes.Equal(shown, h.o.body) {
				t.Errorf("review shows\n%s\nbut the screen holds\n%s", shown, h.o.body)
			}
			h.assertNothingSentSince(before)
			h.yesWhileBusy()
			v := ansi.Strip(h.view())
			if h.o.state != stageResult || strings.Count(v, "  CREATED") != tt.results || !strings.Contains(v, "They are on the Transactions screen (4).") ||
				!strings.Contains(v, "Their execution is not reported by the interface") {
				t.Fatalf("result screen:\n%s", v)
			}
			if strings.Contains(v, "esc close") {
				t.Errorf("the result page draws its keys; they are the footer's:\n%s", v)
			}
			for _, tx := range h.o.result.Transactions {
				if !strings.Contains(v, tx.TransactionID+"  CREATED") {
					t.Errorf("transaction %s not shown:\n%s", tx.TransactionID, v)
				}
			}
			h.assertSentOnceSince(before, tt.action, shown)
			h.assertListedAsCreated(shown)
		})
	}
}

func TestOperatorCancelSendsNothing(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures

	t.Run("esc in the form", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.Paste(fx.AdminWalletIDs[0])
		if !h.o.Mode().TakesKeys {
			t.Error("the form does not capture keys")
		}
		h.Keys("esc")
		if len(h.Got) != 1 || h.Got[0] != (views.BackMsg{}) {
			t.Errorf("esc answered %v, want BackMsg", h.Got)
		}
		h.assertNothingSent()
	})

	t.Run("n in review then esc", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.Paste(fx.AdminWalletIDs[0])
		h.Keys("ctrl+s")
		if h.o.state != stageReview || h.o.Mode().TakesKeys || !h.o.Mode().OwnsEsc {
			t.Fatalf("review: state %d capturing %t narrowed %t", h.o.state, h.o.Mode().TakesKeys, h.o.Mode().OwnsEsc)
		}
		h.Keys("n")
		if h.o.state != stageForm || h.o.adminWallet.Value() != fx.AdminWalletIDs[0] {
			t.Fatalf("n did not go back to the form with its values: state %d, admin wallet %q", h.o.state, h.o.adminWallet.Value())
		}
		// esc in review also goes back to the form.
		h.Keys("ctrl+s", "esc")
		if h.o.state != stageForm || len(h.Got) != 0 {
			t.Fatalf("esc in review: state %d, messages %v", h.o.state, h.Got)
		}
		h.Keys("esc")
		if len(h.Got) != 1 || h.Got[0] != (views.BackMsg{}) {
			t.Errorf("esc in the form answered %v, want BackMsg", h.Got)
		}
		h.assertNothingSent()
	})
}

func TestOperatorUnknownOutcome(t *testing.T) {
	t.Parallel()
	// With every request reset, the seeds decide whether the reset comes
	// after the sandbox applied the write (seed 3: the first two sends) or
	// before (seed 5: the first two sends).
	for _, tt := range []struct {
		name      string
		seed      uint64
		noApplied bool
		applied   bool
	}{
		{"applied", 3, false, true},
		{"not applied", 5, false, false},
		{"cannot tell", 5, true, false},
		{"unreadable answer", 0, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each on a sandbox of its own
			faults := sandbox.Faults{Reset: 1, Seed: tt.seed}
			if tt.seed == 0 {
				// A 200 whose body is cut short: applied, answer unreadable.
				faults = sandbox.Faults{Malformed: 1, Seed: 1}
			}
			s := newSandbox(t, sandbox.Options{Faults: faults})
			fx := s.Fixtures
			h := openForm(t, s, api.ActionInitialize)
			if tt.noApplied {
				h.ctx.Recorder.Ledger = nil
			}
			h.Paste(fx.AdminWalletIDs[0])
			h.Keys("ctrl+s")
			body := h.reviewedBody()
			h.Keys("y")
			v := ansi.Strip(h.view())
			if h.o.state != stageUnknown || !strings.Contains(v, "Outcome unknown") || !strings.Contains(v, "may or may not have created") ||
				!strings.Contains(v, "recorded in the local journal") || !strings.Contains(v, `"adminWalletId": "`+fx.AdminWalletIDs[0]+`"`) {
				t.Fatalf("unknown outcome screen (with the body sent):\n%s", v)
			}
			if reqs := h.requests(); len(reqs) != 1 || !bytes.Equal(reqs[0].Data, body) {
				t.Fatalf("journaled %+v, want the reviewed body once", reqs)
			}
			// Its keys are the footer's (Keys), as on every page: not
			// drawn on the page too.
			if strings.Contains(v, "esc close") || strings.Contains(v, "scroll the body") {
				t.Errorf("the page draws its keys, which the footer names:\n%s", v)
			}
			// The check ran as soon as the answer was lost.
			switch {
			case tt.noApplied:
				if !strings.Contains(v, "cannot say whether it applied") || !strings.Contains(v, "operators") {
					t.Fatalf("check without a journal:\n%s", v)
				}
			case tt.applied:
				if len(s.Applied()) != 1 || !strings.Contains(v, "applied: the service created it") || viewstest.Helped(h.o.Keys().ShortHelp())["r"] {
					t.Fatalf("check of an applied write (sandbox applied %d):\n%s", len(s.Applied()), v)
				}
				// Resend is not offered, and r sends nothing.
				h.Keys("r")
				if h.o.state != stageUnknown || len(h.requests()) != 1 {
					t.Fatalf("r after applied: state %d, %d requests", h.o.state, len(h.requests()))
				}
				return
			default:
				if len(s.Applied()) != 0 || !strings.Contains(v, "not applied: safe to resend") {
					t.Fatalf("check of a write not applied (sandbox applied %d):\n%s", len(s.Applied()), v)
				}
			}
			h.Keys("r")
			if h.o.state != stageResend || !strings.Contains(h.view(), `"adminWalletId": "`+fx.AdminWalletIDs[0]+`"`) {
				t.Fatalf("r does not ask with the body:\n%s", h.o.View())
			}
			h.Keys("n")
			if h.o.state != stageUnknown || len(h.requests()) != 1 {
				t.Fatalf("r then n: state %d, %d requests", h.o.state, len(h.requests()))
			}
			h.Keys("r", "y")
			reqs := h.requests()
			if len(reqs) != 2 || !bytes.Equal(reqs[1].Data, body) {
				t.Fatalf("r then y journaled %d requests, want exactly one more with the same body", len(reqs))
			}
			// Every request of this sandbox is reset: unknown again, and
			// the second write checked at once.
			if h.o.state != stageUnknown || h.o.outcome.Sent().Write != reqs[1].Write || h.o.outcome.Verdict() == nil {
				t.Fatalf("after the resend: state %d, outcome of %q, verdict %+v (second write %q)",
					h.o.state, h.o.outcome.Sent().Write, h.o.outcome.Verdict(), reqs[1].Write)
			}
		})
	}
}

// screen is an operator screen under a sync viewstest.Driver, on the
// embedded sandbox.
type screen struct {
	*viewstest.Driver
	s   *session.Session
	ctx *views.Context
	o   *operator
}

func newSandbox(t *testing.T, opts sandbox.Options) *session.Session {
	t.Helper()
	s, err := embedded.Sandbox(opts, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// openForm opens the screen of action on contract with a journal of its own;
// lookups are written to the journal first, oldest first.
func openForm(t *testing.T, s *session.Session, action string, lookups ...string) *screen {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range lookups {
		if err := j.Append(journal.Entry{Kind: journal.KindLookup, Profile: s.Name, Ref: id}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	ctx := &views.Context{Session: s, Now: func() time.Time { return now }, Styles: widget.DefaultStyles(),
		Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0], Journal: j,
		Recorder: s.Recorder(j)}
	c := api.Contract{ID: s.Fixtures.ContractIDs[0], Name: "Meridian vesting"}
	o := New(ctx, c, action).(*operator)
	// The driver waits for every command a key answers: a blinking cursor
	// would make each focus change wait 530 ms for its first blink.
	o.form.SetCursorMode(cursor.CursorStatic)
	return &screen{Driver: viewstest.NewSyncDriver(t, o, 120, 34), s: s, ctx: ctx, o: o}
}

// requests are the write requests in the local journal.
func (h *screen) requests() []journal.Entry {
	h.T.Helper()
	return viewstest.Writes(h.T, h.ctx.Journal)
}

// assertNothingSent checks that no request was journaled or applied.
func (h *screen) assertNothingSent() {
	h.T.Helper()
	if reqs := h.requests(); len(reqs) != 0 {
		h.T.Fatalf("journaled %d requests, want none: %+v", len(reqs), reqs)
	}
	if applied := h.s.Applied(); len(applied) != 0 {
		h.T.Fatalf("the sandbox applied %d writes, want none", len(applied))
	}
}

func (h *screen) view() string {
	h.T.Helper()
	v := h.o.View()
	h.assertFits(v, h.o.width, h.o.height)
	return v
}

func (h *screen) assertFits(v string, width, height int) {
	h.T.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) > height {
		h.T.Errorf("%d lines, more than the height %d:\n%s", len(lines), height, v)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			h.T.Errorf("line %d is %d cells, wider than %d: %q", i+1, w, width, l)
		}
	}
}

// reviewedBody is the JSON body the review screen shows, read back from
// the screen and compacted.
func (h *screen) reviewedBody() []byte {
	h.T.Helper()
	if h.o.state != stageReview {
		h.T.Fatalf("not on the review screen:\n%s", h.o.View())
	}
	lines := strings.Split(ansi.Strip(h.view()), "\n")
	var body []string
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "╭") {
			break
		}
		body = append(body, l)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(strings.Join(body, "\n"))); err != nil {
		h.T.Fatalf("the review does not show JSON: %v\n%s", err, strings.Join(body, "\n"))
	}
	return buf.Bytes()
}

// assertSentOnce checks that exactly body was journaled, once, as the
// action's transactions/create request, and that the sandbox applied it.
func (h *screen) assertSentOnce(action string, body []byte) {
	h.T.Helper()
	reqs := h.requests()
	if len(reqs) != 1 {
		h.T.Fatalf("journaled %d requests, want 1", len(reqs))
	}
	if reqs[0].Op != "transactions/create" || reqs[0].Ref != action {
		h.T.Errorf("journaled %s %s, want transactions/create %s", reqs[0].Op, reqs[0].Ref, action)
	}
	if !bytes.Equal(reqs[0].Data, body) {
		h.T.Errorf("journaled body\n%s\nreviewed body\n%s", reqs[0].Data, body)
	}
	sum := sha256.Sum256(body)
	applied := h.s.Applied()
	if len(applied) != 1 || applied[0].Action != action || applied[0].BodySHA256 != hex.EncodeToString(sum[:]) {
		h.T.Errorf("the sandbox applied %+v, want the reviewed %s body once", applied, action)
	}
}

// errorUnder returns the line under the field labelled label, which holds
// its error when it has one.
func (h *screen) errorUnder(label string) string {
	h.T.Helper()
	lines := strings.Split(ansi.Strip(h.view()), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, "▶ "), label+" ") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	h.T.Fatalf("no field %q on screen:\n%s", label, h.o.View())
	return ""
}

// assertListedAsCreated checks the Transactions rows of the result: said
// created, never PENDING (no call reports their execution), with the
// body that was sent in their details.
func (h *screen) assertListedAsCreated(sent []byte) {
	h.T.Helper()
	rows, err := transactions.Read(h.ctx.Journal, h.s.Deployment())
	if err != nil {
		h.T.Fatal(err)
	}
	for _, tx := range h.o.result.Transactions {
		i := slices.IndexFunc(rows, func(r transactions.Row) bool { return r.ID == tx.TransactionID })
		if i < 0 {
			h.T.Fatalf("transaction %s not on the Transactions screen: %+v", tx.TransactionID, rows)
		}
		if rows[i].StatusText() != api.TransactionCreated {
			h.T.Errorf("transaction %s listed as %q", tx.TransactionID, rows[i].StatusText())
		}
		var details []string
		for _, f := range rows[i].Fields(time.Now()) {
			details = append(details, f.Label+": "+f.Value)
		}
		d := strings.Join(details, "\n")
		if !strings.Contains(d, "Status: "+api.TransactionCreatedNote) || !strings.Contains(d, "Body sent: "+strings.Join(views.PrettyBody(sent), "\n")) {
			h.T.Errorf("details of %s:\n%s", tx.TransactionID, d)
		}
	}
}

// yesWhileBusy answers y in review and checks that the screen is busy,
// saying it sends, until the answer arrives.
func (h *screen) yesWhileBusy() {
	h.T.Helper()
	answer := h.o.Update(viewstest.Key("y"))()
	send := h.o.Update(answer)
	if !h.o.Mode().Busy || !h.o.Mode().OwnsEsc || !strings.Contains(h.view(), "sending "+h.o.action) {
		h.T.Errorf("while sending: busy %t narrowed %t\n%s", h.o.Mode().Busy, h.o.Mode().OwnsEsc, h.o.View())
	}
	h.Run(send)
	if h.o.Mode().Busy {
		h.T.Error("still busy after the answer")
	}
}

// assertNothingSentSince is assertNothingSent on a sandbox shared by
// subtests, where earlier subtests applied writes.
func (h *screen) assertNothingSentSince(applied int) {
	h.T.Helper()
	if reqs := h.requests(); len(reqs) != 0 {
		h.T.Fatalf("journaled %d requests before the yes", len(reqs))
	}
	if n := len(h.s.Applied()); n != applied {
		h.T.Fatalf("the sandbox applied %d writes before the yes", n-applied)
	}
}

// assertSentOnceSince is assertSentOnce on a shared sandbox.
func (h *screen) assertSentOnceSince(applied int, action string, body []byte) {
	h.T.Helper()
	all := h.s.Applied
	h.s.Applied = func() []session.AppliedWrite { return all()[applied:] }
	defer func() { h.s.Applied = all }()
	h.assertSentOnce(action, body)
}
