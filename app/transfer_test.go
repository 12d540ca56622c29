package app

import (
	"context"
	"maps"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/vesting"
)

// transferableOf is a demo allocation of holder's whose leaf lets its
// holder transfer it (the sandbox's airdrop), and its vester.
func transferableOf(t *testing.T, s *session.Session, holder string) (string, common.Address) {
	t.Helper()
	ctx := context.Background()
	for _, id := range s.Fixtures.AllocationIDs {
		res, err := s.API.MerkleProof(ctx, id)
		if err != nil || !strings.EqualFold(res.WalletAddress, holder) {
			continue
		}
		proof, err := wallet.ProofFromAPI(res)
		if err != nil {
			continue
		}
		if args, err := vesting.Decode(proof.DecodableArgs); err == nil && args.Allocation.TransferableByBeneficiary {
			return id, wallet.VerifyProof(ctx, proof, s.VerifyOptions(ctx)).Vester
		}
	}
	t.Fatalf("no allocation of %s is transferableByBeneficiary in the sandbox", holder)
	return "", common.Address{}
}

// TestTransferFlow: wallet 0 transfers its airdrop allocation to wallet
// 1 from the allocation screen. The address field refuses what is no
// address, a wrong checksum, zero, the holder itself and the vester,
// keeping what was typed; the review says what changes before the one
// yes; the transaction is followed until mined, and the allocation, read
// again, says its tokens go to wallet 1, as the vester does.
func TestTransferFlow(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	fx := f.s.Fixtures
	me, them := fx.Wallets[0].Address, fx.Wallets[1].Address
	id, vester := transferableOf(t, f.s, me)
	f.unlock()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("t").wait("Transfer allocation " + id).wait("Its tokens go to " + me + " now: you, the unlocked key")
	// Its checksummed spelling with one letter's case turned.
	i := strings.IndexAny(them[2:], "abcdefABCDEF") + 2
	mixed := them[:i] + strings.Map(func(r rune) rune { return r ^ 0x20 }, them[i:i+1]) + them[i+1:]
	for _, tc := range []struct{ typed, says string }{
		{"0x12", `"0x12" is not an address`},
		{common.Address{}.Hex(), "the zero address"},
		{me, "the allocation's tokens go there already"},
		{vester.Hex(), "the vester itself"},
		{mixed, "wrong EIP-55 checksum"},
	} {
		f.key(tea.KeyCtrlU).typ(tc.typed).wait(tc.says)
		// Enter sends nothing while the address is refused; what was
		// typed stays, to be corrected a digit at a time.
		f.key(tea.KeyEnter).key(tea.KeyBackspace).wait(`"` + tc.typed[:len(tc.typed)-1] + `" is not an address`)
	}
	f.key(tea.KeyCtrlU).typ(them).wait("! every later claim of this allocation pays " + them + ", not").wait("this cannot be undone by you")
	f.key(tea.KeyEnter).wait("Sign and send this transaction?").wait("and you cannot undo it.")
	start := f.mark
	f.readToEnd().waitFrom(start, "no warnings")
	screen := f.seen.String()[start:]
	for _, want := range []string{"transferBeneficiaryAddress", "Checked by the signing policy", "will go to " + them} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review does not show %q", want)
		}
	}
	f.runes("y").wait("success, mined in block").wait("Every later claim of this allocation pays " + them)
	// The allocation, read again, names the new address where its
	// tokens go (its note, "transferred", is beyond the pane at 120).
	f.key(tea.KeyEsc).wait("Tokens go to   " + them)
	f.quit()

	s, err := wallet.ReadStanding(context.Background(), f.s.Chain, vester, id)
	if err != nil || s.WithdrawalAddress != common.HexToAddress(them) {
		t.Fatalf("the vester's withdrawal address: %v (%v), want %s", s, err, them)
	}
	if sigs := journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindSignature, "transfer"); len(sigs) != 1 {
		t.Errorf("%d transfers signed, want 1", len(sigs))
	}
}

