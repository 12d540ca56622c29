package schedule

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

func TestScheduleErrorsInPlace(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	for _, tc := range []struct {
		name, label, value, want string
	}{
		{"empty name", "Name", "", "must not be empty"},
		{"empty description", "Description", "", "must not be empty"},
		{"portion above 1", "Piece 1 portion", "1.5", "must be a fraction between 0 and 1"},
		{"portion below 0", "Piece 1 portion", "-0.5", "must be a fraction between 0 and 1"},
		{"cliff value above 1", "Cliff value", "2", "must be a fraction between 0 and 1"},
		{"day of month 29", "Piece 1 day of month", "29", "must be a day from 1 to 28"},
		{"bad number", "Unlock at start", "abc", `"abc" is not a number`},
		{"bad day", "Piece 1 day of month", "x", `"x" is not a whole number`},
		{"fractional months", "Cliff (months)", "1.5", `"1.5" is not a whole number of months`},
		{"negative cliff", "Cliff (months)", "-1", "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, New(ctx), 120, 60)
			s := d.S.(*schedule)
			fillValidSchedule(d)
			setField(d, tc.label, "x")
			setField(d, tc.label, tc.value)
			d.Keys("tab") // an error shows once its field is left
			if got := viewstest.ErrUnder(s.View(), tc.label); !strings.Contains(got, tc.want) {
				t.Fatalf("under %q: %q, want %q\n%s", tc.label, got, tc.want, s.View())
			}
			d.Keys("ctrl+s")
			if s.state != stageForm || !strings.Contains(s.message, "to fix before review") {
				t.Fatalf("review with an error: state %d, %q", s.state, s.message)
			}
			if got := s.form.Fields()[s.form.Focused()].Label; got != tc.label {
				t.Errorf("focus on %q, want the field in error %q", got, tc.label)
			}
		})
	}
	t.Run("sum not 1", func(t *testing.T) {
		d := newDriver(t, New(ctx), 120, 60)
		s := d.S.(*schedule)
		fillValidSchedule(d)
		setField(d, "Piece 1 portion", "0.5")
		if v := ansi.Strip(s.View()); !strings.Contains(v, "✗ sum of portions 0.75 of 1 (0.25 missing)") {
			t.Fatalf("view:\n%s", v)
		}
		setField(d, "Piece 1 portion", "0.95")
		if v := ansi.Strip(s.View()); !strings.Contains(v, "✗ sum of portions 1.2 of 1 (0.2 too much)") {
			t.Fatalf("view:\n%s", v)
		}
		d.Keys("ctrl+s")
		if s.state != stageForm || s.sumErr == "" {
			t.Fatalf("reviewed a schedule that does not add up: %q", s.sumErr)
		}
	})
	t.Run("nothing sent", func(t *testing.T) {
		if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
			t.Fatalf("invalid forms sent %v", w)
		}
	})
}

// TestScheduleErrorsWaitForLeave: a new form's empty name and
// description say nothing until left or a review is asked for; a field
// being typed says nothing until it is left, then follows what is typed;
// the service's error under one field stays while another is edited.
func TestScheduleErrorsWaitForLeave(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 120, 60)
	s := d.S.(*schedule)
	if got := viewstest.ErrUnder(s.View(), "Name"); got != "" || s.Drafted() {
		t.Fatalf("a new form: under Name %q, drafted %v", got, s.Drafted())
	}
	d.Type("x")
	d.Keys("backspace")
	if got := viewstest.ErrUnder(s.View(), "Name"); got != "" || !s.Drafted() {
		t.Fatalf("typed then erased, not left: under Name %q, drafted %v", got, s.Drafted())
	}
	d.Keys("tab")
	if got := viewstest.ErrUnder(s.View(), "Name"); !strings.Contains(got, "must not be empty") {
		t.Fatalf("Name left empty: under it %q", got)
	}
	if got := viewstest.ErrUnder(s.View(), "Description"); got != "" {
		t.Fatalf("Description not left yet shows %q", got)
	}
	d.Keys("shift+tab")
	d.Type("T")
	if got := viewstest.ErrUnder(s.View(), "Name"); got != "" {
		t.Fatalf("Name fixed still shows %q", got)
	}
	d.Keys("ctrl+s")
	if got := viewstest.ErrUnder(s.View(), "Description"); !strings.Contains(got, "must not be empty") {
		t.Fatalf("after ctrl+s, under Description %q", got)
	}

	fillValidSchedule(d)
	s.state = stageSending
	d.Run(s.answered(&views.Answer[*api.Schedule]{Err: &api.ValidationError{Remote: true, Fields: []api.FieldError{
		{Path: "cliff.duration", Message: "must be at most 1200"},
		{Path: "pieces", Message: "do not add up here"},
	}}}))
	if s.state != stageForm || !strings.Contains(s.message, "do not add up here") {
		t.Fatalf("the refusal: state %d, message %q", s.state, s.message)
	}
	setField(d, "Description", "core team, again")
	if got := viewstest.ErrUnder(s.View(), "Cliff (months)"); !strings.Contains(got, "1200") {
		t.Fatalf("the service's error went when another field was edited: %q\n%s", got, s.View())
	}
}

