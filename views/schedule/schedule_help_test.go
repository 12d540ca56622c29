package schedule

import (
	"testing"

	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

// TestScheduleHelpNamesEveryKeyHandled: the schedule screen's help names
// every key it answers and offers no key that does nothing: on a text
// field, on a choice, in the review of the body and on the created page.
func TestScheduleHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	form := func(t *testing.T) *viewstest.Driver { return newDriver(t, New(ctx), 120, 60) }
	for _, c := range []viewstest.HelpCase{
		{Name: "form on a text field", Typing: true, Build: func(t *testing.T) views.Screen { return form(t).S }},
		{Name: "form on a choice", Build: func(t *testing.T) views.Screen {
			d := form(t)
			setField(d, "Piece 1 kind", "")
			return d.S
		}},
		{Name: "review", Build: func(t *testing.T) views.Screen {
			d := form(t)
			fillValidSchedule(d)
			d.Keys("ctrl+s")
			return d.S
		}},
		{Name: "review, the body scrolled", Build: func(t *testing.T) views.Screen {
			d := newDriver(t, New(ctx), 80, 22)
			fillValidSchedule(d)
			d.Keys("ctrl+s", "down")
			return d.S
		}},
		{Name: "created", Build: func(t *testing.T) views.Screen {
			d := form(t)
			fillValidSchedule(d)
			d.Keys("ctrl+s", "y")
			s := d.S.(*schedule)
			d.Until("the created schedule", func() bool { return s.state == stageCreated && len(s.list) > 0 })
			return s
		}},
	} {
		viewstest.CheckHelp(t, c)
	}
	// Every answer lost: the page of a write whose outcome is unknown,
	// once its check has answered.
	unknown := func(h int) func(t *testing.T) views.Screen {
		// A sandbox per case: its faults follow a seeded sequence, which a
		// case sharing one would meet where the other's builds left it.
		lossy := viewstest.Journaled(t, sandbox.Options{Faults: sandbox.Faults{Reset: 1, Seed: faultSeed}})
		return func(t *testing.T) views.Screen {
			d := newDriver(t, New(lossy), 120, h)
			s := d.S.(*schedule)
			fillValidSchedule(d)
			d.Keys("ctrl+s", "y")
			d.Until("no answer, checked", func() bool { return s.state == stageUnknown && !s.outcome.Checking() })
			return s
		}
	}
	viewstest.CheckHelp(t, viewstest.HelpCase{Name: "unknown", Build: unknown(60)})
	viewstest.CheckHelp(t, viewstest.HelpCase{Name: "unknown, the body scrolled", Build: unknown(24)})
}
