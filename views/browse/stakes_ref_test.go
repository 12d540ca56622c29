package browse

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// stakesByRef is NewStakesByRef on pools and src instead of a session.
func stakesByRef(t *testing.T, ref string, pools func(context.Context) ([]api.Pool, error), src stakeSource) (*stakes, *driver) {
	t.Helper()
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	s := NewStakesByRef(ctx, ref).(*stakes)
	s.pools, s.source = pools, src
	s.SetSize(100, 20)
	return s, &driver{s: s}
}

func poolList(pools ...api.Pool) func(context.Context) ([]api.Pool, error) {
	return func(context.Context) ([]api.Pool, error) { return pools, nil }
}

// TestStakesByRefFindsThePool: a name in any case (with its spaces) or an
// id opens that pool's stakes, titled with the pool's own name.
func TestStakesByRefFindsThePool(t *testing.T) {
	other := api.Pool{ID: "6a0f3b1e-0000-4000-8000-000000000002", Name: "Other pool"}
	for _, ref := range []string{testPool.ID, "pool", "POOL"} {
		s, d := stakesByRef(t, ref, poolList(other, testPool), &testSource{rows: decodeRows(t, manyStakes(10)), batch: 10})
		d.run(nil, s.Init())
		if s.pool.ID != testPool.ID || s.Title() != testPool.Name {
			t.Errorf("%q: pool %+v, title %q", ref, s.pool, s.Title())
		}
		if s.Table.Len() != 10 || !strings.HasPrefix(summaryOf(s), "10 stakes") {
			t.Errorf("%q: %d rows, summary %q", ref, s.Table.Len(), summaryOf(s))
		}
	}
}

// TestStakesByRefUnknownPool: a name no pool of the token has is the
// screen's own error state, which says so and offers to look again; the
// stakes are never asked for.
func TestStakesByRefUnknownPool(t *testing.T) {
	src := &testSource{}
	s, d := stakesByRef(t, "Whale pol", poolList(testPool), src)
	cmd := s.Init()
	if !s.Mode().Busy {
		t.Error("not busy while the pool is looked up (the status line says the sandbox still seeds by it)")
	}
	d.run(nil, cmd)
	var none *api.NoPoolError
	if !errors.As(s.LoadErr(), &none) || none.Ref != "Whale pol" {
		t.Fatalf("LoadErr %v, want a NoPoolError for the ref", s.LoadErr())
	}
	view := s.View()
	if !strings.Contains(view, `✗ stakes: no pool "Whale pol" in this token`) || !strings.Contains(view, "r: look again") {
		t.Errorf("the screen does not say the pool is unknown:\n%s", view)
	}
	if len(src.requests) != 0 {
		t.Errorf("stakes asked for with no pool: %+v", src.requests)
	}
	if s.Mode().Busy {
		t.Error("still busy after the lookup failed")
	}
	// With no pool, the list's keys do nothing and help offers r alone.
	d.keys("h", "/")
	if s.histogram || s.Table.EditingFilter() {
		t.Errorf("a key for the stakes acted with no pool: histogram %v, filter %v", s.histogram, s.Table.EditingFilter())
	}
	if help := s.Keys().ShortHelp(); len(help) != 1 || help[0].Help().Key != "r" {
		t.Errorf("help with no pool: %v", help)
	}

	// r looks again: the pool may have been made since.
	s.pools = poolList(api.Pool{ID: testPool.ID, Name: "Whale pol"})
	s.source = &testSource{rows: decodeRows(t, manyStakes(3)), batch: 3}
	d.keys("r")
	if s.LoadErr() != nil || s.Table.Len() != 3 {
		t.Errorf("after r: err %v, %d rows", s.LoadErr(), s.Table.Len())
	}
}

// TestStakesByRefDropsAStaleLookup: a lookup answered after a newer one
// started (r pressed meanwhile) is dropped.
func TestStakesByRefDropsAStaleLookup(t *testing.T) {
	s, d := stakesByRef(t, "pool", poolList(testPool), &testSource{rows: decodeRows(t, manyStakes(2)), batch: 2})
	stale := s.Init()
	fresh := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	msg := stale()
	if cmd := s.Update(msg); cmd != nil || s.pool.ID != "" {
		t.Fatalf("a stale lookup was taken: pool %+v", s.pool)
	}
	d.run(nil, fresh)
	if s.pool.ID != testPool.ID || s.Table.Len() != 2 {
		t.Errorf("the fresh lookup: pool %+v, %d rows", s.pool, s.Table.Len())
	}
}

