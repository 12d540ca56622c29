package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/session/sessiontest"
	"allot/wallet"
)

// TestClaimBuiltWhenTheServiceRefusesTheSender: a service that will not
// build a claim for a sender other than the holder (400 on sender) does
// not stop it (docs/deployment.md D19): allot builds the same withdraw from the allocation's
// proof and the chain's fee, says so, and the signing policy checks it as
// any claim; the tokens reach the holder. A profile with
// service_claims_only refuses instead.
func TestClaimBuiltWhenTheServiceRefusesTheSender(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	h := sessiontest.NewHostile(t, t.TempDir())
	s := h.Session
	payer, holder := s.Fixtures.Wallets[0], s.Fixtures.Wallets[1]
	id, vester := claimableOf(t, s, holder.Address, payer.Address)
	h.Refuse("/claim", 400, `{"statusCode":400,"isProcessed":false,"error":{"type":"ValidationError","message":"invalid request","details":[{"path":"sender","message":"must be the allocation's beneficiary"}]}}`)
	before, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	pass := map[string]string{"ALLOT_PASSPHRASE": payer.Passphrase}
	args := []string{"claim", id, "--sign", "--account", payer.Address, "--send", "--yes", "--wait", "-o", "json"}

	s.Profile.ServiceClaimsOnly = true
	if r := runCLI(t, s, pass, args...); r.code == 0 || !strings.Contains(r.stderr, "allot did not build it either: the profile signs only the claims the service builds") {
		t.Fatalf("service_claims_only: exit %d\n%s", r.code, r.stderr)
	}
	s.Profile.ServiceClaimsOnly = false
	r := runCLI(t, s, pass, args...)
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("claim statuses %+v, want one success\n%s", sent, r.stderr)
	}
	for _, want := range []string{"the service would not build this claim for " + common.HexToAddress(payer.Address).Hex(),
		"allot built the same withdraw", "go to " + common.HexToAddress(holder.Address).Hex() + ", a wallet, not to you"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	after, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Withdrawn.Cmp(before.Withdrawn) <= 0 {
		t.Errorf("withdrawn %s before, %s after: the claim paid nothing", before.Withdrawn, after.Withdrawn)
	}
}
