package sandbox

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// Portal seed: the claim portal of the first token.
const (
	portalSlug = "meridian-community"
	portalName = "Meridian Community Claim"
	// accountWallet is the only submission account type the interface shows.
	accountWallet = "WALLET"
	// portalAirdropSubmissions is how many airdrop beneficiaries besides the
	// demo wallets submitted to the portal and passed proof of humanity.
	portalAirdropSubmissions = 12
)

func (w *World) seedPortal() {
	p := &Portal{
		ID:          seedID("portal", portalSlug),
		Slug:        portalSlug,
		Name:        portalName,
		Submissions: map[common.Address]*Submission{},
	}
	account := func(addr common.Address, eligible bool, description string) SubmissionAccount {
		a := SubmissionAccount{Value: addr.Hex(), Type: accountWallet, IsEligible: eligible}
		if description != "" {
			a.Description = &description
		}
		return a
	}
	w0, w1, w3 := w.Wallets[0].Address, w.Wallets[1].Address, w.Wallets[3].Address
	// Wallet 0 passed and linked a second wallet, which is not eligible;
	// wallet 1 passed and named itself as claim wallet; wallet 2 never
	// submitted; wallet 3 submitted but has not passed proof of humanity.
	p.Submissions[w0] = &Submission{Submitted: true, PoHPassed: true, Accounts: []SubmissionAccount{
		account(w0, true, "Primary wallet"),
		account(syntheticAddress("portal/linked/0"), false, "Exchange deposit address: exchanges cannot claim"),
	}}
	p.Submissions[w1] = &Submission{ClaimWallet: &w1, Submitted: true, PoHPassed: true, Accounts: []SubmissionAccount{
		account(w1, true, ""),
	}}
	p.Submissions[w3] = &Submission{Submitted: true, Accounts: []SubmissionAccount{
		account(w3, false, "Proof of humanity pending"),
	}}
	var airdrop *Distribution
	for _, d := range w.Distributions {
		if c, _ := w.Contract(d.ContractID); c.Type == ContractAirdrop {
			airdrop = d
			break
		}
	}
	added := 0
	for _, a := range airdrop.Roots[0].Allocations {
		if added == portalAirdropSubmissions {
			break
		}
		addr := a.Beneficiary()
		if _, ok := p.Submissions[addr]; ok {
			continue
		}
		p.Submissions[addr] = &Submission{Submitted: true, PoHPassed: true, Accounts: []SubmissionAccount{account(addr, true, "")}}
		added++
	}
	w.Portal = p
}

// index orders contracts and pools by their token's place in Tokens,
// keeping the order within a token, and indexes them.
func (w *World) index() {
	rank := map[string]int{}
	for i, t := range w.Tokens {
		rank[t.ID] = i
	}
	slices.SortStableFunc(w.Contracts, func(a, b *Contract) int { return rank[a.TokenID] - rank[b.TokenID] })
	slices.SortStableFunc(w.Pools, func(a, b *Pool) int { return rank[a.TokenID] - rank[b.TokenID] })
	w.contractsByToken = map[string][]*Contract{}
	for _, c := range w.Contracts {
		w.contractsByToken[c.TokenID] = append(w.contractsByToken[c.TokenID], c)
	}
	w.poolsByToken = map[string][]*Pool{}
	for _, p := range w.Pools {
		w.poolsByToken[p.TokenID] = append(w.poolsByToken[p.TokenID], p)
	}
}
