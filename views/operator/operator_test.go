package operator

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/views"
)

func TestOperatorValidSubmit(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures
	tests := []struct {
		action  string
		lookups []string
		fill    func(h *harness)
		body    func() string
		results int
	}{{
		action: api.ActionInitialize,
		fill: func(h *harness) {
			// The contract is filled in: the admin wallet has the focus.
			h.typeText(fx.AdminWalletIDs[0])
			h.press("enter")
		},
		body: func() string {
			return `{"action":"INITIALIZE","contractId":"` + fx.ContractIDs[0] + `","adminWalletId":"` + fx.AdminWalletIDs[0] + `"}`
		},
		results: 1,
	}, {
		action:  api.ActionStartDistribution,
		lookups: []string{fx.AllocationIDs[1], fx.AllocationIDs[0]},
		fill: func(h *harness) {
			// The allocation ids have the focus; ctrl+r lists the recent
			// lookups, newest first: enter adds the one under the cursor;
			// then the other is marked with space and added.
			h.press("ctrl+r")
			if v := h.view(); !strings.Contains(v, "Recent lookups") || strings.Index(v, fx.AllocationIDs[0]) > strings.Index(v, fx.AllocationIDs[1]) {
				h.t.Fatalf("the list of recent lookups, newest first:\n%s", h.o.View())
			}
			h.press("enter")
			if got := h.o.allocationIDs.Value(); got != fx.AllocationIDs[0] {
				h.t.Fatalf("allocation ids %q after enter", got)
			}
			h.press("ctrl+r")
			if !strings.Contains(h.view(), fx.AllocationIDs[0]+"  (in the list)") {
				h.t.Errorf("an id in the list is not shown as such:\n%s", h.o.View())
			}
			h.press("up", " ", "down", " ", "enter") // space on the taken id marks nothing
			if got := h.o.allocationIDs.Value(); got != fx.AllocationIDs[0]+", "+fx.AllocationIDs[1] {
				h.t.Fatalf("allocation ids %q after marking the second", got)
			}
			h.press("ctrl+r", "esc")
			if h.o.pick != nil || h.o.allocationIDs.Value() != fx.AllocationIDs[0]+", "+fx.AllocationIDs[1] {
				h.t.Fatalf("esc must close the list and change nothing: %q", h.o.allocationIDs.Value())
			}
			h.press("tab")
			h.typeText(fx.AdminWalletIDs[0])
			h.press("tab")
			h.typeText("first wave")
			h.press("ctrl+s")
		},
		body: func() string {
			return `{"action":"START_DISTRIBUTION","contractId":"` + fx.ContractIDs[0] + `","tokenId":"` + fx.TokenIDs[0] +
				`","allocationIds":["` + fx.AllocationIDs[0] + `","` + fx.AllocationIDs[1] + `"],"adminWalletId":"` + fx.AdminWalletIDs[0] + `","memo":"first wave"}`
		},
		results: 1,
	}, {
		action:  api.ActionFundDistribution,
		lookups: []string{fx.AllocationIDs[1], fx.AllocationIDs[0]},
		fill: func(h *harness) {
			// Row 1's allocation has the focus; isTest is above it.
			h.press("shift+tab", "right", "tab")
			h.typeText(fx.AllocationIDs[0])
			h.press("tab")
			h.typeText("1250.50")
			h.press("ctrl+n", "ctrl+r")
			if !strings.Contains(h.view(), fx.AllocationIDs[0]+"  (row 1)") {
				h.t.Errorf("the id of row 1 is not shown as such:\n%s", h.o.View())
			}
			h.press("enter")
			if got := h.o.rows[1].id.Value(); got != fx.AllocationIDs[1] {
				h.t.Fatalf("the list filled the new row with %q, want the recent id no other row uses %s", got, fx.AllocationIDs[1])
			}
			h.press("tab")
			h.typeText("0.25")
			h.press("ctrl+s")
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
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures

	t.Run("esc in the form", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.typeText(fx.AdminWalletIDs[0])
		if !h.o.Mode().TakesKeys {
			t.Error("the form does not capture keys")
		}
		h.press("esc")
		if len(h.msgs) != 1 || h.msgs[0] != (views.BackMsg{}) {
			t.Errorf("esc answered %v, want BackMsg", h.msgs)
		}
		h.assertNothingSent()
	})

	t.Run("n in review then esc", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.typeText(fx.AdminWalletIDs[0])
		h.press("ctrl+s")
		if h.o.state != stageReview || h.o.Mode().TakesKeys || !h.o.Mode().OwnsEsc {
			t.Fatalf("review: state %d capturing %t narrowed %t", h.o.state, h.o.Mode().TakesKeys, h.o.Mode().OwnsEsc)
		}
		h.press("n")
		if h.o.state != stageForm || h.o.adminWallet.Value() != fx.AdminWalletIDs[0] {
			t.Fatalf("n did not go back to the form with its values: state %d, admin wallet %q", h.o.state, h.o.adminWallet.Value())
		}
		// esc in review also goes back to the form.
		h.press("ctrl+s", "esc")
		if h.o.state != stageForm || len(h.msgs) != 0 {
			t.Fatalf("esc in review: state %d, messages %v", h.o.state, h.msgs)
		}
		h.press("esc")
		if len(h.msgs) != 1 || h.msgs[0] != (views.BackMsg{}) {
			t.Errorf("esc in the form answered %v, want BackMsg", h.msgs)
		}
		h.assertNothingSent()
	})
}

func TestOperatorUnknownOutcome(t *testing.T) {
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
			h.typeText(fx.AdminWalletIDs[0])
			h.press("ctrl+s")
			body := h.reviewedBody()
			h.press("y")
			v := ansi.Strip(h.view())
			if h.o.state != stageUnknown || !strings.Contains(v, "Outcome unknown") || !strings.Contains(v, "may or may not have created") ||
				!strings.Contains(v, "recorded in the local journal") || !strings.Contains(v, `"adminWalletId": "`+fx.AdminWalletIDs[0]+`"`) {
				t.Fatalf("unknown outcome screen (with the body sent):\n%s", v)
			}
			if reqs := h.requests(); len(reqs) != 1 || !bytes.Equal(reqs[0].Data, body) {
				t.Fatalf("journaled %+v, want the reviewed body once", reqs)
			}
			// The check ran as soon as the answer was lost.
			switch {
			case tt.noApplied:
				if !strings.Contains(v, "cannot say whether it applied") || !strings.Contains(v, "operators") {
					t.Fatalf("check without a journal:\n%s", v)
				}
			case tt.applied:
				if len(s.Applied()) != 1 || !strings.Contains(v, "applied: the service created it") || strings.Contains(v, "r resend") {
					t.Fatalf("check of an applied write (sandbox applied %d):\n%s", len(s.Applied()), v)
				}
				// Resend is not offered, and r sends nothing.
				h.press("r")
				if h.o.state != stageUnknown || len(h.requests()) != 1 {
					t.Fatalf("r after applied: state %d, %d requests", h.o.state, len(h.requests()))
				}
				return
			default:
				if len(s.Applied()) != 0 || !strings.Contains(v, "not applied: safe to resend") {
					t.Fatalf("check of a write not applied (sandbox applied %d):\n%s", len(s.Applied()), v)
				}
			}
			h.press("r")
			if h.o.state != stageResend || !strings.Contains(h.view(), `"adminWalletId": "`+fx.AdminWalletIDs[0]+`"`) {
				t.Fatalf("r does not ask with the body:\n%s", h.o.View())
			}
			h.press("n")
			if h.o.state != stageUnknown || len(h.requests()) != 1 {
				t.Fatalf("r then n: state %d, %d requests", h.o.state, len(h.requests()))
			}
			h.press("r", "y")
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
