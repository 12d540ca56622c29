package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/wallet"
)

// TestClaimSentForAnother: wallet 0 sends the claim of wallet 1's
// allocation (anyone may: docs/deployment.md D19). The review says who pays and who is paid;
// the vester records the withdraw on wallet 1's allocation, wallet 0 pays
// the fee and the gas, wallet 1 pays nothing.
func TestClaimSentForAnother(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	s := sandboxSession(t)
	payer, holder := s.Fixtures.Wallets[0], s.Fixtures.Wallets[1]
	id, vester := claimableOf(t, s, holder.Address, payer.Address)
	before, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	fee, err := wallet.ClaimFee(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	payerBefore, holderBefore := nativeBalance(t, s, payer.Address), nativeBalance(t, s, holder.Address)

	pass := map[string]string{"ALLOT_PASSPHRASE": payer.Passphrase}
	r := runCLI(t, s, pass, "claim", id, "--sign", "--account", payer.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("claim statuses %+v, want one success\n%s", sent, r.stderr)
	}
	want := "ether and gas; "
	if fee.Sign() == 0 {
		want = "you pay: gas; "
	}
	if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "go to "+common.HexToAddress(holder.Address).Hex()+", a wallet, not to you") {
		t.Errorf("the review does not say who pays and who is paid:\n%s", r.stderr)
	}
	after, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Withdrawn.Cmp(before.Withdrawn) <= 0 || after.Recipient(common.HexToAddress(holder.Address)) != common.HexToAddress(holder.Address) {
		t.Errorf("withdrawn %s -> %s to %s: want more withdrawn, paid to the holder", before.Withdrawn, after.Withdrawn, after.WithdrawalAddress.Hex())
	}
	if spent := new(big.Int).Sub(payerBefore, nativeBalance(t, s, payer.Address)); spent.Cmp(fee) <= 0 {
		t.Errorf("the sender spent %s wei, want the fee %s and gas", spent, fee)
	}
	if holderAfter := nativeBalance(t, s, holder.Address); holderAfter.Cmp(holderBefore) != 0 {
		t.Errorf("the holder's ether moved %s -> %s: the sender pays", holderBefore, holderAfter)
	}
}

// claimableOf is an allocation of holder, untouched, with something
// claimable now, and its vester, as the service's claim for sender names
// it.
func claimableOf(t *testing.T, s *session.Session, holder, sender string) (string, common.Address) {
	t.Helper()
	for _, id := range s.Fixtures.AllocationIDs {
		p, err := s.API.MerkleProof(context.Background(), id)
		if err != nil || !strings.EqualFold(p.WalletAddress, holder) {
			continue
		}
		r := runCLI(t, s, nil, "claim", id, "--sender", sender, "-o", "json")
		if r.code != 0 {
			continue
		}
		var out struct {
			Parameters []struct {
				Instructions []struct {
					To string `json:"to"`
				} `json:"instructions"`
			} `json:"parameters"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Parameters) != 1 || len(out.Parameters[0].Instructions) != 1 {
			continue
		}
		return id, common.HexToAddress(out.Parameters[0].Instructions[0].To)
	}
	t.Fatalf("no claimable allocation of %s in the sandbox", holder)
	return "", common.Address{}
}

func nativeBalance(t *testing.T, s *session.Session, addr string) *big.Int {
	t.Helper()
	b, err := s.Chain.BalanceAt(context.Background(), common.HexToAddress(addr), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
