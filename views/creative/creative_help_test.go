package creative

import (
	"testing"

	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
)

// TestCreativeHelpNamesEveryKeyHandled: the upload screen's help names
// every key it answers and offers no key that does nothing: picking a
// file, on the details form, in the review of the request and when done.
func TestCreativeHelpNamesEveryKeyHandled(t *testing.T) {
	// One sandbox for every press: a screen is made fresh on it each time.
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	for _, name := range []string{"a.png", "b.png", "c.png"} {
		writePNG(t, dir, name)
	}
	pick := func(t *testing.T) views.Screen {
		d := viewstest.NewDriver(t, newCreative(ctx, dir), 100, 30)
		choose(d, "b.png")
		d.Keys("esc") // back to the list, the cursor on b.png
		return d.S
	}
	details := func(t *testing.T) (*viewstest.Driver, *creative) {
		d := viewstest.NewDriver(t, newCreative(ctx, dir), 100, 40)
		c := d.S.(*creative)
		choose(d, "a.png")
		d.Until("the details", func() bool { return c.state == stageDetails })
		return d, c
	}
	for _, hc := range []viewstest.HelpCase{
		{Name: "picking a file", Build: pick},
		{Name: "details", Typing: true, Build: func(t *testing.T) views.Screen { _, c := details(t); return c }},
		{Name: "review", Build: func(t *testing.T) views.Screen {
			d, c := details(t)
			d.Keys("ctrl+s")
			if c.state != stageReview {
				t.Fatalf("not reviewing:\n%s", c.View())
			}
			return c
		}},
		{Name: "done", Build: func(t *testing.T) views.Screen {
			d, c := details(t)
			d.Keys("ctrl+s", "y")
			d.Until("the upload", func() bool { return c.state == stageDone })
			return c
		}},
	} {
		viewstest.CheckHelp(t, hc)
	}
}
