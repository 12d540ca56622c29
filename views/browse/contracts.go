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
	"allot/core/rows"
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

// NewContracts is the contracts of the current token, as rows.Contracts
// describes them.
func NewContracts(ctx *views.Context) views.Screen {
	unit := unit(ctx)
	l := views.NewList(ctx, "Contracts", widget.TableConfig[api.Contract]{
		Columns:  views.Columns(rows.Contracts, unit),
		ID:       func(c api.Contract) string { return c.ID },
		CopyText: func(c api.Contract) string { return c.Address },
		Empty:    "This token has no contracts.",
	}, func(c api.Contract) []widget.Field { return views.Details(rows.Contracts, unit, ctx.Now(), c) })
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
