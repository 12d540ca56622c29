package schedule

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/views"
	"allot/views/transactions"
	"allot/viewstest"
)

// newDriver drives the schedule form s.
func newDriver(t *testing.T, s views.Screen, w, h int) *viewstest.Driver {
	if sc, ok := s.(*schedule); ok {
		// A blinking cursor answers each keystroke with a timer that Run
		// waits 5 ms for before leaving it behind.
		sc.form.SetCursorMode(cursor.CursorStatic)
	}
	return viewstest.NewDriver(t, s, w, h)
}

// set focuses the schedule field labelled label and types value over it.
func setField(d *viewstest.Driver, label, value string) {
	d.T.Helper()
	s := d.S.(*schedule)
	for range len(s.form.Fields()) + 1 {
		if s.form.Fields()[s.form.Focused()].Label == label {
			d.Keys("ctrl+e", "ctrl+u")
			d.Type(value)
			return
		}
		d.Keys("tab")
	}
	d.T.Fatalf("no field %q", label)
}

// fillValidSchedule writes a schedule whose parts add up to 1.
func fillValidSchedule(d *viewstest.Driver) {
	setField(d, "Name", "Team 4y")
	setField(d, "Description", "core team")
	setField(d, "Unlock at start", "0.25")
	setField(d, "Piece 1 name", "Quarterly")
	setField(d, "Piece 1 portion", "0.75")
	setField(d, "Piece 1 kind", "")
	d.Keys("right") // periodic
	setField(d, "Piece 1 length (months)", "12")
	setField(d, "Piece 1 every (months)", "3")
}

var keyPattern = regexp.MustCompile(`S-[A-Z0-9]{8}`)

func TestScheduleValidSubmit(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	if v := ansi.Strip(s.View()); !strings.Contains(v, "✓ sum of portions 1 of 1") || !strings.Contains(v, "Unlocked: 100% by month 12 (2027-11-22)") {
		t.Fatalf("form view:\n%s", v)
	}
	d.Keys("ctrl+s")
	if s.state != stageReview {
		t.Fatalf("not reviewing: %q\n%s", s.message, s.View())
	}
	// The body on screen is the body that will be sent.
	view := ansi.Strip(s.View())
	start, end := strings.Index(view, "{"), strings.LastIndex(view, "}")
	var shown bytes.Buffer
	if err := json.Compact(&shown, []byte(view[start:end+1])); err != nil {
		t.Fatalf("review shows no JSON body: %v\n%s", err, view)
	}
	if shown.String() != string(s.body) {
		t.Fatalf("shown %s\nbody  %s", shown.String(), s.body)
	}
	var body map[string]any
	json.Unmarshal(s.body, &body)
	if body["tokenId"] != ctx.Token || body["roundingMode"] != "FLOOR" || body["name"] != "Team 4y" {
		t.Fatalf("body %s", s.body)
	}
	if !strings.Contains(string(s.body), `"periodicPieceConfiguration":{"length":{"value":12},"frequency":{"value":3},"dayOfMonth":1}`) {
		t.Fatalf("body %s", s.body)
	}
	if writes := viewstest.Writes(t, ctx.Journal); len(writes) != 0 {
		t.Fatalf("sent before the confirmation: %v", writes)
	}

	d.Keys("y")
	d.Until("the created schedule", func() bool { return s.state == stageCreated })
	writes := viewstest.Writes(t, ctx.Journal)
	if len(writes) != 1 || writes[0].Op != "schedules/create" || string(writes[0].Data) != string(s.body) || writes[0].Ref != "Team 4y" {
		t.Fatalf("journal requests %+v, want one with %s", writes, s.body)
	}
	key := s.created.Key
	view = s.View()
	if !keyPattern.MatchString(key) || !strings.Contains(view, "Key      "+key) || !strings.Contains(view, s.created.ID) {
		t.Fatalf("created view:\n%s", view)
	}
	d.Until("the created list", func() bool { return len(s.list) == 1 })
	if s.list[0].Key != key || s.list[0].Name != "Team 4y" || !strings.Contains(s.View(), key+"  Team 4y") {
		t.Fatalf("created list %+v\n%s", s.list, s.View())
	}
	d.Keys("c")
	d.Until("the copy", func() bool {
		return len(d.Got) > 0 && d.Got[len(d.Got)-1] == (views.StatusMsg{Text: "copied " + key + " (OSC 52)"})
	})
	if s.Mode().TakesKeys || !s.Mode().OwnsEsc {
		t.Fatal("the result page must leave global keys alone and take esc")
	}
	d.Keys("esc")
	d.Until("the page closing", func() bool { return d.Got[len(d.Got)-1] == (views.BackMsg{}) })
}

