package rows

import (
	"strings"
	"time"

	"allot/api"
)

// Pools describes a token's staking pools. The commands' table stops at
// the period's finish; the rest is the details' and the CSV's. The
// interface leaves the unit of the lengths and delays open; decisions and
// the sandbox use seconds.
var Pools = Columns[api.Pool]{
	{Title: "ID", Field: "id", Out: Dashboard, Value: String(func(p *api.Pool) string { return p.ID })},
	{Title: "Name", Field: "name", Width: Width{Free: true, Flex: 2, Min: 14},
		Value:   String(func(p *api.Pool) string { return p.Name }),
		Compare: func(a, b *api.Pool) int { return strings.Compare(a.Name, b.Name) }},
	{Title: "Status", Field: "status", Width: Width{Min: 8, Priority: 2},
		Value:   String(func(p *api.Pool) string { return p.Status }),
		Compare: func(a, b *api.Pool) int { return strings.Compare(a.Status, b.Status) }},
	{Title: "Total staked", Field: "totalStaked", Kind: Tokens, Width: Width{Min: 18},
		Value:   Decimal(func(p *api.Pool) api.Decimal { return p.TotalStaked }),
		Compare: func(a, b *api.Pool) int { return a.TotalStaked.Cmp(b.TotalStaked.Decimal) }},
	{Title: "Max APY", Field: "maxApy", Kind: Percent, Width: Width{Min: 8, Priority: 3},
		Value:   Decimal(func(p *api.Pool) api.Decimal { return p.MaxAPY }),
		Compare: func(a, b *api.Pool) int { return a.MaxAPY.Cmp(b.MaxAPY.Decimal) }},
	{Title: "Min stake", Field: "minimumStakeAmount", Kind: Tokens, Out: Dashboard,
		Value: Decimal(func(p *api.Pool) api.Decimal { return p.MinimumStakeAmount })},
	{Title: "Period finish", Field: "periodFinish", Kind: Minute, Width: Width{Min: 20, Priority: 5},
		Value: Time(func(p *api.Pool) time.Time { return p.PeriodFinish.Time })},
	{Title: "Rewards deposited", Field: "totalRewardsDeposited", Kind: Tokens, Out: Dashboard | Table,
		Value: Decimal(func(p *api.Pool) api.Decimal { return p.TotalRewardsDeposited })},
	{Title: "Min stake length", Field: "minimumStakeLength", Kind: Seconds, Out: Dashboard | Table,
		Value: Int(func(p *api.Pool) int64 { return p.MinimumStakeLength })},
	{Title: "Stake withdrawal delay", Field: "stakeWithdrawalDelay", Kind: Seconds, Out: Dashboard | Table,
		Value: Int(func(p *api.Pool) int64 { return p.StakeWithdrawalDelay })},
	{Title: "Reward withdrawal delay", Field: "rewardWithdrawalDelay", Kind: Seconds, Out: Dashboard | Table,
		Value: Int(func(p *api.Pool) int64 { return p.RewardWithdrawalDelay })},
	{Title: "Claim fee", Field: "claimNativeTokenFee", Kind: Ether, Out: Dashboard | Table,
		Value: Decimal(func(p *api.Pool) api.Decimal { return p.ClaimNativeTokenFee })},
	{Title: "Unstake fee", Field: "unstakeNativeTokenFee", Kind: Ether, Out: Dashboard | Table,
		Value: Decimal(func(p *api.Pool) api.Decimal { return p.UnstakeNativeTokenFee })},
	// The token is the one listed: named under the commands' table.
	{Title: "Token", Field: "tokenId", Out: Dashboard | Table | Details,
		Value: String(func(p *api.Pool) string { return p.TokenID })},
	{Title: "Contract", Field: "contractId", Out: Dashboard | Table,
		Value: String(func(p *api.Pool) string { return p.ContractID })},
}
