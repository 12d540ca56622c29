package operator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/journal"
	"allot/internal/session"
	"allot/views"
	"allot/views/transactions"
	"allot/views/viewstest"
	"allot/views/widget"
)

// harness drives an operator screen over the embedded sandbox.
type harness struct {
	t    *testing.T
	s    *session.Session
	ctx  *views.Context
	o    *operator
	msgs []tea.Msg // what the screen sent the app (BackMsg, ...)
}

func newSandbox(t *testing.T, opts sandbox.Options) *session.Session {
	t.Helper()
	s, err := session.Sandbox(opts, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// openForm opens the screen of action on contract with a journal of its own;
// lookups are written to the journal first, oldest first.
func openForm(t *testing.T, s *session.Session, action string, lookups ...string) *harness {
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
	h := &harness{t: t, s: s, ctx: ctx, o: New(ctx, c, action).(*operator)}
	h.o.SetSize(120, 34)
	// run waits for every command a key answers: a blinking cursor would
	// make each focus change wait 530 ms for its first blink.
	h.o.form.SetCursorMode(cursor.CursorStatic)
	return h
}

// typeText types text into the focused field. Typing only ever answers
// with a cursor blink, which is not waited for.
func (h *harness) typeText(text string) {
	h.o.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)})
}

// press sends keys one by one and runs what each answers to completion.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.run(h.o.Update(viewstest.Key(k)))
	}
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

// run executes cmd and feeds its messages back to the screen, running
// batches in parallel; cursor blinks and spinner ticks are dropped (they
// would tick forever), messages for the app are kept in h.msgs.
func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	results := make(chan tea.Msg, 1)
	go func() { results <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-results:
	case <-time.After(time.Minute):
		h.t.Fatal("a command ran for a minute")
	}
	if msg == nil {
		return
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		h.runAll(batch)
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		for i := range v.Len() {
			h.run(v.Index(i).Interface().(tea.Cmd))
		}
		return
	}
	switch msg.(type) {
	case spinner.TickMsg:
		return
	case views.BackMsg, views.NavigateMsg, views.ErrorMsg, views.StatusMsg:
		h.msgs = append(h.msgs, msg)
		return
	}
	if strings.Contains(reflect.TypeOf(msg).PkgPath(), "bubbles/cursor") {
		return
	}
	h.run(h.o.Update(msg))
}

func (h *harness) runAll(cmds []tea.Cmd) {
	h.t.Helper()
	msgs := make([]chan tea.Msg, len(cmds))
	for i, c := range cmds {
		if c == nil {
			continue
		}
		msgs[i] = make(chan tea.Msg, 1)
		go func() { msgs[i] <- c() }()
	}
	for i := range cmds {
		if msgs[i] == nil {
			continue
		}
		msg := <-msgs[i]
		h.run(func() tea.Msg { return msg })
	}
}

// requests are the write requests in the local journal.
func (h *harness) requests() []journal.Entry {
	h.t.Helper()
	res, err := h.ctx.Journal.Read()
	if err != nil {
		h.t.Fatal(err)
	}
	var out []journal.Entry
	for _, e := range res.Entries {
		if e.Kind == journal.KindRequest {
			out = append(out, e)
		}
	}
	return out
}

// assertNothingSent checks that no request was journaled or applied.
func (h *harness) assertNothingSent() {
	h.t.Helper()
	if reqs := h.requests(); len(reqs) != 0 {
		h.t.Fatalf("journaled %d requests, want none: %+v", len(reqs), reqs)
	}
	if applied := h.s.Applied(); len(applied) != 0 {
		h.t.Fatalf("the sandbox applied %d writes, want none", len(applied))
	}
}

func (h *harness) view() string {
	h.t.Helper()
	v := h.o.View()
	h.assertFits(v, h.o.width, h.o.height)
	return v
}

func (h *harness) assertFits(v string, width, height int) {
	h.t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) > height {
		h.t.Errorf("%d lines, more than the height %d:\n%s", len(lines), height, v)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			h.t.Errorf("line %d is %d cells, wider than %d: %q", i+1, w, width, l)
		}
	}
}

// reviewedBody is the JSON body the review screen shows, read back from
// the screen and compacted.
func (h *harness) reviewedBody() []byte {
	h.t.Helper()
	if h.o.state != stageReview {
		h.t.Fatalf("not on the review screen:\n%s", h.o.View())
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
		h.t.Fatalf("the review does not show JSON: %v\n%s", err, strings.Join(body, "\n"))
	}
	return buf.Bytes()
}

