package operator

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/views"
	"allot/viewstest"
)

func TestOperatorValidationInPlace(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures

	t.Run("bad contract id", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.Paste(fx.AdminWalletIDs[0])
		h.Keys("shift+tab", "ctrl+u")
		h.Paste("not-a-uuid")
		if got := h.errorUnder("Contract id"); !strings.Contains(got, `✗ "not-a-uuid" is not a UUID`) {
			t.Errorf("under the contract id: %q\n%s", got, h.o.View())
		}
		h.Keys("tab", "ctrl+s")
		if h.o.state != stageForm || h.o.form.Focused() != 0 || !strings.Contains(h.view(), "Fix the marked field first.") {
			t.Errorf("ctrl+s with a bad contract id: state %d, focus %d\n%s", h.o.state, h.o.form.Focused(), h.o.View())
		}
		h.assertNothingSent()
		// The line goes with the mark once the field is fixed.
		h.Keys("ctrl+u")
		h.Paste(fx.ContractIDs[0])
		if strings.Contains(h.view(), "Fix the marked field first.") {
			t.Errorf("the fixed form still says to fix a field:\n%s", h.o.View())
		}
	})

	t.Run("same allocation in two rows", func(t *testing.T) {
		h := openForm(t, s, api.ActionFundDistribution)
		h.Paste(fx.AllocationIDs[0])
		h.Keys("tab")
		h.Paste("1")
		if strings.Contains(h.view(), "funded twice") {
			t.Errorf("a warning with one row:\n%s", h.o.View())
		}
		h.Keys("ctrl+n")
		h.Paste(fx.AllocationIDs[0])
		if !strings.Contains(h.view(), "! rows 1 and 2 fund the same allocation: it would be funded twice") {
			t.Errorf("no warning of the allocation in two rows:\n%s", h.o.View())
		}
		// The warning takes no line from the form: the focused field
		// stays in sight in a small space.
		h.o.SetSize(80, 8)
		if v := h.view(); !strings.Contains(v, "▶ Allocation 2") || !strings.Contains(v, "funded twice") {
			t.Errorf("at 80x8 the focused row or the warning is gone:\n%s", v)
		}
		// The review asks with the warning beside its yes.
		h.o.SetSize(120, 36)
		h.Keys("tab")
		h.Paste("2")
		h.Keys("ctrl+s")
		if v := strings.Join(strings.Fields(h.view()), " "); h.o.state != stageReview || !strings.Contains(v, "rows 1 and 2 fund the same allocation: it would be funded twice. Send this") {
			t.Errorf("the review does not repeat the warning (state %d):\n%s", h.o.state, h.o.View())
		}
		h.assertNothingSent()
	})

	t.Run("empty allocation list", func(t *testing.T) {
		h := openForm(t, s, api.ActionStartDistribution)
		if strings.Contains(h.view(), "✗") {
			t.Errorf("errors before anything was typed:\n%s", h.o.View())
		}
		// Leaving the untouched, empty list shows its error.
		h.Keys("tab")
		if got := h.errorUnder("Allocation ids"); !strings.Contains(got, "✗ must hold at least 1 item") {
			t.Errorf("under the allocation ids after leaving them: %q", got)
		}
		h.Keys("ctrl+s")
		if h.o.state != stageForm || h.o.form.Focused() != 2 {
			t.Errorf("ctrl+s with no allocations: state %d, focus %d", h.o.state, h.o.form.Focused())
		}
		h.Paste(fx.AllocationIDs[0] + ", abc")
		if got := h.errorUnder("Allocation ids"); !strings.Contains(got, `✗ id 2: "abc" is not a UUID`) {
			t.Errorf("under the allocation ids: %q", got)
		}
		h.Keys("enter", "enter", "enter")
		if h.o.state != stageForm || h.o.form.Focused() != 2 {
			t.Errorf("enter on the last field with a bad id: state %d, focus %d", h.o.state, h.o.form.Focused())
		}
		h.assertNothingSent()
	})

	for _, tt := range []struct{ name, amount, want string }{
		{"zero amount", "0", "✗ must be greater than 0"},
		{"bad amount", "12abc", `✗ "12abc" is not a decimal amount`},
		{"empty amount", "", "✗ empty amount"},
		{"19 decimals", "1.1234567890123456789", "✗ at most 18 decimals"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := openForm(t, s, api.ActionFundDistribution)
			h.Paste(fx.AllocationIDs[0])
			h.Keys("tab")
			h.Paste(tt.amount)
			h.Keys("ctrl+s")
			if got := h.errorUnder("Amount 1"); !strings.Contains(got, tt.want) {
				t.Errorf("under the amount: %q, want %q\n%s", got, tt.want, h.o.View())
			}
			if got := h.errorUnder("Allocation 1"); strings.Contains(got, "✗") {
				t.Errorf("the valid allocation id shows an error: %q", got)
			}
			if h.o.state != stageForm || h.o.form.Focused() != 3 {
				t.Errorf("ctrl+s: state %d, focus %d", h.o.state, h.o.form.Focused())
			}
			h.assertNothingSent()
		})
	}

	t.Run("refused by the service", func(t *testing.T) {
		// The last fixture allocation is in another distribution than the
		// first contract's: the service names allocationIds[1].
		h := openForm(t, s, api.ActionStartDistribution)
		h.Paste(fx.AllocationIDs[0] + " " + fx.AllocationIDs[len(fx.AllocationIDs)-1])
		h.Keys("ctrl+s", "y")
		if h.o.state != stageForm {
			t.Fatalf("state %d after a refusal:\n%s", h.o.state, h.o.View())
		}
		if got := h.errorUnder("Allocation ids"); !strings.Contains(got, "✗ id 2: belongs to the distribution of another contract") {
			t.Errorf("under the allocation ids: %q\n%s", got, h.o.View())
		}
		if !strings.Contains(h.view(), "The service refused the request") || h.o.form.Focused() != 2 {
			t.Errorf("refusal not said, or focus %d not on the ids:\n%s", h.o.form.Focused(), h.o.View())
		}
		if reqs := h.requests(); len(reqs) != 1 {
			t.Errorf("journaled %d requests, want the refused one", len(reqs))
		}
	})

	t.Run("other failure", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.Paste("00000000-0000-4000-8000-000000000000")
		h.Keys("ctrl+s", "y")
		v := ansi.Strip(h.view())
		if h.o.state != stageForm || !strings.Contains(v, "✗ Not created: transactions/create: no admin wallet 00000000-0000-4000-8000-000000000000 (404)") {
			t.Errorf("a 404 is not one clear line on the form:\n%s", v)
		}
	})
}

