package cli

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	"allot/core/config"
	"allot/wallet"
	"allot/wallet/merkle"
)

// TestPinNamesEveryVesterOfTheRoot: a hostile service lists first a
// vester that forwards to the genuine one and skims a bigger fee. `allot
// pin vester FAKE` names the genuine vester too, as holding the same
// root; with the genuine one pinned, the fake is flagged ("the genuine
// one may be …, already pinned") and pinned only with its address typed.
func TestPinNamesEveryVesterOfTheRoot(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	ctx := context.Background()
	contracts, err := h.Session.API.Contracts(ctx, h.Session.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	root := merkle.ProcessProof(merkle.Leaf(h.proof.DecodableArgs), h.proof.Siblings)
	check, err := wallet.FindVester(ctx, h.Session.Chain, wallet.VesterCandidates(contracts.Items), h.proof.RootIndex, root)
	if err != nil {
		t.Fatal(err)
	}
	real := check.Vester
	fake := h.DeploySkimVester(t, real, big.NewInt(1e15))
	// Under a name of its own: the root alone flags it, not a namesake.
	h.ListContract("c-skim", "Team Vesting (migrated)", "VESTING", fake)

	h.PinIn(t, config.Pins{})
	s := *h.Session
	r := runCLI(t, &s, nil, "pin", "vester", fake.Hex())
	if r.code != 0 || !strings.Contains(r.stderr, "other listed contract(s) that hold a root it holds") || !strings.Contains(r.stderr, "  "+real.Hex()+" · code 0x") || !strings.Contains(r.stderr, " · deployed at block ") {
		t.Fatalf("pin of the fake without pins: exit %d, want the genuine %s named\n%s%s", r.code, real.Hex(), r.stdout, r.stderr)
	}

	path := h.PinIn(t, config.Pins{Vesters: []string{real.Hex()}})
	s = *h.Session
	r = runCLI(t, &s, nil, "pin", "vester", fake.Hex())
	want := "it holds a root a pinned vester holds: the genuine one may be " + real.Hex() + ", already pinned"
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, real.Hex()+" PINNED") || !strings.Contains(r.stderr, "--confirm-address "+fake.Hex()) {
		t.Fatalf("pin of the fake beside the pinned genuine: exit %d, want a refusal saying %q\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if slices.Contains(pinsInFile(t, path).Vesters, fake.Hex()) {
		t.Fatal("the fake was pinned")
	}
	if r := runCLI(t, &s, nil, "pin", "vester", fake.Hex(), "--confirm-address", fake.Hex()); r.code != 0 || !slices.Contains(pinsInFile(t, path).Vesters, fake.Hex()) {
		t.Errorf("its address typed: exit %d\n%s", r.code, r.stderr)
	}
}
