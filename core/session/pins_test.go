package session

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/config"
	"allot/wallet"
)

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
