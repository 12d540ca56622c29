package holder

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestFollowAndUpcoming: with nothing followed, :upcoming offers the
// allocations at hand and f follows one, whose unlocks then show with
// their weekly bars; f on the Allocation screen follows the one on show
// and f again stops, in the file beside the journal.
func TestFollowAndUpcoming(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{Clock: func() time.Time { return viewstest.Now }})
	fx := ctx.Session.Fixtures
	active := fx.AllocationIDs[0]
	if fx.AllocationStates[active] != sandbox.StateActive {
		t.Fatalf("the first demo allocation is %s", fx.AllocationStates[active])
	}

	u := NewUpcoming(ctx)
	d := viewstest.NewDriver(t, u, 120, 36)
	view := func() string { return ansi.Strip(u.View()) }
	if !strings.Contains(view(), "You follow no allocation") || !strings.Contains(view(), "▶ "+active) {
		t.Fatalf("nothing followed:\n%s", view())
	}
	d.Keys("f")
	d.Until("the unlocks of the one followed", func() bool { return strings.Contains(view(), "Per week") })
	if !strings.Contains(view(), active) || !strings.Contains(view(), "1 followed") || !strings.Contains(view(), "█") {
		t.Errorf("followed one:\n%s", view())
	}
	if ids, err := ctx.Journal.Followed(ctx.Session.Deployment()); err != nil || !slices.Equal(ids, []string{active}) {
		t.Errorf("followed on file: %v, %v", ids, err)
	}

	a := NewAllocation(ctx).(*allocation)
	ad := viewstest.NewDriver(t, a, 120, 36)
	ad.Run(a.lookup(active))
	ad.Until("the lookup", func() bool { return a.result != nil })
	if !a.following || !strings.Contains(helpText(a.Keys().ShortHelp()), "f unfollow") {
		t.Fatalf("the allocation followed from :upcoming is not said followed: %q", helpText(a.Keys().ShortHelp()))
	}
	ad.Keys("f")
	ad.Until("the unfollow", func() bool { return !a.following })
	if ids, _ := ctx.Journal.Followed(ctx.Session.Deployment()); len(ids) != 0 {
		t.Errorf("still followed on file: %v", ids)
	}
	ad.Keys("f")
	ad.Until("the follow", func() bool { return a.following })
}

// helpText is the footer's words for keys.
func helpText(keys []key.Binding) string {
	var out []string
	for _, k := range keys {
		out = append(out, k.Help().Key+" "+k.Help().Desc)
	}
	return strings.Join(out, " · ")
}
