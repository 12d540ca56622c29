package session

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/config"
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

// TestVesterSharingAPinnedRootIsFlagged: a vester that holds a root a
// pinned vester holds is flagged, naming the pinned one; a staking
// contract beside a pinned one staking the same token is not (its
// namesake is what flags it), nor a vester whose candidates are unpinned.
func TestVesterSharingAPinnedRootIsFlagged(t *testing.T) {
	genuine := common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")
	pinned := []Candidate{{Address: genuine, Pinned: true}}
	want := "FLAGGED: it holds a root a pinned vester holds: the genuine one may be " + genuine.Hex() + ", already pinned"
	if got := (ContractInfo{Kind: wallet.PinVester, Candidates: pinned}).Flag(); got != want {
		t.Errorf("vester: %q, want %q", got, want)
	}
	if got := (ContractInfo{Kind: wallet.PinStaking, Candidates: pinned}).Flag(); got != "" {
		t.Errorf("staking: %q, want no flag", got)
	}
	if got := (ContractInfo{Kind: wallet.PinVester, Candidates: []Candidate{{Address: genuine}}}).Flag(); got != "" {
		t.Errorf("beside an unpinned vester: %q, want no flag", got)
	}
}

// TestExaminedPutsPinnedFirstAndBounds: a contract list padded with fakes
// before the genuine, pinned vester still has it compared (first), and no
// more than maxExamined contracts cost reads of the chain.
func TestExaminedPutsPinnedFirstAndBounds(t *testing.T) {
	genuine := common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")
	var listed []api.Contract
	for i := range 500 {
		listed = append(listed, api.Contract{Address: common.BigToAddress(big.NewInt(int64(0x10000 + i))).Hex(), Type: "VESTING"})
	}
	listed = append(listed, api.Contract{Address: genuine.Hex(), Type: "VESTING"})
	got := examined(listed, config.Pins{Vesters: []string{genuine.Hex()}})
	if len(got) != maxExamined || got[0].Address != genuine.Hex() {
		t.Errorf("examined %d contracts, the first %s; want %d, the pinned %s first", len(got), got[0].Address, maxExamined, genuine.Hex())
	}
}