func TestOperatorFundRows(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	h.Paste("one")
	h.Keys("ctrl+n")
	h.Paste("two")
	h.Keys("ctrl+n")
	h.Paste("three")
	if len(h.o.rows) != 3 || h.o.rows[2].id.Value() != "three" {
		t.Fatalf("rows after two ctrl+n: %d", len(h.o.rows))
	}
	// Back to row 1 and add a row after it: it becomes row 2.
	h.Keys("shift+tab", "shift+tab", "shift+tab", "shift+tab", "ctrl+n")
	got := []string{}
	for _, r := range h.o.rows {
		got = append(got, r.id.Value())
	}
	if strings.Join(got, ",") != "one,,two,three" || h.o.focusedRow() != 1 {
		t.Fatalf("rows %v, focused row %d", got, h.o.focusedRow())
	}
	v := h.view()
	for _, label := range []string{"Allocation 1", "Allocation 2", "Allocation 3", "Allocation 4", "Amount 4"} {
		if !strings.Contains(v, label) {
			t.Errorf("no %q:\n%s", label, v)
		}
	}
	h.Keys("ctrl+d", "ctrl+d", "ctrl+d")
	if len(h.o.rows) != 1 {
		t.Fatalf("rows after three ctrl+d: %d", len(h.o.rows))
	}
	h.Keys("ctrl+d")
	if len(h.o.rows) != 1 || !strings.Contains(h.view(), "The last row stays") {
		t.Fatalf("the last row was removed, or no word why:\n%s", h.o.View())
	}
	// ctrl+r without recent lookups says where they come from.
	h.Keys("ctrl+r")
	if !strings.Contains(h.view(), "No recent lookups") {
		t.Errorf("ctrl+r without lookups:\n%s", h.o.View())
	}
	h.assertNothingSent()
}

