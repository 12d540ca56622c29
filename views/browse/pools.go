package browse

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/core/rows"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/holder"
	"allot/views/widget"
)

// NewPools is every staking pool of the current token, all pages.
func NewPools(ctx *views.Context) views.Screen {
	var most decimal.Decimal // the largest total staked, for the bars
	unit := unit(ctx)
	// The bars are the dashboard's alone, beside the totals they draw.
	columns := views.Columns(rows.Pools, unit)
	at := slices.IndexFunc(columns, func(c widget.Column[api.Pool]) bool { return strings.HasPrefix(c.Title, "Total staked") })
	columns = slices.Insert(columns, at+1, widget.Column[api.Pool]{Title: "Share", Cell: func(p api.Pool) string { return widget.Bar(p.TotalStaked.Decimal, most, 12) }, MinWidth: 12, MaxWidth: 12, Priority: 4})
	l := views.NewList(ctx, "Pools", widget.TableConfig[api.Pool]{
		Columns:  columns,
		ID:       func(p api.Pool) string { return p.ID },
		CopyText: func(p api.Pool) string { return p.ID },
		OnOpen:   func(p api.Pool) tea.Cmd { return views.Navigate(NewStakes(ctx, p)) },
		Empty:    "This token has no staking pools.",
	}, func(p api.Pool) []widget.Field { return views.Details(rows.Pools, unit, ctx.Now(), p) })
	l.Actions = []views.RowAction[api.Pool]{{Key: keyStake, Open: func(p api.Pool) views.Screen { return holder.NewStake(ctx, p) }, Refuse: stakeRefusal, Acts: true}}
	l.ReloadAfter = []string{"stake"} // a stake mined changes its pool's total
	token := ctx.Token
	l.Fetch = func(c context.Context) ([]api.Pool, error) {
		all, err := ctx.Session.API.AllPools(c, token)
		if err != nil {
			return nil, err
		}
		return all.Items, nil
	}
	// summary runs on the UI goroutine before the rows are drawn, so the
	// bars' scale is set there.
	l.Summary = func(pools []api.Pool) []string {
		active := 0
		most = decimal.Zero
		for _, p := range pools {
			if p.TotalStaked.GreaterThan(most) {
				most = p.TotalStaked.Decimal
			}
			if p.Status == "ACTIVE" {
				active++
			}
		}
		return []string{fmt.Sprintf("%s pools, %s active", widget.FormatCount(len(pools)), widget.FormatCount(active)), "enter: stakes of the pool"}
	}
	return l
}

// stakeRefusal says why a pool takes no stake from here: only an ACTIVE
// pool does (a PAUSED or FINISHED one would refuse it after the sign-in
// and the signature).
func stakeRefusal(p api.Pool) string {
	if p.Status == "ACTIVE" {
		return ""
	}
	return fmt.Sprintf("pool %s is %s: only an ACTIVE pool takes stakes", sanitize.Truncate(p.Name, 40), sanitize.Truncate(p.Status, 20))
}