// TestTransferDisabled: t says why it cannot transfer, and opens nothing:
// a leaf that does not let its holder transfer, no key unlocked, a key
// that is not where the allocation's tokens go.
func TestTransferDisabled(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	fx := s.Fixtures
	mine, _ := transferableOf(t, s, fx.Wallets[0].Address)
	theirs, _ := transferableOf(t, s, fx.Wallets[3].Address)
	f := newFlowOn(t, s)
	// The verdict's status line first: drawn after t, in the same frame,
	// it would hide t's answer.
	f.runes("3").runes("/").typ(mine).key(tea.KeyEnter).wait("allocation " + mine + ": PASS")
	f.runes("t").wait("no key is unlocked: unlock " + fx.Wallets[0].Address)
	f.unlock()
	// Each lookup waits on its own verdict: the allocation shown before
	// is drawn again on the way.
	f.runes("3").runes("n").typ(fx.AllocationIDs[0]).key(tea.KeyEnter).wait("allocation " + fx.AllocationIDs[0] + ": PASS")
	f.runes("t").wait("the allocation's leaf is not transferableByBeneficiary")
	f.runes("n").typ(theirs).key(tea.KeyEnter).wait("allocation " + theirs + ": PASS")
	f.runes("t").wait("the allocation's tokens go to " + fx.Wallets[3].Address + ", not to " + fx.Wallets[0].Address[:10])
	if strings.Contains(f.seen.String(), "Transfer allocation") {
		t.Error("a transfer screen opened where none may")
	}
	f.quit()
}

// TestTransferOfASafe: t on an allocation a Safe the profile lists
// holds, where that address is no Safe on the chain, says so and opens
// nothing: no proposal is made for what is no Safe.
func TestTransferOfASafe(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	holder := s.Fixtures.Wallets[3].Address
	id, _ := transferableOf(t, s, holder)
	// Wallet 3 stands for a Safe the profile lists.
	s.Profile.Safes = []string{holder}
	f := newFlowOn(t, s)
	f.unlock()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("t").wait("it pays " + holder + ": no Safe allot works with (allot safe show SAFE)")
	if strings.Contains(f.seen.String(), "Transfer allocation") {
		t.Error("a transfer screen opened for a Safe's allocation")
	}
	f.quit()
}

// TestHostileTransferRefused: a service that rewrites the allocation's
// proof once the allocation was verified gets nothing signed: a leaf
// rewritten folds to no root a vester holds, and the proof of another
// transferable allocation (another holder's, on the same vester) is not
// the allocation's; the transfer is never built of either (and the
// signing policy, which reads the proof again, would refuse both).
func TestHostileTransferRefused(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	fx := h.Session.Fixtures
	me, them := fx.Wallets[0].Address, fx.Wallets[1].Address
	id, _ := transferableOf(t, h.Session, me)
	other, _ := transferableOf(t, h.Session, fx.Wallets[3].Address)
	// The service's own answer for the other allocation, as served.
	var served map[string]any
	h.Rewrite("/merkle-proof", func(r map[string]any) { served = maps.Clone(r) })
	if _, err := h.Session.API.MerkleProof(context.Background(), other); err != nil || served == nil {
		t.Fatalf("the other allocation's proof: %v", err)
	}
	for _, tc := range []struct {
		name    string
		rewrite func(map[string]any)
		says    string
	}{
		{"a leaf rewritten", func(r map[string]any) {
			// The same leaf but for its last digit, and no leaf hash
			// to give it away.
			args := r["decodableArgs"].(string)
			last := "1"
			if strings.HasSuffix(args, "1") {
				last = "2"
			}
			r["decodableArgs"] = args[:len(args)-1] + last
			delete(r, "leaf")
		}, "no vester of this token holds this root"},
		{"another allocation's proof", func(r map[string]any) {
			clear(r)
			maps.Copy(r, served)
		}, "the service's proof is of allocation \"" + other + "\", not of " + id[:8]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.Rewrite("/merkle-proof", nil)
			h.Session.StateDir = t.TempDir()
			f := newFlowOn(t, h.Session)
			f.unlock()
			f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
			f.runes("t").wait("Transfer allocation " + id)
			h.Rewrite("/merkle-proof", tc.rewrite)
			f.typ(them).wait("! every later claim").key(tea.KeyEnter).wait(tc.says).wait("✗ ")
			if strings.Contains(f.seen.String(), "Sign and send this transaction?") {
				t.Error("the dashboard asked to sign a transfer built from a rewritten proof")
			}
			f.quit()
			for _, e := range journaltest.Entries(t, h.Session.StateDir) {
				if e.Kind == journal.KindTransaction || e.Kind == journal.KindSignature && e.Op != "signin" {
					t.Errorf("journal: %s %s %s: nothing should have been signed", e.Kind, e.Op, e.Ref)
				}
			}
		})
	}
}