func TestScheduleCancelSendsNothing(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 80, 22)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	d.Keys("ctrl+s", "n")
	d.Until("n back to the form", func() bool { return s.state == stageForm })
	d.Keys("ctrl+s", "esc")
	d.Until("esc back to the form", func() bool { return s.state == stageForm })
	d.Keys("esc")
	d.Until("the page closing", func() bool { return len(d.Got) > 0 && d.Got[len(d.Got)-1] == (views.BackMsg{}) })
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
		t.Fatalf("journal %v", w)
	}
	for _, e := range ctx.Session.Applied() {
		if e.Operation == "schedules/create" {
			t.Fatalf("the sandbox created a schedule: %+v", e)
		}
	}
}

// faultSeed makes the sandbox's first reset come before it applied the
// request and the second after.
const faultSeed = 1

func appliedSchedules(ctx *views.Context) int {
	n := 0
	for _, e := range ctx.Session.Applied() {
		if e.Operation == "schedules/create" {
			n++
		}
	}
	return n
}

// With every connection reset, the answer never comes: the screen says the
// outcome is unknown and what the check found. A write not applied is sent
// again only after r and a second yes; a write found applied is not sent
// again: its note says so, and r, not offered, asks nothing and does not
// say it a second time.
func TestScheduleOutcomeUnknown(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Faults: sandbox.Faults{Reset: 1, Seed: faultSeed}})
	d := newDriver(t, New(ctx), 120, 40)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	d.Keys("ctrl+s", "y")
	flat := func() string { return strings.Join(strings.Fields(ansi.Strip(s.View())), " ") }
	for round, applied := range []bool{false, true} {
		// The check starts with the page: its verdict is what is asserted.
		d.Until("no answer, checked", func() bool { return s.state == stageUnknown && !s.outcome.Checking() })
		if got := appliedSchedules(ctx) > 0; got != applied {
			t.Fatalf("seed %d: round %d applied %v, want %v; pick a seed that draws not applied, then applied", faultSeed, round+1, got, applied)
		}
		want := "Checked: the service did not apply it"
		if applied {
			want = "Checked: the service applied it"
		}
		if v := flat(); !strings.Contains(v, "may or may not have been created") || !strings.Contains(v, want) {
			t.Fatalf("round %d (applied %v): view:\n%s", round+1, applied, s.View())
		}
		if w := viewstest.Writes(t, ctx.Journal); len(w) != round+1 {
			t.Fatalf("sent %d times in round %d", len(w), round+1)
		}
		d.Keys("r")
		if applied {
			// The note says it is not sent again; r does not say it twice.
			if s.state != stageUnknown || strings.Count(strings.ToLower(flat()), "not sent again") != 1 {
				t.Fatalf("r on a write found applied: state %d, view:\n%s", s.state, s.View())
			}
			offered := slices.ContainsFunc(s.Keys().ShortHelp(), func(b key.Binding) bool { return b.Help().Key == keyResend.Help().Key })
			if offered || strings.Contains(flat(), "r: send again") {
				t.Fatalf("a write found applied offers r:\n%s", s.View())
			}
			break
		}
		// Sending again takes r and a yes; n keeps it unsent.
		d.Until("the second confirmation", func() bool { return s.state == stageResending })
		if v := flat(); !strings.Contains(v, "Send this request again? The check found the first was not applied.") {
			t.Fatalf("the question:\n%s", s.View())
		}
		d.Keys("n")
		d.Until("no", func() bool { return s.state == stageUnknown })
		if len(viewstest.Writes(t, ctx.Journal)) != round+1 {
			t.Fatalf("sent after no")
		}
		d.Keys("r", "y")
	}
	w := viewstest.Writes(t, ctx.Journal)
	if len(w) != 2 || string(w[1].Data) != string(w[0].Data) {
		t.Fatalf("the resend differs: %s", w[1].Data)
	}
	d.Keys("esc")
	if s.state != stageForm {
		t.Fatalf("esc from the unknown page: state %d", s.state)
	}
}