// A rule only the service knows (months up to 1200) comes back as a 400:
// the form shows it under the field its path names.
func TestScheduleRemoteErrorInPlace(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	setField(d, "Cliff (months)", "5000")
	d.Keys("ctrl+s", "y")
	d.Until("the refusal", func() bool { return s.state == stageForm && s.message != "" })
	if got := viewstest.ErrUnder(s.View(), "Cliff (months)"); !strings.Contains(got, "1200") {
		t.Fatalf("under the cliff: %q\n%s", got, s.View())
	}
	setField(d, "Cliff (months)", "6")
	if got := viewstest.ErrUnder(s.View(), "Cliff (months)"); got != "" {
		t.Fatalf("the service's error stays after an edit: %q", got)
	}
}

func TestSchedulePiecesAddRemoveAndKind(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	d := newDriver(t, New(ctx), 120, 60)
	s := d.S.(*schedule)
	setField(d, "Piece 1 portion", "0.6")
	d.Keys("ctrl+n")
	if len(s.pieces) != 2 || s.form.Fields()[s.form.Focused()].Label != "Piece 2 name" {
		t.Fatalf("pieces %d, focus %q", len(s.pieces), s.form.Fields()[s.form.Focused()].Label)
	}
	if got := s.pieces[1].portion.Value(); got != "0.4" {
		t.Errorf("new piece portion %q, want what is missing (0.4)", got)
	}
	// The new piece's errors map to its own fields.
	setField(d, "Piece 2 portion", "3")
	d.Keys("tab")
	if got := viewstest.ErrUnder(s.View(), "Piece 2 portion"); !strings.Contains(got, "between 0 and 1") {
		t.Fatalf("under piece 2: %q\n%s", got, s.View())
	}
	if got := viewstest.ErrUnder(s.View(), "Piece 1 portion"); got != "" {
		t.Fatalf("piece 1 shows %q", got)
	}
	// A piece added after piece 1 goes between 1 and 2.
	setField(d, "Piece 1 name", "first")
	d.Keys("ctrl+n")
	if len(s.pieces) != 3 || s.pieces[0].name.Value() != "first" || s.pieces[2].portion.Value() != "3" {
		t.Fatalf("insert in the middle: %d pieces", len(s.pieces))
	}
	if len(s.req.Pieces) != 3 {
		t.Fatalf("request has %d pieces", len(s.req.Pieces))
	}
	d.Keys("ctrl+d")
	if len(s.pieces) != 2 || s.pieces[1].portion.Value() != "3" {
		t.Fatalf("remove: %d pieces", len(s.pieces))
	}
	if !strings.Contains(s.View(), "Piece 2 portion") || strings.Contains(s.View(), "Piece 3") {
		t.Fatalf("labels not renumbered:\n%s", s.View())
	}
	setField(d, "Piece 2 name", "second")
	d.Keys("ctrl+d", "ctrl+d")
	if len(s.pieces) != 1 || !strings.Contains(s.message, "at least one piece") {
		t.Fatalf("removed the last piece: %d, %q", len(s.pieces), s.message)
	}
	// ctrl+d above the pieces removes nothing.
	setField(d, "Name", "n")
	d.Keys("ctrl+d")
	if len(s.pieces) != 1 || !strings.Contains(s.message, "move to a piece") {
		t.Fatalf("%d pieces, %q", len(s.pieces), s.message)
	}

	// The kind swaps the piece's fields.
	setField(d, "Piece 1 kind", "")
	if !strings.Contains(s.View(), "Piece 1 offset (months)") || strings.Contains(s.View(), "Piece 1 length") {
		t.Fatalf("one-off fields:\n%s", s.View())
	}
	d.Keys("right")
	v := s.View()
	if strings.Contains(v, "Piece 1 offset") || !strings.Contains(v, "Piece 1 length (months)") || !strings.Contains(v, "Piece 1 every (months)") {
		t.Fatalf("periodic fields:\n%s", v)
	}
	if p := s.req.Pieces[0]; p.Periodic == nil || p.OneOff != nil {
		t.Fatalf("request piece %+v", p)
	}
	if s.form.Fields()[s.form.Focused()].Label != "Piece 1 kind" {
		t.Fatalf("focus moved to %q", s.form.Fields()[s.form.Focused()].Label)
	}
	d.Keys("left")
	if p := s.req.Pieces[0]; p.OneOff == nil || p.Periodic != nil {
		t.Fatalf("request piece %+v", p)
	}
}

