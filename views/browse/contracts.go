// Package browse holds the screens that list what the service holds:
// contracts, pools, a pool's stakes (streamed), and the request log. Each
// is a views.List or built on its table; enter opens the detail, and a
// row's action opens the operator or stake form.
package browse

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/operator"
	"allot/views/widget"
)

// contracts is the token's contracts; it takes ShowContract.
type contracts struct {
	*views.List[api.Contract]
	// show is the contract ShowContract asked for, until the cursor is
	// on it: the rows may still be arriving, or the filter ending.
	show string
}

// ShowContract puts the Contracts list's cursor on the contract with ID,
// every contract shown: a filter in force ends, and rows still on their
// way are waited for.
type ShowContract struct{ ID string }

func (c *contracts) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case ShowContract:
		c.show = msg.ID
		if c.Table.Query() != "" || c.Table.EditingFilter() {
			cmd = c.Table.ClearFilter()
		}
	case tea.KeyMsg:
		c.show = "" // the user moves on their own now
		return c.List.Update(msg)
	default:
		cmd = c.List.Update(msg)
	}
	if c.show != "" && c.Table.SelectID(c.show) {
		c.show = ""
		c.SyncDetail()
	}
	return cmd
}

// NewContracts is the contracts of the current token. When the width is
// short, Type (vesting, staking, airdrop: what an operator can do with the
// contract) stays before Address, which is whole in the details (d).
func NewContracts(ctx *views.Context) views.Screen {
	unit := unit(ctx)
	l := views.NewList(ctx, "Contracts", widget.TableConfig[api.Contract]{
		Columns: []widget.Column[api.Contract]{
			{Title: "Name", Cell: func(c api.Contract) string { return c.Name }, Text: true, Flex: 1, MinWidth: 12, Sort: func(a, b api.Contract) int { return strings.Compare(a.Name, b.Name) }},
			{Title: "Type", Cell: func(c api.Contract) string { return c.Type }, MinWidth: 8, Priority: 1, Sort: func(a, b api.Contract) int { return strings.Compare(a.Type, b.Type) }},
			{Title: "Address", Cell: func(c api.Contract) string { return c.Address }, MinWidth: 14, MaxWidth: 42, Flex: 3, Priority: 2},
			{Title: titled("Balance", unit), Cell: func(c api.Contract) string { return widget.FormatTokens(c.Balance.String()) }, Align: widget.AlignRight, Decimal: true, MinWidth: 18, Sort: func(a, b api.Contract) int { return a.Balance.Cmp(b.Balance.Decimal) }},
			{Title: "Created", Cell: func(c api.Contract) string { return api.FormatTime(c.CreatedAt) }, MinWidth: 20, Priority: 3},
		},
		ID:       func(c api.Contract) string { return c.ID },
		CopyText: func(c api.Contract) string { return c.Address },
		Empty:    "This token has no contracts.",
	}, func(c api.Contract) []widget.Field {
		return []widget.Field{
			{Label: "Name", Value: c.Name},
			{Label: "ID", Value: c.ID},
			{Label: "Type", Value: c.Type},
			{Label: "Address", Value: c.Address},
			{Label: "Balance", Value: amountIn(widget.FormatTokens(c.Balance.String()), unit)}, // as the table shows it
			{Label: "Created", Value: widget.FormatTime(c.CreatedAt.Time, ctx.Now())},
		}
	})
	l.Actions = []views.RowAction[api.Contract]{
		{Key: keyInit, Open: func(c api.Contract) views.Screen { return operator.New(ctx, c, api.ActionInitialize) }, Acts: true},
		{Key: keyStart, Open: func(c api.Contract) views.Screen { return operator.New(ctx, c, api.ActionStartDistribution) }, Refuse: distributionRefusal, Acts: true},
		{Key: keyFund, Open: func(c api.Contract) views.Screen { return operator.New(ctx, c, api.ActionFundDistribution) }, Refuse: distributionRefusal, Acts: true},
	}
	// A claim moves tokens out of its vester, a stake into its staking
	// contract: the balances are read again once either is mined.
	l.ReloadAfter = []string{"claim", "stake"}
	token := ctx.Token
	l.Fetch = func(c context.Context) ([]api.Contract, error) {
		list, err := ctx.Session.API.Contracts(c, token)
		if err != nil {
			return nil, err
		}
		return list.Items, nil
	}
	return &contracts{List: l}
}

// distributionRefusal says why a contract takes no distribution: a staking
// pool's contract holds stakes, not allocations.
func distributionRefusal(c api.Contract) string {
	if !strings.EqualFold(c.Type, "STAKING") {
		return ""
	}
	return fmt.Sprintf("%s is a STAKING contract: distributions start and are funded on a vesting or airdrop contract", sanitize.Truncate(c.Name, 40))
}
