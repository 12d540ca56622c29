package cli

import (
	"testing"
)

// TestClaimReadsTheContractsOnce: a signed claim needs the tokens'
// contract lists three times (the outlook's units, the policy's vesters
// and units, the review's known contracts) and asks the service for each
// once.
func TestClaimReadsTheContractsOnce(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	payer := s.Fixtures.Wallets[0]
	id, _ := claimableOf(t, s, payer.Address, payer.Address)
	sent := len(s.Requests.All())
	pass := map[string]string{"ALLOT_PASSPHRASE": payer.Passphrase}
	r := runCLI(t, s, pass, "claim", id, "--sign", "--account", payer.Address)
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	lists := 0
	for _, x := range s.Requests.All()[sent:] {
		if x.Op == "contracts" {
			lists++
		}
	}
	if lists != len(s.TokenIDs) {
		t.Errorf("the claim read the contract lists %d times, want once for each of the %d tokens\n%s", lists, len(s.TokenIDs), r.stderr)
	}
}