// TestScheduleLongReviewShowsEveryByte: a body taller and wider than the
// terminal is wrapped, not cut, and scrolling through the review shows
// every byte that will be sent.
func TestScheduleLongReviewShowsEveryByte(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 80, 24)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	setField(d, "Description", strings.Repeat("vesting-for-the-core-team;", 12))
	d.Keys("ctrl+s")
	if s.state != stageReview {
		t.Fatalf("not reviewing: %q\n%s", s.message, s.View())
	}
	first := ansi.Strip(s.View())
	if !strings.Contains(first, "more: ↓/pgdn scrolls") {
		t.Fatalf("a long review does not say there is more:\n%s", first)
	}
	// Read the screen from top to bottom, a line at a time, keeping each
	// body line once by its index.
	shown := map[int]string{}
	for range 200 {
		rows := strings.Split(ansi.Strip(s.View()), "\n")
		window := s.asking.Scroll().View()
		for i := range len(window) {
			if i == len(window)-1 && len(window) < len(s.asking.Lines()) {
				break // the status row
			}
			shown[s.asking.Scroll().Top()+i] = strings.TrimRight(rows[1+i], " ")
		}
		if s.asking.Scroll().Below() == 0 {
			break
		}
		d.Keys("down")
	}
	var joined strings.Builder
	for i := range len(shown) {
		line, ok := shown[i]
		if !ok {
			t.Fatalf("line %d of the body was never on screen", i)
		}
		joined.WriteString(line)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(joined.String())); err != nil {
		t.Fatalf("what was on screen is not the JSON body: %v\n%s", err, joined.String())
	}
	if compact.String() != string(s.body) {
		t.Fatalf("on screen %s\nsent      %s", compact.String(), s.body)
	}
	if writes := viewstest.Writes(t, ctx.Journal); len(writes) != 0 {
		t.Fatalf("scrolling sent something: %v", writes)
	}
}

// TestScheduleGarbledAnswerIsUnknown: the service applied the schedule
// but its answer came cut short (or as a gateway's page): the screen says
// it may have been created and what the sandbox applied, never "not
// created" back on the form, where ctrl+s and y would create it twice.
func TestScheduleGarbledAnswerIsUnknown(t *testing.T) {
	for _, f := range []sandbox.Faults{{Malformed: 1, Seed: 3}, {HTML: 1, Seed: 3}} {
		ctx := viewstest.Journaled(t, sandbox.Options{Faults: f})
		d := newDriver(t, New(ctx), 120, 40)
		s := d.S.(*schedule)
		fillValidSchedule(d)
		d.Keys("ctrl+s", "y")
		// The check starts with the page: its verdict is what is asserted.
		d.Until("an answer, checked", func() bool {
			return s.state != stageSending && s.state != stageReview && !s.outcome.Checking()
		})
		if s.state != stageUnknown {
			t.Fatalf("faults %+v: state %d, want unknown:\n%s", f, s.state, s.View())
		}
		v := strings.Join(strings.Fields(ansi.Strip(s.View())), " ")
		want := "Checked: the service did not apply it"
		if appliedSchedules(ctx) > 0 {
			want = "Checked: the service applied it"
		}
		if !strings.Contains(v, want) {
			t.Errorf("faults %+v: the view does not say %q:\n%s", f, want, v)
		}
	}
}

// TestScheduleCheckSettlesAcrossRestart: the automatic check of a schedule
// whose answer came garbled records what it found in the journal, so
// Transactions lists the write as applied, not UNKNOWN, in this run and
// in a later one of the same deployment (the journal read again once the
// session that checked has closed). The next start of the embedded
// sandbox is another world, where it is not listed at all.
func TestScheduleCheckSettlesAcrossRestart(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Faults: sandbox.Faults{Malformed: 1, Seed: 3}})
	d := newDriver(t, New(ctx), 120, 40)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	d.Keys("ctrl+s", "y")
	d.Until("an answer, checked", func() bool {
		return s.state != stageSending && s.state != stageReview && !s.outcome.Checking()
	})
	ctx.Session.Close()
	rows, err := transactions.Read(ctx.Journal, ctx.Session.Deployment())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Kind != "schedule" || rows[0].Status != act.StatusApplied {
		t.Fatalf("Transactions after a restart: %+v, want the schedule %q", rows, act.StatusApplied)
	}
	later, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if rows, err := transactions.Read(ctx.Journal, later.Deployment()); err != nil || len(rows) != 0 {
		t.Fatalf("the next embedded sandbox, a new world, lists %+v (%v), want nothing", rows, err)
	}
}

// The form's title is a title: its keys are the footer's, not repeated
// in the page (at 120x36 they were said twice).
func TestFormTitleSaysNoKeys(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {60, 20}} {
		d := newDriver(t, New(viewstest.Sandbox(t)), size[0], size[1])
		title, _, _ := strings.Cut(ansi.Strip(d.S.View()), "\n")
		if strings.TrimSpace(title) != "New unlock schedule" && !strings.HasPrefix(title, "New unlock schedule ") {
			t.Errorf("%dx%d: title line %q", size[0], size[1], title)
		}
		for _, k := range []string{"ctrl+s", "ctrl+n", "ctrl+d", "esc"} {
			if strings.Contains(title, k) {
				t.Errorf("%dx%d: title line names %s: %q", size[0], size[1], k, title)
			}
		}
	}
}