func TestScheduleSteps(t *testing.T) {
	n := func(s string) api.Number { v, _ := api.ParseAmount(s); return v }
	oneOff := func(portion string, delay, offset int) api.SchedulePiece {
		return api.SchedulePiece{Portion: n(portion), StartDelay: api.ValueOf{Value: n(fmt.Sprint(delay))},
			OneOff: &api.OneOffConf{Offset: api.ValueOf{Value: n(fmt.Sprint(offset))}, DayOfMonth: 1}}
	}
	periodic := func(portion string, delay, length, freq int) api.SchedulePiece {
		return api.SchedulePiece{Portion: n(portion), StartDelay: api.ValueOf{Value: n(fmt.Sprint(delay))},
			Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n(fmt.Sprint(length))}, Frequency: api.ValueOf{Value: n(fmt.Sprint(freq))}, DayOfMonth: 1}}
	}
	for _, tc := range []struct {
		name        string
		atStart     string
		cliff       string
		cliffMonths int
		pieces      []api.SchedulePiece
		want        string
	}{
		{"all at start", "1", "0", 0, nil, "0:1"},
		{"nothing", "0", "0", 0, nil, "0:0"},
		{"cliff then one-off", "0.1", "0.2", 6, []api.SchedulePiece{oneOff("0.7", 12, 0)}, "0:0.1 6:0.3 12:1"},
		{"one-off offset after delay", "0", "0", 0, []api.SchedulePiece{oneOff("1", 3, 4)}, "0:0 7:1"},
		{"quarterly over a year", "0", "0", 0, []api.SchedulePiece{periodic("1", 0, 12, 3)}, "0:0 3:0.25 6:0.5 9:0.75 12:1"},
		{"periodic after a delay", "0.5", "0", 0, []api.SchedulePiece{periodic("0.5", 12, 24, 12)}, "0:0.5 24:0.75 36:1"},
		{"length not a multiple of the frequency", "0", "0", 0, []api.SchedulePiece{periodic("0.9", 0, 10, 4)}, "0:0 4:0.3 8:0.6 10:0.9"},
		{"same month adds up", "0", "0.5", 6, []api.SchedulePiece{oneOff("0.5", 6, 0)}, "0:0 6:1"},
		{"cliff of 0 months is at the start", "0.2", "0.3", 0, []api.SchedulePiece{oneOff("0.5", 1, 0)}, "0:0.5 1:1"},
		{"months clamp to 1200", "0", "0", 0, []api.SchedulePiece{oneOff("1", 99999, 5)}, "0:0 1200:1"},
		{"negative months clamp to 0", "0", "0", 0, []api.SchedulePiece{oneOff("1", -5, 0)}, "0:1"},
		{"zero frequency: all at the end", "0", "0", 0, []api.SchedulePiece{periodic("1", 2, 6, 0)}, "0:0 8:1"},
		{"thirds stay exact at the end", "0", "0", 0, []api.SchedulePiece{periodic("1", 0, 3, 1)}, "0:0 1:0.3333333333333333 2:0.6666666666666666 3:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := api.ScheduleRequest{UnlockAtStart: n(tc.atStart),
				Cliff: api.CliffRequest{Value: n(tc.cliff), Duration: n(fmt.Sprint(tc.cliffMonths))}, Pieces: tc.pieces}
			var parts []string
			for _, st := range unlockSteps(req) {
				parts = append(parts, fmt.Sprintf("%d:%s", st.Month, st.Unlocked.String()))
			}
			if got := strings.Join(parts, " "); got != tc.want {
				t.Fatalf("steps %s, want %s", got, tc.want)
			}
		})
	}
}

