package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// TestProposeRefusesBeforeBuilding: a Safe's act is proposed only by one
// of its owners, a claim only with the Safe as its sender, and only calls
// the Safe itself makes on the profile's chain; each is refused before
// the service or the chain is asked anything.
func TestProposeRefusesBeforeBuilding(t *testing.T) {
	ctx, rec := context.Background(), &act.Recorder{}
	s := &Session{}
	s.Profile.ChainID = 31337
	treasury, owner, stranger := common.Address{0x5a}, common.Address{0x01}, common.Address{0x02}
	info := safe.Info{Address: treasury, Threshold: 1, Owners: []common.Address{owner}}

	a := SafeAct{Safe: info, Act: proposal.Act{Op: proposal.OpClaim, Subject: "x"}}
	if _, err := s.ProposeSafeAct(ctx, rec, a, stranger); err == nil || !strings.Contains(err.Error(), "is not an owner of the Safe") {
		t.Errorf("a stranger's proposal: %v", err)
	}
	req := api.ClaimRequest{Sender: stranger.Hex()}
	if _, err := s.ProposeClaim(ctx, rec, info, owner, "x", req, nil, common.Address{}); err == nil || !strings.Contains(err.Error(), "is not the Safe") {
		t.Errorf("a claim sent by another: %v", err)
	}
	for _, c := range []wallet.Call{
		{From: stranger, ChainID: 31337, To: common.Address{0xc0}},
		{From: treasury, ChainID: 1, To: common.Address{0xc0}},
	} {
		if _, err := InnerOf([]wallet.Call{c}, treasury, 31337); !errors.Is(err, wallet.ErrRefused) {
			t.Errorf("a call from %s on chain %d: %v", c.From.Hex(), c.ChainID, err)
		}
	}
	inner, err := InnerOf([]wallet.Call{{From: treasury, To: common.Address{0xc0}, Data: []byte{1}}}, treasury, 31337)
	if err != nil || len(inner) != 1 || inner[0].To != (common.Address{0xc0}) || inner[0].Data[0] != 1 {
		t.Errorf("the Safe's own call: %+v, %v", inner, err)
	}
}
