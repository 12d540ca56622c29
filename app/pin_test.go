package app

import (
	"context"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/merkle"
)

// stakeTo opens the stake form of the first pool and submits 150 tokens:
// the review comes next.
func stakeTo(f *flow) *flow {
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in")
	return f.typ("150").key(tea.KeyEnter)
}

// TestHostileStakingContractPinQuestion: the service lists its own
// "Meridian Staking v3" for the pools, whose stakingToken() is the real
// token. The review refuses it, as the profile does not pin it, and asks
// whether to pin it, showing who lists it and its code; the question
// starts on No, and enter leaves the file and the tokens as they were.
func TestHostileStakingContractPinQuestion(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	ctx := context.Background()
	realPins := h.Session.Profile.Pins
	real := common.HexToAddress(realPins.Staking[0])
	token, err := wallet.StakingToken(ctx, h.Session.Chain, real) // what the fake would take
	if err != nil {
		t.Fatal(err)
	}
	fake := h.DeployFakeStaking(t, real)
	h.Rewrite("/contracts", func(r map[string]any) {
		for _, c := range r["items"].([]any) {
			if c := c.(map[string]any); c["type"] == "STAKING" {
				c["address"], c["name"] = fake.Hex(), "Meridian Staking v3"
			}
		}
	})
	h.Rewrite("/parameters/stake", func(r map[string]any) { r["to"] = fake.Hex() })
	path := h.PinIn(t, realPins)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	f := stakeTo(newFlowOn(t, h.Session))
	f.wait("REFUSED by the signing policy; nothing can be signed")
	f.wait("Pin " + fake.Hex() + " as a staking contract?")
	for _, want := range []string{"Meridian Staking v3", "never signed for in this journal", "▶ [ No ]"} {
		f.waitFrom(f.mark, want)
	}
	f.key(tea.KeyEnter).wait("✗ not signed: the signing policy refused it")
	f.quit()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the profile changed without a yes:\n%s", after)
	}
	if stolen, err := wallet.TokenBalance(ctx, h.Session.Chain, token, sessiontest.Attacker); err != nil || stolen.Sign() != 0 {
		t.Errorf("the attacker holds %v tokens (%v)", stolen, err)
	}
	if strings.Contains(f.seen.String(), "Sign and send") {
		t.Error("the dashboard asked to sign a stake in an unpinned contract")
	}
}

// TestPinQuestionPinsAndGoesOn: a profile that pins no staking contract
// refuses a sound stake; yes to the pin question writes the pin and its
// code hash in the profile's file, keeping its comments, and the review
// goes on to the question of signing. A question hidden by a resize is
// not answered by y; at 80x24 it is drawn whole and answered.
func TestPinQuestionPinsAndGoesOn(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	pins := h.Session.Profile.Pins
	staking := pins.Staking
	pins.Staking = nil
	path := h.PinIn(t, pins)

	f := stakeTo(newFlowOn(t, h.Session))
	f.wait("as a staking contract?")
	f.key(tea.KeyRight).wait("▶ [ Yes ]")
	f.send(tea.WindowSizeMsg{Width: MinWidth - 1, Height: MinHeight}).wait("too small")
	f.runes("y")
	// At 80x24 the question is drawn whole, and so can be answered.
	f.send(tea.WindowSizeMsg{Width: 80, Height: 24}).wait("as a staking contract?")
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "staking = [") {
		t.Fatalf("a hidden question pinned:\n%s", data)
	}
	f.waitFrom(f.mark, "▶ [ No ]")
	f.runes("y").wait("Sign and send these")
	f.quit()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.Profiles["hostile"].Pins
	if !strings.HasPrefix(string(data), "# a profile with comments, as a user writes it\n") || len(got.Staking) != 1 ||
		!slices.Contains(staking, got.Staking[0]) || got.CodeHashes[got.Staking[0]] != pins.CodeHashes[got.Staking[0]] {
		t.Errorf("the profile after yes:\n%s", data)
	}
}