func TestOperatorViewFits(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures
	sizes := [][2]int{{80, 22}, {120, 34}}
	check := func(h *screen, what string) {
		t.Helper()
		for _, size := range sizes {
			h.o.SetSize(size[0], size[1])
			h.assertFits(h.o.View(), size[0], size[1])
			if t.Failed() {
				t.Fatalf("%s at %dx%d:\n%s", what, size[0], size[1], h.o.View())
			}
		}
	}
	for _, action := range []string{api.ActionInitialize, api.ActionStartDistribution, api.ActionFundDistribution} {
		h := openForm(t, s, action)
		check(h, action+" form")
		h.Keys("ctrl+s")
		check(h, action+" form with errors")
		if len(h.o.Keys().ShortHelp()) == 0 || len(h.o.Keys().FullHelp()) == 0 {
			t.Errorf("%s: no help", action)
		}
	}

	// A long body scrolls in review; so do many results.
	h := openForm(t, s, api.ActionStartDistribution)
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("%08x-0000-4000-8000-%012x", i+1, i+1))
	}
	h.Paste(strings.Join(ids, ", "))
	h.Keys("tab", "tab")
	h.Paste(strings.Repeat("memo ", 30))
	h.Keys("ctrl+s")
	if h.o.state != stageReview {
		t.Fatalf("no review:\n%s", h.o.View())
	}
	check(h, "long review")
	h.o.SetSize(80, 22)
	first := h.o.View()
	if !strings.Contains(ansi.Strip(first), "lines 1–") {
		t.Errorf("a long body does not say it scrolls:\n%s", first)
	}
	h.Keys("pgdown", "down")
	if h.o.asking.Scroll().Top() == 0 || h.o.View() == first {
		t.Errorf("pgdown did not scroll")
	}
	h.Keys("pgup", "pgup")
	if h.o.asking.Scroll().Top() != 0 {
		t.Errorf("pgup did not scroll back: %d", h.o.asking.Scroll().Top())
	}
	h.o.asking = nil
	h.o.state = stageResult
	h.o.result = &api.TransactionsResult{}
	for range 40 {
		h.o.result.Transactions = append(h.o.result.Transactions, api.Transaction{TransactionID: "\x1b]52;c;aGk=\x07" + fx.AllocationIDs[0], Status: "PENDING"})
	}
	check(h, "many results")
	if strings.Contains(h.o.View(), "\x1b]52") {
		t.Error("a transaction id from the network reached the screen unsanitized")
	}
	h.o.state, h.o.unknownErr = stageUnknown, &api.OutcomeUnknownError{Op: "transactions/create", Err: io.ErrUnexpectedEOF}
	h.ctx.Recorder.Ledger = nil // the check cannot tell: the longest page
	h.o.outcome.Reopen(h.ctx, act.Sent{Op: act.OpTransaction, Ref: h.o.action, Body: h.o.body})
	h.Run(h.o.outcome.Check())
	if v := h.o.outcome.Verdict(); v == nil || v.Check != act.CannotTell {
		t.Fatalf("the check found %+v, want cannot tell", v)
	}
	check(h, "unknown outcome")
}

func TestOperatorHelp(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	keys := func(h *screen) string {
		var out []string
		for _, b := range h.o.Keys().ShortHelp() {
			out = append(out, b.Help().Key)
		}
		return strings.Join(out, " ")
	}
	for _, tt := range []struct{ action, want string }{
		// The admin wallet field has the focus: on the sandbox ctrl+r
		// lists its demo admin wallets.
		{api.ActionInitialize, "ctrl+s ctrl+r esc"},
		{api.ActionStartDistribution, "ctrl+s ctrl+r esc"},
		{api.ActionFundDistribution, "ctrl+s ctrl+n ctrl+d ctrl+r esc"},
	} {
		h := openForm(t, s, tt.action)
		if got := keys(h); got != tt.want {
			t.Errorf("%s form help %q, want %q", tt.action, got, tt.want)
		}
		if full := h.o.Keys().FullHelp(); len(full) != 2 || full[1][0].Help().Key != "tab/↓" {
			t.Errorf("%s full help lacks the form's keys: %v", tt.action, full)
		}
	}
	h := openForm(t, s, api.ActionInitialize)
	h.Paste(s.Fixtures.AdminWalletIDs[0])
	h.Keys("ctrl+s")
	// The body fits: the scroll is offered only once it does not.
	if got := keys(h); got != "y n/esc" {
		t.Errorf("review help %q", got)
	}
	h.o.SetSize(80, 9)
	if got := keys(h); got != "y n/esc ↑/↓/pgup/pgdn" {
		t.Errorf("review help of a body taller than its window %q", got)
	}
}