// assertSentOnce checks that exactly body was journaled, once, as the
// action's transactions/create request, and that the sandbox applied it.
func (h *harness) assertSentOnce(action string, body []byte) {
	h.t.Helper()
	reqs := h.requests()
	if len(reqs) != 1 {
		h.t.Fatalf("journaled %d requests, want 1", len(reqs))
	}
	if reqs[0].Op != "transactions/create" || reqs[0].Ref != action {
		h.t.Errorf("journaled %s %s, want transactions/create %s", reqs[0].Op, reqs[0].Ref, action)
	}
	if !bytes.Equal(reqs[0].Data, body) {
		h.t.Errorf("journaled body\n%s\nreviewed body\n%s", reqs[0].Data, body)
	}
	sum := sha256.Sum256(body)
	applied := h.s.Applied()
	if len(applied) != 1 || applied[0].Action != action || applied[0].BodySHA256 != hex.EncodeToString(sum[:]) {
		h.t.Errorf("the sandbox applied %+v, want the reviewed %s body once", applied, action)
	}
}

// errorUnder returns the line under the field labelled label, which holds
// its error when it has one.
func (h *harness) errorUnder(label string) string {
	h.t.Helper()
	lines := strings.Split(ansi.Strip(h.view()), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, "▶ "), label+" ") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	h.t.Fatalf("no field %q on screen:\n%s", label, h.o.View())
	return ""
}

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

// assertListedAsCreated checks the Transactions rows of the result: said
// created, never PENDING (no call reports their execution), with the
// body that was sent in their details.
func (h *harness) assertListedAsCreated(sent []byte) {
	h.t.Helper()
	rows, err := transactions.Read(h.ctx.Journal, h.s.Deployment())
	if err != nil {
		h.t.Fatal(err)
	}
	for _, tx := range h.o.result.Transactions {
		i := slices.IndexFunc(rows, func(r transactions.Row) bool { return r.ID == tx.TransactionID })
		if i < 0 {
			h.t.Fatalf("transaction %s not on the Transactions screen: %+v", tx.TransactionID, rows)
		}
		if rows[i].StatusText() != api.TransactionCreated {
			h.t.Errorf("transaction %s listed as %q", tx.TransactionID, rows[i].StatusText())
		}
		var details []string
		for _, f := range rows[i].Fields(time.Now()) {
			details = append(details, f.Label+": "+f.Value)
		}
		d := strings.Join(details, "\n")
		if !strings.Contains(d, "Status: "+api.TransactionCreatedNote) || !strings.Contains(d, "Body sent: "+strings.Join(views.PrettyBody(sent), "\n")) {
			h.t.Errorf("details of %s:\n%s", tx.TransactionID, d)
		}
	}
}

// yesWhileBusy answers y in review and checks that the screen is busy,
// saying it sends, until the answer arrives.
func (h *harness) yesWhileBusy() {
	h.t.Helper()
	answer := h.o.Update(viewstest.Key("y"))()
	send := h.o.Update(answer)
	if !h.o.Busy() || !h.o.Narrowed() || !strings.Contains(h.view(), "sending "+h.o.action) {
		h.t.Errorf("while sending: busy %t narrowed %t\n%s", h.o.Busy(), h.o.Narrowed(), h.o.View())
	}
	h.run(send)
	if h.o.Busy() {
		h.t.Error("still busy after the answer")
	}
}

// assertNothingSentSince is assertNothingSent on a sandbox shared by
// subtests, where earlier subtests applied writes.
func (h *harness) assertNothingSentSince(applied int) {
	h.t.Helper()
	if reqs := h.requests(); len(reqs) != 0 {
		h.t.Fatalf("journaled %d requests before the yes", len(reqs))
	}
	if n := len(h.s.Applied()); n != applied {
		h.t.Fatalf("the sandbox applied %d writes before the yes", n-applied)
	}
}

// assertSentOnceSince is assertSentOnce on a shared sandbox.
func (h *harness) assertSentOnceSince(applied int, action string, body []byte) {
	h.t.Helper()
	all := h.s.Applied
	h.s.Applied = func() []sandbox.JournalEntry { return all()[applied:] }
	defer func() { h.s.Applied = all }()
	h.assertSentOnce(action, body)
}

