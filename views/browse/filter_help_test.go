package browse

import (
	"testing"
	"unicode/utf8"

	"allot/api"
	"allot/views"
	"allot/viewstest"
)

// TestFooterWhileAFilterIsTyped: while a filter is typed every printable
// key goes into it, so the footer offers none (it offered "I initialize •
// D start • F fund • r refresh", each typed into the filter when pressed).
func TestFooterWhileAFilterIsTyped(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	for name, s := range map[string]views.Screen{
		"contracts": NewContracts(ctx),
		"pools":     NewPools(ctx),
		"requests":  NewRequests(ctx),
		"stakes":    NewStakes(ctx, api.Pool{ID: ctx.Session.Fixtures.PoolIDs[0]}),
	} {
		t.Run(name, func(t *testing.T) {
			d := viewstest.NewDriver(t, s, 80, 24)
			d.Until("loaded", func() bool { return !s.Mode().Busy })
			d.Keys("/")
			if !s.Mode().TakesKeys {
				t.Fatal("/ opened no filter")
			}
			for _, b := range s.Keys().ShortHelp() {
				for _, k := range b.Keys() {
					if utf8.RuneCountInString(k) == 1 {
						t.Errorf("the footer offers %q (%s), which the filter takes as text", k, b.Help().Desc)
					}
				}
			}
			for _, group := range s.Keys().FullHelp() {
				for _, b := range group {
					for _, k := range b.Keys() {
						if utf8.RuneCountInString(k) == 1 {
							t.Errorf("the help offers %q (%s), which the filter takes as text", k, b.Help().Desc)
						}
					}
				}
			}
		})
	}
}

// TestNoMatchOffersNoRowKeys: a filter that matches nothing leaves no row
// to open, sort or copy: the footer offers the filter's keys only.
func TestNoMatchOffersNoRowKeys(t *testing.T) {
	s := NewContracts(viewstest.Sandbox(t))
	d := viewstest.NewDriver(t, s, 80, 24)
	d.Until("loaded", func() bool { return !s.Mode().Busy })
	d.Keys("/")
	d.Type("no such contract")
	d.Keys("enter")
	d.Until("the filter applied", func() bool {
		return !s.Mode().TakesKeys && !s.Mode().Busy && !s.(*contracts).Table.Filtering()
	})
	for _, b := range s.Keys().ShortHelp() {
		switch b.Help().Key {
		case "enter", "s", "y", "I", "D", "F":
			t.Errorf("with no match the footer offers %q (%s)", b.Help().Key, b.Help().Desc)
		}
	}
}