// TestServiceErrorsMarkTheirField: the service's 400 names a repeated
// row's field by its path (data[2].amount, the third row, after a row was
// added in the middle); that field is marked, no other, and an error of a
// path no field shows is said in the status line.
func TestServiceErrorsMarkTheirField(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	h.Keys("ctrl+n", "ctrl+n", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "ctrl+n")
	if len(h.o.rows) != 4 {
		t.Fatalf("%d rows", len(h.o.rows))
	}
	h.o.state = stageSending
	h.Run(h.o.sent(&views.Answer[*api.TransactionsResult]{Err: &api.ValidationError{Remote: true, Fields: []api.FieldError{
		{Path: "data[2].amount", Message: "exceeds what the allocation may receive"},
		{Path: "fundingWindow", Message: "closed since noon"},
	}}}))
	view := ansi.Strip(h.o.View())
	if h.o.state != stageForm || !strings.Contains(h.errorUnder("Amount 3"), "exceeds what the allocation may receive") {
		t.Fatalf("row 3's amount is not marked:\n%s", view)
	}
	for _, label := range []string{"Amount 1", "Amount 2", "Amount 4", "Allocation 3"} {
		if got := h.errorUnder(label); strings.Contains(got, "exceeds") {
			t.Errorf("%s marked: %q", label, got)
		}
	}
	if status := strings.Split(view, "\n")[1]; !strings.Contains(status, "fundingWindow: closed since noon") {
		t.Errorf("status line %q", status)
	}
}

// TestFormTitleSaysNoKeys: the line under an operator form's title is for
// errors and hints; its keys are said once, in the footer (it said
// "ctrl+s review · esc cancel" above a footer saying the same).
func TestFormTitleSaysNoKeys(t *testing.T) {
	t.Parallel()
	for _, action := range []string{api.ActionInitialize, api.ActionStartDistribution, api.ActionFundDistribution} {
		o := New(viewstest.Sandbox(t), api.Contract{ID: "14f74a96-09be-51d7-9a23-06d5c91a3733", Name: "Team"}, action)
		o.SetSize(80, 22)
		lines := strings.Split(ansi.Strip(o.View()), "\n")
		for _, l := range lines[:2] {
			if strings.Contains(l, "ctrl+s") || strings.Contains(l, "esc") {
				t.Errorf("%s: the form's top says its keys: %q", action, l)
			}
		}
	}
}

// TestOperatorErrorsShowOnLeave: the form holds a field's own error back
// until the user leaves the field (or tries to review), then shows it;
// an empty field, of the form or of an added row, left untouched says
// what it lacks once left.
func TestOperatorErrorsShowOnLeave(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionInitialize)
	h.Paste("nope")
	if strings.Contains(h.view(), "✗") {
		t.Errorf("an error greets the first characters typed:\n%s", h.o.View())
	}
	h.Keys("tab")
	if got := h.errorUnder("Admin wallet id"); !strings.Contains(got, `✗ "nope" is not a UUID`) {
		t.Errorf("under the admin wallet once left: %q\n%s", got, h.o.View())
	}

	h = openForm(t, s, api.ActionFundDistribution)
	h.Paste(s.Fixtures.AllocationIDs[0])
	h.Keys("tab")
	h.Paste("1")
	h.Keys("ctrl+n")
	if strings.Contains(h.view(), "✗") {
		t.Errorf("errors before the new row was left:\n%s", h.o.View())
	}
	h.Keys("tab", "tab")
	if got := h.errorUnder("Allocation 2"); !strings.Contains(got, "✗") {
		t.Errorf("the new row's empty allocation, left, says nothing: %q\n%s", got, h.o.View())
	}
	if got := h.errorUnder("Amount 2"); !strings.Contains(got, "✗ empty amount") {
		t.Errorf("the new row's empty amount, left, says nothing: %q\n%s", got, h.o.View())
	}
}

// TestFundAmountNamesTheToken: the amount's placeholder names the token
// the token field holds, and says "amount" once it holds none known.
func TestFundAmountNamesTheToken(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	n, ok := s.TokenName(s.TokenIDs[0])
	if !ok || n.Short() == "" {
		t.Fatalf("the sandbox's token has no name: %+v", n)
	}
	if v := h.view(); !strings.Contains(v, n.Short()+", e.g. 1250.5") || strings.Contains(v, "tokens, e.g.") {
		t.Errorf("the amount does not name %s:\n%s", n.Short(), v)
	}
	h.o.tokenID.SetValue("not-a-token")
	if v := h.view(); !strings.Contains(v, "amount, e.g. 1250.5") || strings.Contains(v, n.Short()+", e.g.") {
		t.Errorf("the amount names a token no longer chosen:\n%s", v)
	}
	h.Keys("ctrl+n")
	if len(h.o.rows) != 2 {
		t.Fatalf("rows after ctrl+n: %d", len(h.o.rows))
	}
	if v := h.view(); strings.Count(v, "amount, e.g. 1250.5") != 2 {
		t.Errorf("a new row's amount does not say amount:\n%s", v)
	}
}
