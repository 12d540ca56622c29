package operator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	if !h.o.Mode().Busy || !h.o.Mode().OwnsEsc || !strings.Contains(h.view(), "sending "+h.o.action) {
		h.t.Errorf("while sending: busy %t narrowed %t\n%s", h.o.Mode().Busy, h.o.Mode().OwnsEsc, h.o.View())
	}
	h.run(send)
	if h.o.Mode().Busy {
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
