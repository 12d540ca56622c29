package embedded

import (
	"context"
	"testing"

	"allot/api/sandbox"
	"allot/wallet"
)

// TestEmbeddedSandboxPinsItsDeployment: the embedded sandbox's profile
// pins its own tokens, vesters, staking contracts and post-claim handler,
// each with the code hash its chain holds, so that its stakeholder claims
// and stakes as before (seven vesters since the seed gave the second token
// vesters of every D18 state); it has no file to pin anything else in.
func TestEmbeddedSandboxPinsItsDeployment(t *testing.T) {
	s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	pins, err := s.SigningPins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pins.Vesters) != 7 || len(pins.Staking) != 3 || len(pins.Tokens) != 2 || len(pins.Handlers) != 1 || len(pins.CodeHashes) != 13 {
		t.Fatalf("pins %d vesters, %d staking, %d tokens, %d handlers, %d code hashes; want the deployment's 7, 3, 2, 1 and 13",
			len(pins.Vesters), len(pins.Staking), len(pins.Tokens), len(pins.Handlers), len(pins.CodeHashes))
	}
	for addr, want := range pins.CodeHashes {
		if got, err := wallet.CodeHash(ctx, s.Chain, addr); err != nil || got != want {
			t.Errorf("%s: code hash %s (%v), pinned %s", addr.Hex(), got.Hex(), err, want.Hex())
		}
	}
	if s.CanPin() {
		t.Error("the embedded sandbox offers to pin, with no file to pin in")
	}
	if _, err := s.Pin(ctx, wallet.PinVester, pins.Vesters[0], false); err == nil {
		t.Error("Pin wrote on the embedded sandbox")
	}
}