func TestScheduleAddMonths(t *testing.T) {
	for _, tc := range []struct {
		from string
		n    int
		want string
	}{
		{"2026-01-31", 1, "2026-02-28"},
		{"2026-11-22", 12, "2027-11-22"},
		{"2024-01-31", 1, "2024-02-29"},
		{"2026-05-15", 0, "2026-05-15"},
	} {
		from, _ := time.Parse("2006-01-02", tc.from)
		if got := addMonths(from, tc.n).Format("2006-01-02"); got != tc.want {
			t.Errorf("%s + %d months = %s, want %s", tc.from, tc.n, got, tc.want)
		}
	}
}

func TestScheduleViewFits(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	for _, size := range [][2]int{{80, 22}, {120, 34}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			d := newDriver(t, New(ctx), w, h)
			s := d.S.(*schedule)
			check := func(state string) {
				t.Helper()
				lines := strings.Split(s.View(), "\n")
				if len(lines) > h {
					t.Errorf("%s: %d lines, more than %d", state, len(lines), h)
				}
				for i, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Errorf("%s: line %d is %d cells wide: %q", state, i, ansi.StringWidth(l), ansi.Strip(l))
					}
				}
			}
			check("empty form")
			fillValidSchedule(d)
			d.Keys("ctrl+n", "ctrl+n")
			setField(d, "Name", "")
			check("form with errors")
			if v := ansi.Strip(s.View()); !strings.Contains(v, "Unlocked:") || !strings.Contains(v, "sum of portions") {
				t.Errorf("chart or sum missing:\n%s", v)
			}
			setField(d, "Piece 2 name", "")
			d.Keys("ctrl+d")
			setField(d, "Piece 2 name", "")
			d.Keys("ctrl+d")
			setField(d, "Name", "Fits")
			d.Keys("ctrl+s")
			if s.state != stageReview {
				t.Fatalf("not reviewing: %s", s.message)
			}
			check("review")
			d.Keys("down", "down", "down")
			check("review scrolled")
			d.Keys("y")
			d.Until("created", func() bool { return s.state == stageCreated })
			check("created")
		})
	}
}

func TestScheduleSumLine(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	s := New(ctx).(*schedule)
	for _, tc := range []struct{ atStart, portion, want string }{
		{"0", "1", "✓ sum of portions 1 of 1"},
		{"0.25", "0.5", "✗ sum of portions 0.75 of 1 (0.25 missing)"},
		{"0.5", "0.75", "✗ sum of portions 1.25 of 1 (0.25 too much)"},
	} {
		s.atStart.SetValue(tc.atStart)
		s.pieces[0].portion.SetValue(tc.portion)
		s.revalidate()
		if got := s.sumLine(); got != tc.want {
			t.Errorf("%s + %s: %q, want %q", tc.atStart, tc.portion, got, tc.want)
		}
	}
}

// TestServiceErrorsMarkTheirField: the service's 400 names a repeated
// piece's field by its path (pieces[2].portion, the third piece); that
// field is marked, not the same field of another piece, and an error of a
// path no field shows is said in the message line.
func TestServiceErrorsMarkTheirField(t *testing.T) {
	d := newDriver(t, New(viewstest.Journaled(t, sandbox.Options{})), 120, 60)
	s := d.S.(*schedule)
	fillValidSchedule(d)
	d.Keys("ctrl+n", "ctrl+n")
	if len(s.pieces) != 3 {
		t.Fatalf("%d pieces", len(s.pieces))
	}
	s.state = stageSending
	d.Run(s.answered(&views.Answer[*api.Schedule]{Err: &api.ValidationError{Remote: true, Fields: []api.FieldError{
		{Path: "pieces[2].portion", Message: "too small a step for this token"},
		{Path: "roundingMode", Message: "FLOOR is not offered"},
	}}}))
	view := s.View()
	if s.state != stageForm || !strings.Contains(viewstest.ErrUnder(view, "Piece 3 portion"), "too small a step") {
		t.Fatalf("piece 3's portion is not marked:\n%s", ansi.Strip(view))
	}
	for _, label := range []string{"Piece 1 portion", "Piece 2 portion", "Piece 3 name"} {
		if got := viewstest.ErrUnder(view, label); strings.Contains(got, "too small") {
			t.Errorf("%s marked: %q", label, got)
		}
	}
	if !strings.Contains(ansi.Strip(view), "roundingMode: FLOOR is not offered") {
		t.Errorf("the unmatched error is not on screen:\n%s", ansi.Strip(view))
	}
}
