package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/session/sessiontest"
	"allot/wallet"
)

// TestUpgradedProxyIsRefused: the service lists an EIP-1967 proxy as the
// pool's staking contract; the user checks and pins it (`allot pin`
// records its implementation), then its owner upgrades it to an
// implementation that sends the stake to the attacker. The proxy's code
// did not change, but the stake is refused, naming the old and the new
// implementation and the pin that accepts it; nothing is sent.
func TestUpgradedProxyIsRefused(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	ctx := context.Background()
	pool, real := activePool(t, h.Session)
	implA := h.DeployFakeStaking(t, real)
	proxy := h.DeployProxy(t, implA)
	h.Rewrite("/contracts", func(r map[string]any) {
		for _, c := range r["items"].([]any) {
			if c := c.(map[string]any); c["id"] == pool.ContractID {
				c["address"] = proxy.Hex()
			}
		}
	})
	h.Rewrite("/parameters/stake", func(r map[string]any) { r["to"] = proxy.Hex() })
	h.PinIn(t, config.Pins{})
	s := *h.Session
	s.StateDir = t.TempDir()
	r := runCLI(t, &s, nil, "pin", "staking", proxy.Hex())
	if r.code != 0 || !strings.Contains(r.stderr, "a proxy (EIP-1967) to implementation "+implA.Hex()) {
		t.Fatalf("pin the proxy: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	implB := h.DeployFakeStaking(t, real)
	h.Upgrade(t, proxy, implB)
	s.Profile.Pins = pinsInFile(t, s.ConfigPath)
	before := h.nonce(t)
	r = runCLI(t, &s, map[string]string{"ALLOT_PASSPHRASE": h.passphrase},
		"stake", "--pool", pool.ID, "--amount", pool.MinimumStakeAmount.String(), "--account", h.wallet, "--send", "--yes", "--wait")
	want := "the logic behind the pool's staking contract " + proxy.Hex() + " changed since it was pinned: its implementation was " + implA.Hex()
	checkRefused(t, r, s.StateDir, "stake", pool.ID, want, before, h.nonce(t))
	if !strings.Contains(r.stderr, "is now "+implB.Hex()) || !strings.Contains(r.stderr, "allot pin staking "+proxy.Hex()) {
		t.Errorf("the refusal does not name the new implementation and the pin:\n%s", r.stderr)
	}
	token, _ := wallet.StakingToken(ctx, h.Session.Chain, real)
	if stolen, err := wallet.TokenBalance(ctx, h.Session.Chain, token, sessiontest.Attacker); err != nil || stolen.Sign() != 0 {
		t.Errorf("the attacker holds %v tokens (%v)", stolen, err)
	}
}

// pinsInFile reads the hostile profile's pins back from its file.
func pinsInFile(t *testing.T, path string) config.Pins {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Profile("hostile")
	if err != nil {
		t.Fatal(err)
	}
	return p.Pins
}

// TestPinOfANamesakeNeedsItsAddressTyped: the service lists a fake staking
// contract as "Meridian Staking v2" while the genuine v2 is pinned: `allot
// pin staking FAKE` flags it, names the genuine one, and pins nothing
// until its address is typed with --confirm-address.
func TestPinOfANamesakeNeedsItsAddressTyped(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	_, real := activePool(t, h.Session)
	fake := h.DeployFakeStaking(t, real)
	var genuine string
	list, err := h.Session.API.Contracts(context.Background(), h.Session.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Items {
		if c.Name == "Meridian Staking v2" {
			genuine = c.Address
		}
	}
	h.ListContract("c-fake", "Meridian Staking v2", "STAKING", fake)
	path := h.PinIn(t, h.Session.Profile.Pins)
	s := *h.Session
	r := runCLI(t, &s, nil, "pin", "staking", fake.Hex())
	want := `the genuine "Meridian Staking v2" may be ` + common.HexToAddress(genuine).Hex() + ", already pinned"
	if r.code != 1 || !strings.Contains(r.stderr, "FLAGGED") || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "--confirm-address "+fake.Hex()) {
		t.Fatalf("pin of the namesake: exit %d, want a refusal saying %q\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if p := pinsInFile(t, path); slices.Contains(p.Staking, fake.Hex()) {
		t.Fatal("the namesake was pinned")
	}
	if r := runCLI(t, &s, nil, "pin", "staking", fake.Hex(), "--confirm-address", real.Hex()); r.code != 1 {
		t.Errorf("another address typed: exit %d\n%s", r.code, r.stderr)
	}
	if r := runCLI(t, &s, nil, "pin", "staking", fake.Hex(), "--confirm-address", fake.Hex()); r.code != 0 || !slices.Contains(pinsInFile(t, path).Staking, fake.Hex()) {
		t.Errorf("its address typed: exit %d\n%s", r.code, r.stderr)
	}
}
