package rows

import (
	"bytes"
	"cmp"
	"strings"

	"allot/api"
)

// Stakes describes a pool's stakes, compact rows (api.StakeRow) a million
// of which are written without a string each. The dashboard leaves the id
// to the details (the wallet is what a row is read by).
var Stakes = Columns[api.StakeRow]{
	{Title: "ID", Field: "id", Out: Dashboard, Value: (*api.StakeRow).AppendID},
	{Title: "Wallet", Field: "walletAddress", Width: Width{Min: 42, Max: 42, Flex: 3},
		Value:   (*api.StakeRow).AppendWallet,
		Compare: func(a, b *api.StakeRow) int { return bytes.Compare(a.Wallet[:], b.Wallet[:]) },
		SortKey: (*api.StakeRow).WalletKey},
	{Title: "Amount", Field: "amount", Kind: Tokens, Width: Width{Min: 16},
		Value:   (*api.StakeRow).AppendAmount,
		Compare: api.CompareAmounts, SortKey: (*api.StakeRow).AmountKey},
	{Title: "Status", Field: "status", Width: Width{Min: 9, Priority: 2},
		Value:   func(r *api.StakeRow, dst []byte) []byte { return append(dst, r.StatusText()...) },
		Compare: func(a, b *api.StakeRow) int { return strings.Compare(a.StatusText(), b.StatusText()) }},
	{Title: "Created", Field: "createdAt", Kind: Minute, Width: Width{Min: 20, Priority: 3},
		Value: (*api.StakeRow).AppendCreatedAt, Compare: compareCreated, SortKey: (*api.StakeRow).CreatedKey},
}

// compareCreated orders stakes by creation time, those without one first.
func compareCreated(a, b *api.StakeRow) int {
	if a.HasTime() != b.HasTime() {
		if a.HasTime() {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.CreatedAt, b.CreatedAt)
}