// TestHostileSkimVesterInDashboard: the service lists first a vester that
// answers the real root and the real fee plus a skim. In a profile that
// pins no vester, the review refuses it and asks, on No, whether to pin
// it, naming how the service lists it and the genuine vester that holds
// the same root; enter signs nothing.
func TestHostileSkimVesterInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	ctx := context.Background()
	id := h.Session.Fixtures.AllocationIDs[0]
	pins := h.Session.Profile.Pins
	proof, err := h.Session.API.MerkleProof(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := wallet.ProofFromAPI(proof)
	if err != nil {
		t.Fatal(err)
	}
	var vesters []common.Address
	for _, v := range pins.Vesters {
		vesters = append(vesters, common.HexToAddress(v))
	}
	check, err := wallet.FindVester(ctx, h.Session.Chain, vesters, p.RootIndex, merkle.ProcessProof(merkle.Leaf(p.DecodableArgs), p.Siblings))
	if err != nil {
		t.Fatal(err)
	}
	fee, err := wallet.ClaimFee(ctx, h.Session.Chain, check.Vester, id)
	if err != nil {
		t.Fatal(err)
	}
	skim := big.NewInt(1e15)
	fake := h.DeploySkimVester(t, check.Vester, skim)
	h.ListContract("c-skim", "Team & Advisors Vesting", "VESTING", fake)
	h.Rewrite("/claim", func(r map[string]any) {
		claimInstruction(r)["to"] = fake.Hex()
		claimInstruction(r)["value"] = new(big.Int).Add(fee, skim).String()
	})
	pins.Vesters = nil
	h.PinIn(t, pins)

	f := claimStartsOn(t, h, id)
	f.wait("Pin " + fake.Hex() + " as a vester?")
	f.waitFrom(f.mark, "Also:    "+check.Vester.Hex()) // the genuine one, holding the same root
	f.waitFrom(f.mark, "▶ [ No ]")
	f.key(tea.KeyEnter).wait("✗ not signed: the signing policy refused it")
	f.quit()
	checkRefusedOnScreen(t, h, "claim", id, "the vester "+fake.Hex()+" is not pinned in the profile")
}

// TestNamesakeIsNotOfferedAPin: the service lists its own contract as
// "Meridian Staking v2" for the pools while the genuine v2 is pinned: the
// dashboard refuses the stake and does not offer to pin the namesake with
// a y; it names the genuine one and the allot pin that takes its address
// typed. The file is left as it was.
func TestNamesakeIsNotOfferedAPin(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	realPins := h.Session.Profile.Pins
	real := common.HexToAddress(realPins.Staking[0])
	fake := h.DeployFakeStaking(t, real)
	genuine := common.HexToAddress(realPins.Staking[1]) // the sandbox's Meridian Staking v2
	h.Rewrite("/contracts", func(r map[string]any) {
		items := r["items"].([]any)
		for _, c := range items {
			if c := c.(map[string]any); c["type"] == "STAKING" {
				c["address"], c["name"] = fake.Hex(), "Meridian Staking v2"
			}
		}
		r["items"] = append(items, map[string]any{"id": "c-genuine", "name": "Meridian Staking v2", "type": "STAKING", "address": genuine.Hex(), "balance": "0", "createdAt": "2026-01-01T00:00:00.000Z"})
	})
	h.Rewrite("/parameters/stake", func(r map[string]any) { r["to"] = fake.Hex() })
	path := h.PinIn(t, realPins)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	f := stakeTo(newFlowOn(t, h.Session))
	f.wait("REFUSED by the signing policy; nothing can be signed")
	f.wait("FLAGGED").wait(genuine.Hex())
	f.quit()
	if strings.Contains(f.seen.String(), "as a staking contract?") {
		t.Error("the dashboard offered to pin a namesake with a y")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the profile changed:\n%s", after)
	}
}