func TestOperatorValidationInPlace(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures

	t.Run("bad contract id", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.typeText(fx.AdminWalletIDs[0])
		h.press("shift+tab", "ctrl+u")
		h.typeText("not-a-uuid")
		if got := h.errorUnder("Contract id"); !strings.Contains(got, `✗ "not-a-uuid" is not a UUID`) {
			t.Errorf("under the contract id: %q\n%s", got, h.o.View())
		}
		h.press("tab", "ctrl+s")
		if h.o.state != stageForm || h.o.form.Focused() != 0 || !strings.Contains(h.view(), "Fix the marked field first.") {
			t.Errorf("ctrl+s with a bad contract id: state %d, focus %d\n%s", h.o.state, h.o.form.Focused(), h.o.View())
		}
		h.assertNothingSent()
		// The line goes with the mark once the field is fixed.
		h.press("ctrl+u")
		h.typeText(fx.ContractIDs[0])
		if strings.Contains(h.view(), "Fix the marked field first.") {
			t.Errorf("the fixed form still says to fix a field:\n%s", h.o.View())
		}
	})

	t.Run("same allocation in two rows", func(t *testing.T) {
		h := openForm(t, s, api.ActionFundDistribution)
		h.typeText(fx.AllocationIDs[0])
		h.press("tab")
		h.typeText("1")
		if strings.Contains(h.view(), "funded twice") {
			t.Errorf("a warning with one row:\n%s", h.o.View())
		}
		h.press("ctrl+n")
		h.typeText(fx.AllocationIDs[0])
		if !strings.Contains(h.view(), "! rows 1 and 2 fund the same allocation: it would be funded twice") {
			t.Errorf("no warning of the allocation in two rows:\n%s", h.o.View())
		}
		// The warning takes no line from the form: the focused field
		// stays in sight in a small space.
		h.o.SetSize(80, 8)
		if v := h.view(); !strings.Contains(v, "▶ Allocation 2") || !strings.Contains(v, "funded twice") {
			t.Errorf("at 80x8 the focused row or the warning is gone:\n%s", v)
		}
	})

	t.Run("empty allocation list", func(t *testing.T) {
		h := openForm(t, s, api.ActionStartDistribution)
		if strings.Contains(h.view(), "✗") {
			t.Errorf("errors before anything was typed:\n%s", h.o.View())
		}
		// Leaving the untouched, empty list shows its error.
		h.press("tab")
		if got := h.errorUnder("Allocation ids"); !strings.Contains(got, "✗ must hold at least 1 item") {
			t.Errorf("under the allocation ids after leaving them: %q", got)
		}
		h.press("ctrl+s")
		if h.o.state != stageForm || h.o.form.Focused() != 2 {
			t.Errorf("ctrl+s with no allocations: state %d, focus %d", h.o.state, h.o.form.Focused())
		}
		h.typeText(fx.AllocationIDs[0] + ", abc")
		if got := h.errorUnder("Allocation ids"); !strings.Contains(got, `✗ id 2: "abc" is not a UUID`) {
			t.Errorf("under the allocation ids: %q", got)
		}
		h.press("enter", "enter", "enter")
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
			h.typeText(fx.AllocationIDs[0])
			h.press("tab")
			h.typeText(tt.amount)
			h.press("ctrl+s")
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
		h.typeText(fx.AllocationIDs[0] + " " + fx.AllocationIDs[len(fx.AllocationIDs)-1])
		h.press("ctrl+s", "y")
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
		h.typeText("00000000-0000-4000-8000-000000000000")
		h.press("ctrl+s", "y")
		v := ansi.Strip(h.view())
		if h.o.state != stageForm || !strings.Contains(v, "✗ Not created: transactions/create: no admin wallet 00000000-0000-4000-8000-000000000000 (404)") {
			t.Errorf("a 404 is not one clear line on the form:\n%s", v)
		}
	})
}

