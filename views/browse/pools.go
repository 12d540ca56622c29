package browse

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/internal/amount"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/holder"
	"allot/views/widget"
)

// NewPools is every staking pool of the current token, all pages.
func NewPools(ctx *views.Context) views.Screen {
	var most decimal.Decimal // the largest total staked, for the bars
	unit := unit(ctx)
	l := views.NewList(ctx, "Pools", widget.TableConfig[api.Pool]{
		Columns: []widget.Column[api.Pool]{
			{Title: "Name", Cell: func(p api.Pool) string { return p.Name }, Text: true, Flex: 2, MinWidth: 14, Sort: func(a, b api.Pool) int { return strings.Compare(a.Name, b.Name) }},
			{Title: "Status", Cell: func(p api.Pool) string { return p.Status }, MinWidth: 8, Priority: 2, Sort: func(a, b api.Pool) int { return strings.Compare(a.Status, b.Status) }},
			{Title: titled("Total staked", unit), Cell: func(p api.Pool) string { return widget.FormatTokens(p.TotalStaked.String()) }, Align: widget.AlignRight, Decimal: true, MinWidth: 18, Sort: func(a, b api.Pool) int { return a.TotalStaked.Cmp(b.TotalStaked.Decimal) }},
			{Title: "Share", Cell: func(p api.Pool) string { return widget.Bar(p.TotalStaked.Decimal, most, 12) }, MinWidth: 12, MaxWidth: 12, Priority: 4},
			{Title: "Max APY", Cell: func(p api.Pool) string { return amount.Percent(p.MaxAPY.String()) }, Align: widget.AlignRight, Decimal: true, MinWidth: 8, Priority: 3, Sort: func(a, b api.Pool) int { return a.MaxAPY.Cmp(b.MaxAPY.Decimal) }},
			{Title: "Period finish", Cell: func(p api.Pool) string { return api.FormatTime(p.PeriodFinish) }, MinWidth: 20, Priority: 5},
		},
		ID:       func(p api.Pool) string { return p.ID },
		CopyText: func(p api.Pool) string { return p.ID },
		OnOpen:   func(p api.Pool) tea.Cmd { return views.Navigate(NewStakes(ctx, p)) },
		Empty:    "This token has no staking pools.",
	}, func(p api.Pool) []widget.Field {
		return []widget.Field{
			{Label: "Name", Value: p.Name},
			{Label: "ID", Value: p.ID},
			{Label: "Status", Value: p.Status},
			{Label: "Total staked", Value: amountIn(widget.FormatTokens(p.TotalStaked.String()), unit)}, // as the table shows it
			{Label: "Rewards deposited", Value: amountIn(widget.FormatTokens(p.TotalRewardsDeposited.String()), unit)},
			{Label: "Max APY", Value: amount.Percent(p.MaxAPY.String())},
			{Label: "Period finish", Value: widget.FormatTime(p.PeriodFinish.Time, ctx.Now())},
			{Label: "Minimum stake", Value: amountIn(widget.FormatTokens(p.MinimumStakeAmount.String()), unit)},
			// The interface leaves the unit open; decisions and the sandbox use seconds.
			{Label: "Minimum stake length", Value: widget.FormatDuration(p.MinimumStakeLength)},
			{Label: "Stake withdrawal delay", Value: widget.FormatDuration(p.StakeWithdrawalDelay)},
			{Label: "Reward withdrawal delay", Value: widget.FormatDuration(p.RewardWithdrawalDelay)},
			{Label: "Claim fee", Value: widget.FormatAmount(p.ClaimNativeTokenFee.String()) + " ether"},
			{Label: "Unstake fee", Value: widget.FormatAmount(p.UnstakeNativeTokenFee.String()) + " ether"},
			{Label: "Contract", Value: p.ContractID},
		}
	})
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
