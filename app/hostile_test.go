package app

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api/sandbox/chain"
	"allot/assets"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session/sessiontest"
)

var attacker = common.HexToAddress("0x00000000000000000000000000000000a77ac4e5")

func claimInstruction(result map[string]any) map[string]any {
	groups := result["parameters"].([]any)
	return groups[0].(map[string]any)["instructions"].([]any)[0].(map[string]any)
}

func packToken(t *testing.T, method string, args ...any) string {
	t.Helper()
	parsed, err := assets.ABI(assets.TokenContract)
	if err != nil {
		t.Fatal(err)
	}
	data, err := parsed.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return hexutil.Encode(data)
}

// claimStartsOn opens a dashboard on h's session with a state of its
// own, unlocks, and asks a claim of allocation id up to the policy's
// answer.
func claimStartsOn(t *testing.T, h *sessiontest.Hostile, id string) *flow {
	t.Helper()
	f := newFlowOn(t, h.Session)
	f.unlock()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("REFUSED by the signing policy; nothing can be signed")
	return f
}

// claimRefusedInDashboard asks a claim of allocation id on h's session,
// in a state directory of its own, and checks the policy refused it for
// reason, never asking to sign.
func claimRefusedInDashboard(t *testing.T, h *sessiontest.Hostile, id, reason string) {
	t.Helper()
	h.Session.StateDir = t.TempDir()
	f := claimStartsOn(t, h, id)
	f.wait("✗ not signed: the signing policy refused it, for the reasons above")
	if strings.Contains(f.seen.String(), "Sign and send this transaction?") {
		t.Error("the dashboard asked to sign a refused claim")
	}
	f.quit()
	checkRefusedOnScreen(t, h, "claim", id, reason)
}

// checkRefusedOnScreen checks a refusal the dashboard showed: the screen
// says so, the journal records it and no signature, and the account sent
// nothing.
func checkRefusedOnScreen(t *testing.T, h *sessiontest.Hostile, op, subject, reason string) {
	t.Helper()
	all := journaltest.Entries(t, h.Session.StateDir)
	for _, e := range all {
		if e.Kind == journal.KindTransaction || e.Kind == journal.KindSignature && e.Op != "signin" {
			t.Errorf("journal: %s %s %s: nothing should have been signed", e.Kind, e.Op, e.Ref)
		}
	}
	refusals := journaltest.Of(all, journal.KindRefusal, op)
	if len(refusals) != 1 || refusals[0].Ref != subject || !strings.Contains(string(refusals[0].Data), reason) {
		t.Errorf("journal refusals %+v: want one of %s %s with %q", refusals, op, subject, reason)
	}
	addr := common.HexToAddress(h.Session.Fixtures.Wallets[0].Address)
	if n, err := h.Session.Chain.PendingNonceAt(context.Background(), addr); err != nil || n != 0 {
		t.Errorf("the account's nonce is %d (%v): a transaction reached the chain", n, err)
	}
}

// TestHostileClaimRefusedInDashboard: the claim review refuses what a
// hostile service hands out, shows why, and offers nothing to sign.
func TestHostileClaimRefusedInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	ctx := context.Background()
	var other common.Address
	err := h.Sandbox.Chain.Transact(ctx, func(b *chain.Batch) {
		token := b.DeployToken("Other", "OTH")
		other = b.DeployVester(token, big.NewInt(1))
		b.AddRoot(other, common.Hash{0x0e})
	})
	if err != nil {
		t.Fatal(err)
	}
	id := h.Session.Fixtures.AllocationIDs[0]
	maxUint256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, tc := range []struct {
		name    string
		rewrite map[string]func(map[string]any)
		reason  string
	}{
		{"an unlimited approve", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			claimInstruction(r)["data"] = packToken(t, "approve", attacker, maxUint256)
		}}, "UNLIMITED approve"},
		{"a withdraw with 50 ether", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			claimInstruction(r)["value"] = "50000000000000000000"
		}}, "more than max_native_fee"},
		{"a withdraw to a non-vester", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			claimInstruction(r)["to"] = attacker.Hex()
		}}, "not to the vester"},
		{"a vester that does not hold the root", map[string]func(map[string]any){
			"/contracts": func(r map[string]any) {
				for _, c := range r["items"].([]any) {
					if c := c.(map[string]any); c["type"] == "VESTING" || c["type"] == "AIRDROP" {
						c["address"] = other.Hex()
					}
				}
			},
			"/claim": func(r map[string]any) { claimInstruction(r)["to"] = other.Hex() },
		}, "not to the vester"},
		{"another chain", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			claimInstruction(r)["chainId"] = json.Number("1")
		}}, "is for chain 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, suffix := range []string{"/claim", "/contracts"} {
				h.Rewrite(suffix, tc.rewrite[suffix])
			}
			claimRefusedInDashboard(t, h, id, tc.reason)
		})
	}
}

// TestHostileStakeRefusedInDashboard: the stake review refuses stake
// parameters that would stake in another contract or pay 50 ether.
func TestHostileStakeRefusedInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	for _, tc := range []struct {
		name    string
		rewrite func(map[string]any)
		reason  string
	}{
		{"a stake in another contract", func(r map[string]any) { r["to"] = attacker.Hex() }, "stakes in " + attacker.Hex()},
		{"a platform fee of 50 ether", func(r map[string]any) { r["platformFee"] = json.Number("50") }, "more than max_native_fee"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.Rewrite("/parameters/stake", tc.rewrite)
			h.Session.StateDir = t.TempDir()
			f := newFlowOn(t, h.Session)
			f.unlock()
			f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
			f.runes("2").wait("Season").runes("S").wait("Stake in")
			f.typ("150").key(tea.KeyEnter).wait("REFUSED by the signing policy; nothing can be signed")
			f.quit()
			var pool string
			for _, e := range journaltest.Of(journaltest.Entries(t, h.Session.StateDir), journal.KindRefusal, "stake") {
				pool = e.Ref
			}
			checkRefusedOnScreen(t, h, "stake", pool, tc.reason)
		})
	}
}

// TestRefusalFitsTheSmallestTerminal: at 60x20 a refused claim shows that
// it was refused, the first reason, and the line below the review.
func TestRefusalFitsTheSmallestTerminal(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	h.Rewrite("/claim", func(r map[string]any) { claimInstruction(r)["value"] = "50000000000000000000" })
	f := newFlowOn(t, h.Session)
	f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	f.unlock()
	f.runes("3").runes("/").typ(h.Session.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request").runes("y")
	f.wait("✗ not signed: the signing policy refused it")
	view := ansi.Strip(f.quit().View())
	lines := strings.Split(view, "\n")
	if len(lines) > MinHeight || !strings.Contains(view, "REFUSED by the signing policy") || !strings.Contains(view, "more than max_native_fee") ||
		!strings.Contains(view, "✗ not signed: the signing policy refused it") {
		t.Fatalf("%d lines at %dx%d; the refusal, its first reason or the last line missing:\n%s", len(lines), MinWidth, MinHeight, view)
	}
}