func TestOperatorCancelSendsNothing(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures

	t.Run("esc in the form", func(t *testing.T) {
		h := openForm(t, s, api.ActionInitialize)
		h.typeText(fx.AdminWalletIDs[0])
		if !h.o.Capturing() {
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
		if h.o.state != stageReview || h.o.Capturing() || !h.o.Narrowed() {
			t.Fatalf("review: state %d capturing %t narrowed %t", h.o.state, h.o.Capturing(), h.o.Narrowed())
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
			h.press("c")
			v = ansi.Strip(h.view())
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
			// Every request of this sandbox is reset: unknown again, and a
			// fresh check.
			if h.o.state != stageUnknown || h.o.checked != checkNone {
				t.Fatalf("after the resend: state %d, checked %d", h.o.state, h.o.checked)
			}
		})
	}
}

func TestOperatorFundRows(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionFundDistribution)
	h.typeText("one")
	h.press("ctrl+n")
	h.typeText("two")
	h.press("ctrl+n")
	h.typeText("three")
	if len(h.o.rows) != 3 || h.o.rows[2].id.Value() != "three" {
		t.Fatalf("rows after two ctrl+n: %d", len(h.o.rows))
	}
	// Back to row 1 and add a row after it: it becomes row 2.
	h.press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "ctrl+n")
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
	h.press("ctrl+d", "ctrl+d", "ctrl+d")
	if len(h.o.rows) != 1 {
		t.Fatalf("rows after three ctrl+d: %d", len(h.o.rows))
	}
	h.press("ctrl+d")
	if len(h.o.rows) != 1 || !strings.Contains(h.view(), "The last row stays") {
		t.Fatalf("the last row was removed, or no word why:\n%s", h.o.View())
	}
	// ctrl+r without recent lookups says where they come from.
	h.press("ctrl+r")
	if !strings.Contains(h.view(), "No recent lookups") {
		t.Errorf("ctrl+r without lookups:\n%s", h.o.View())
	}
	h.assertNothingSent()
}

func TestOperatorViewFits(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	fx := s.Fixtures
	sizes := [][2]int{{80, 22}, {120, 34}}
	check := func(h *harness, what string) {
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
		h.press("ctrl+s")
		check(h, action+" form with errors")
		if len(h.o.ShortHelp()) == 0 || len(h.o.FullHelp()) == 0 {
			t.Errorf("%s: no help", action)
		}
	}

	// A long body scrolls in review; so do many results.
	h := openForm(t, s, api.ActionStartDistribution)
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("%08x-0000-4000-8000-%012x", i+1, i+1))
	}
	h.typeText(strings.Join(ids, ", "))
	h.press("tab", "tab")
	h.typeText(strings.Repeat("memo ", 30))
	h.press("ctrl+s")
	if h.o.state != stageReview {
		t.Fatalf("no review:\n%s", h.o.View())
	}
	check(h, "long review")
	h.o.SetSize(80, 22)
	first := h.o.View()
	if !strings.Contains(ansi.Strip(first), "lines 1–") {
		t.Errorf("a long body does not say it scrolls:\n%s", first)
	}
	h.press("pgdown", "down")
	if h.o.scroll.Top() == 0 || h.o.View() == first {
		t.Errorf("pgdown did not scroll")
	}
	h.press("pgup", "pgup")
	if h.o.scroll.Top() != 0 {
		t.Errorf("pgup did not scroll back: %d", h.o.scroll.Top())
	}
	h.o.confirm = nil
	h.o.state = stageResult
	h.o.result = &api.TransactionsResult{}
	for range 40 {
		h.o.result.Transactions = append(h.o.result.Transactions, api.Transaction{TransactionID: "\x1b]52;c;aGk=\x07" + fx.AllocationIDs[0], Status: "PENDING"})
	}
	check(h, "many results")
	if strings.Contains(h.o.View(), "\x1b]52") {
		t.Error("a transaction id from the network reached the screen unsanitized")
	}
	h.o.state, h.o.unknownErr, h.o.checked = stageUnknown, &api.OutcomeUnknownError{Op: "transactions/create", Err: io.ErrUnexpectedEOF}, checkCannotTell
	check(h, "unknown outcome")
}

func TestOperatorHelp(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	keys := func(h *harness) string {
		var out []string
		for _, b := range h.o.ShortHelp() {
			out = append(out, b.Help().Key)
		}
		return strings.Join(out, " ")
	}
	for _, tt := range []struct{ action, want string }{
		{api.ActionInitialize, "ctrl+s esc"},
		{api.ActionStartDistribution, "ctrl+s ctrl+r esc"},
		{api.ActionFundDistribution, "ctrl+s ctrl+n ctrl+d ctrl+r esc"},
	} {
		h := openForm(t, s, tt.action)
		if got := keys(h); got != tt.want {
			t.Errorf("%s form help %q, want %q", tt.action, got, tt.want)
		}
		if full := h.o.FullHelp(); len(full) != 2 || full[1][0].Help().Key != "tab/↓" {
			t.Errorf("%s full help lacks the form's keys: %v", tt.action, full)
		}
	}
	h := openForm(t, s, api.ActionInitialize)
	h.typeText(s.Fixtures.AdminWalletIDs[0])
	h.press("ctrl+s")
	if got := keys(h); got != "y n/esc ↑/↓/pgup/pgdn" {
		t.Errorf("review help %q", got)
	}
}