// TestStakesByRefAmbiguousName: a name two pools share (but for case) is
// not guessed at: the screen lists their ids, as `allot stakes --pool`
// does, and never asks for stakes; an exact name still wins over one equal
// but for case.
func TestStakesByRefAmbiguousName(t *testing.T) {
	a := api.Pool{ID: "6a0f3b1e-0000-4000-8000-00000000000a", Name: "Twin"}
	b := api.Pool{ID: "6a0f3b1e-0000-4000-8000-00000000000b", Name: "TWIN"}
	src := &testSource{}
	s, d := stakesByRef(t, "twin", poolList(a, b), src)
	d.run(nil, s.Init())
	var none *api.NoPoolError
	if !errors.As(s.LoadErr(), &none) || len(none.IDs) != 2 {
		t.Fatalf("LoadErr %v, want a NoPoolError listing both ids", s.LoadErr())
	}
	if view := s.View(); !strings.Contains(view, "more than one pool") || !strings.Contains(view, "00000000000a") {
		t.Errorf("the screen does not say the name is ambiguous:\n%s", view)
	}
	if len(src.requests) != 0 {
		t.Errorf("stakes asked for with no one pool: %+v", src.requests)
	}
	if p, err := api.PoolByRef([]api.Pool{a, b}, "TWIN"); err != nil || p.ID != b.ID {
		t.Errorf("exact name: %+v, %v", p, err)
	}
}

// TestStakesByRefWithoutSession: with no session to ask (ctx.Session nil)
// the screen is its error state, saying so, not a call through a nil
// lookup or an empty table that seems to be loading.
func TestStakesByRefWithoutSession(t *testing.T) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	s := NewStakesByRef(ctx, "Whale pool").(*stakes)
	s.SetSize(100, 20)
	d := &driver{s: s}
	d.run(nil, s.Init())
	if !errors.Is(s.LoadErr(), errNoSession) {
		t.Fatalf("LoadErr %v, want errNoSession", s.LoadErr())
	}
	if s.Mode().Busy {
		t.Error("busy with nothing to wait for")
	}
	if view := s.View(); !strings.Contains(view, "no session") {
		t.Errorf("the screen does not say why it is empty:\n%s", view)
	}
	d.keys("r")
	if !errors.Is(s.LoadErr(), errNoSession) {
		t.Errorf("after r: LoadErr %v", s.LoadErr())
	}
}

// TestStakesWithoutSessionOffersNoRetry: with no session, r can only give
// the same error again, so neither the screen nor its help offers it, and
// it does nothing; the same for a pool given whole and one named by ref.
func TestStakesWithoutSessionOffersNoRetry(t *testing.T) {
	for name, open := range map[string]func(*views.Context) views.Screen{
		"pool": func(ctx *views.Context) views.Screen { return NewStakes(ctx, api.Pool{ID: "p1", Name: "Whale pool"}) },
		"ref":  func(ctx *views.Context) views.Screen { return NewStakesByRef(ctx, "Whale pool") },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
			s := open(ctx).(*stakes)
			s.SetSize(100, 20)
			(&driver{s: s}).run(nil, s.Init())
			view := s.View()
			if !strings.Contains(view, "no session") {
				t.Errorf("the screen does not say why it is empty:\n%s", view)
			}
			if strings.Contains(view, "r: ") || strings.Contains(view, "retry") {
				t.Errorf("the screen offers r, which gives the same error:\n%s", view)
			}
			for _, row := range append([][]key.Binding{s.Keys().ShortHelp()}, s.Keys().FullHelp()...) {
				for _, b := range row {
					if b.Help().Key == "r" {
						t.Errorf("help offers r: %q", b.Help().Desc)
					}
				}
			}
			if cmd := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}); cmd != nil {
				t.Error("r acted with no session to ask")
			}
		})
	}
}
