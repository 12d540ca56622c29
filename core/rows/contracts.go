package rows

import (
	"strings"
	"time"

	"allot/api"
)

// Contracts describes a token's contracts. On the dashboard, when the
// width is short, Type (vesting, staking, airdrop: what an operator can do
// with the contract) stays before Address, which is whole in the details.
var Contracts = Columns[api.Contract]{
	{Title: "ID", Field: "id", Out: Dashboard, Value: String(func(c *api.Contract) string { return c.ID })},
	{Title: "Name", Field: "name", Width: Width{Free: true, Flex: 1, Min: 12},
		Value:   String(func(c *api.Contract) string { return c.Name }),
		Compare: func(a, b *api.Contract) int { return strings.Compare(a.Name, b.Name) }},
	{Title: "Type", Field: "type", Width: Width{Min: 8, Priority: 1},
		Value:   String(func(c *api.Contract) string { return c.Type }),
		Compare: func(a, b *api.Contract) int { return strings.Compare(a.Type, b.Type) }},
	{Title: "Address", Field: "address", Width: Width{Min: 14, Max: 42, Flex: 3, Priority: 2},
		Value: String(func(c *api.Contract) string { return c.Address })},
	{Title: "Balance", Field: "balance", Kind: Tokens, Width: Width{Min: 18},
		Value:   Decimal(func(c *api.Contract) api.Decimal { return c.Balance }),
		Compare: func(a, b *api.Contract) int { return a.Balance.Cmp(b.Balance.Decimal) }},
	{Title: "Created", Field: "createdAt", Kind: Minute, Width: Width{Min: 20, Priority: 3},
		Value: Time(func(c *api.Contract) time.Time { return c.CreatedAt.Time })},
}
