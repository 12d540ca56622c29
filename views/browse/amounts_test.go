package browse

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

var paneField = regexp.MustCompile(`^(\S.*?)\s{2,}(\S.*)$`)

// pane reads the detail pane beside the table: its labels and values.
func pane(view string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		i := strings.LastIndex(l, "│")
		if i < 0 {
			continue
		}
		if m := paneField.FindStringSubmatch(strings.TrimRight(l[i+len("│"):], " ")); m != nil {
			out[m[1]] = m[2]
		}
	}
	return out
}

// TestPoolAmountsOneWay: a pool's total staked reads the same in the
// table and in its details (127,721.30 in one, 127,721.3 in the other).
func TestPoolAmountsOneWay(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	all, err := ctx.Session.API.AllPools(context.Background(), ctx.Token)
	if err != nil {
		t.Fatal(err)
	}
	s := NewPools(ctx)
	d := viewstest.NewDriver(t, s, 200, 40)
	d.Until("loaded", func() bool { return !s.Mode().Busy })
	checked := 0
	for range all.Items {
		fields := pane(s.View())
		for _, p := range all.Items {
			if fields["Name"] != p.Name {
				continue
			}
			want := widget.FormatAmountMin(p.TotalStaked.String(), 2) + " MRD"
			if got := fields["Total staked"]; got != want {
				t.Errorf("%s: the details read %q, the table %q", p.Name, got, want)
			}
			checked++
		}
		d.Keys("down")
	}
	if checked == 0 {
		t.Fatalf("no pool's details were read:\n%s", s.View())
	}
}

// TestAmountsNameTheToken: the contracts' balances and the pools' totals
// name the token the header names, in the column title and in the
// details, at 80 columns as at 200: "Balance (MRD)", "91,978,016.67 MRD".
func TestAmountsNameTheToken(t *testing.T) {
	for _, w := range []int{80, 200} {
		for _, c := range []struct {
			screen       func(*views.Context) views.Screen
			title, field string
		}{
			{NewContracts, "Balance (MRD)", "Balance"},
			{NewPools, "Total staked (MRD)", "Total staked"},
		} {
			s := c.screen(viewstest.Sandbox(t))
			d := viewstest.NewDriver(t, s, w, 24)
			d.Until("loaded", func() bool { return !s.Mode().Busy })
			v := ansi.Strip(s.View())
			if !strings.Contains(v, " "+c.title) {
				t.Errorf("%d columns: no %q column:\n%s", w, c.title, v)
			}
			if got := pane(v)[c.field]; w >= 200 && !strings.HasSuffix(got, " MRD") {
				t.Errorf("%d columns: the details' %s reads %q, without MRD:\n%s", w, c.field, got, v)
			}
		}
	}
}

// TestStakeAmountsNameTheToken: a pool's stakes name the token the header
// names, in the Amount column's title, the details and the pool's totals.
func TestStakeAmountsNameTheToken(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	all, err := ctx.Session.API.AllPools(context.Background(), ctx.Token)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStakes(ctx, all.Items[0])
	d := viewstest.NewDriver(t, s, 200, 40)
	d.Until("loaded", func() bool { return !s.Mode().Busy })
	v := ansi.Strip(s.View())
	for _, want := range []string{" Amount (MRD)", "staked 127,721.30 MRD"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q:\n%s", want, v)
		}
	}
	if got := pane(v)["Amount"]; !strings.HasSuffix(got, " MRD") {
		t.Errorf("the details' amount reads %q, without MRD:\n%s", got, v)
	}
	d.Keys("h") // the histogram's sizes are in MRD too
	if v := ansi.Strip(s.View()); !strings.Contains(v, "Stake sizes (MRD) in ") {
		t.Errorf("the histogram does not name MRD:\n%s", v)
	}
}
