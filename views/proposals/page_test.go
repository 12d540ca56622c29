package proposals

import (
	"math/big"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/core/session"
	"allot/views"
	"allot/viewstest"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// proposalOf is a 2-of-2 proposal of a claim by a Safe whose owners are
// demo wallet 0 and a key of the test's, signed by signers (0: wallet 0,
// which the test cannot sign for, is never among them; 1: the test's key),
// standing as state says against a Safe at nonce 7.
func proposalOf(t *testing.T, ctx *views.Context, state proposal.State, signers int) session.SafeProposal {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	other := crypto.PubkeyToAddress(key.PublicKey)
	wallet0 := common.HexToAddress(ctx.Session.Fixtures.Wallets[0].Address)
	info := safe.Info{Address: common.HexToAddress("0x2Af577581960ed98CEEb6831ef3e85303FC68b4c"), Version: "1.4.1",
		Owners: []common.Address{wallet0, other}, Threshold: 2, Nonce: big.NewInt(7)}
	calls := []safe.InnerCall{{To: common.HexToAddress("0xf8DC04225a44627247D033e3b36799369cda6F23"), Data: []byte{1, 2, 3, 4}}}
	p, err := proposal.New(ctx.Session.Profile.ChainID, info, proposal.Act{Op: proposal.OpClaim, Subject: "alloc-1"}, calls, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	if signers > 0 {
		sig, err := crypto.Sign(p.Hashes.SafeTx[:], key)
		if err != nil {
			t.Fatal(err)
		}
		sig[64] += 27
		if err := p.AddSignature(other, sig); err != nil {
			t.Fatal(err)
		}
	}
	sp := session.SafeProposal{File: "p.json", Path: "/state/safe-proposals/p.json", Proposal: p, Safe: info}
	sp.State, sp.Detail = state, "why "+string(state)
	return sp
}

// TestProposalPageSaysWhyNot: s and x are offered only when they work;
// otherwise the page and the help say why: no key unlocked, not an owner,
// already signed, threshold not met, stale nonce, executed.
func TestProposalPageSaysWhyNot(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	cases := []struct {
		name     string
		state    proposal.State
		signers  int
		unlock   bool
		sign     string // the reason s is disabled, "" when it works
		exec     string
		notOwner bool
		mine     bool // the unlocked key signed too
	}{
		{"locked", proposal.Missing, 1, false, "no key is unlocked", "no key is unlocked", false, false},
		{"owner", proposal.Missing, 1, true, "", "threshold not met: why signatures missing", false, false},
		{"stale", proposal.Stale, 1, true, "stale nonce: why stale nonce", "stale nonce", false, false},
		{"executed", proposal.Executed, 1, true, "executed already", "executed already", false, false},
		{"changed", proposal.Changed, 1, true, "owners changed", "owners changed", false, false},
		{"not an owner", proposal.Missing, 1, true, "not an owner", "threshold not met", true, false},
		{"already signed", proposal.Ready, 1, true, "already signed", "", false, true},
	}
	w0 := ctx.Session.Fixtures.Wallets[0]
	store, err := ctx.Wallet.Store(ctx.Session)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx.Wallet.Lock()
			if c.unlock {
				w := w0
				if c.notOwner {
					w = ctx.Session.Fixtures.Wallets[1]
				}
				if err := store.Unlock(common.HexToAddress(w.Address), w.Passphrase); err != nil {
					t.Fatal(err)
				}
				ctx.Wallet.Unlocked(common.HexToAddress(w.Address))
			}
			sp := proposalOf(t, ctx, c.state, c.signers)
			if c.mine {
				if err := session.SignSafeTx(nil, store, common.HexToAddress(w0.Address), sp.Proposal); err != nil {
					t.Fatal(err)
				}
			}
			p := NewPage(ctx, sp).(*page)
			check(t, "s", p.whyNotSign(), c.sign)
			check(t, "x", p.whyNotExec(), c.exec)
		})
	}

}

func check(t *testing.T, key, got, want string) {
	t.Helper()
	if (want == "") != (got == "") || !strings.Contains(got, want) {
		t.Errorf("%s disabled because %q, want %q", key, got, want)
	}
}

// TestProposalPageFitsHashes: the three hashes are shown whole where they
// fit; on a narrow terminal a hash is shortened in its middle with an
// ellipsis on a line of its own, never cut across two lines.
func TestProposalPageFitsHashes(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	sp := proposalOf(t, ctx, proposal.Missing, 1)
	hash := sp.Proposal.Hashes.SafeTx.Hex()
	for _, width := range []int{120, 40} {
		p := NewPage(ctx, sp).(*page)
		p.SetSize(width, 80)
		view := ansi.Strip(p.View())
		for _, line := range strings.Split(view, "\n") {
			if ansi.StringWidth(line) > width {
				t.Errorf("at %d columns a line is %d wide: %q", width, ansi.StringWidth(line), line)
			}
		}
		whole := strings.Contains(view, hash)
		short := false
		for _, line := range strings.Split(view, "\n") {
			short = short || strings.Contains(line, hash[:12]) && strings.Contains(line, "…") && strings.Contains(line, hash[len(hash)-12:])
		}
		if width == 120 && !whole || width == 40 && (whole || !short) {
			t.Errorf("at %d columns the safeTxHash %s is shown as:\n%s", width, hash, view)
		}
		if !strings.Contains(view, "Signatures: 1 of 2") {
			t.Errorf("at %d columns the page lacks the signatures:\n%s", width, view)
		}
	}
}

// TestProposalPageHelpNamesEveryKeyHandled: the page's help names every
// key it answers, and offers none that does nothing: with no key
// unlocked (s and x listed with why), and with an owner's unlocked.
func TestProposalPageHelpNamesEveryKeyHandled(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	sp := proposalOf(t, ctx, proposal.Missing, 1)
	build := func(t *testing.T) views.Screen {
		p := NewPage(ctx, sp)
		viewstest.NewSyncDriver(t, p, 100, 40)
		return p
	}
	viewstest.CheckHelp(t, viewstest.HelpCase{Name: "locked", Build: build})
	viewstest.Unlock(t, ctx, 0)
	viewstest.CheckHelp(t, viewstest.HelpCase{Name: "an owner unlocked", Build: build})
}
