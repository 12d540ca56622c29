package app

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/safe/proposal"
)

// TestSafeTransferProposedInDashboard: wallet 0 transfers its
// transferable allocation by key to a 2-of-3 Safe of wallets 0, 1 and 2
// (the real Safe 1.4.1). With wallet 3's key unlocked, no owner's, t
// says why it cannot; with owner 0's, t proposes the Safe's transfer: the
// address is checked as for a key's, the review shows the call decoded,
// the domain hash, message hash and safeTxHash, who signs and the policy's
// check, and that it cannot be undone; once signed it says "1 of 2
// signatures". Owner 1 signs it on the proposal's page, wallet 3 executes
// it, and the vester pays wallet 2 from then on.
func TestSafeTransferProposedInDashboard(t *testing.T) {
	t.Parallel()
	h, _, _, treasury := treasuryOf(t)
	s, fx := h.Session, h.Session.Fixtures
	id, vester := transferableOf(t, s, fx.Wallets[0].Address)
	to := fx.Wallets[2].Address

	f := newFlowOn(t, s)
	f.unlockNth(0).key(tea.KeyEsc).settle()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("allocation " + id + ": PASS")
	f.runes("t").wait("Transfer allocation " + id).key(tea.KeyCtrlU).typ(treasury.Hex()).key(tea.KeyEnter)
	f.wait("Sign and send this transaction?").readToEnd().runes("y").wait("success, mined in block")
	// Read again once mined: its tokens go to the Safe now.
	f.key(tea.KeyEsc).wait("Tokens go to   " + treasury.Hex())

	f.runes("u").wait("enter: type the passphrase").runes("L").wait("locked: the key is forgotten").key(tea.KeyEsc).settle()
	f.runes("3").runes("t").wait("a Safe holds it: unlock one of its owners' keys to propose its transfer (u)")
	f.unlockNth(3).key(tea.KeyEsc).settle()
	f.runes("3").runes("t").wait("a Safe holds it and the unlocked key is none of its owners: unlock an owner's key (u)")
	f.unlockNth(0).key(tea.KeyEsc).settle()
	f.runes("3").runes("t").wait("Transfer allocation " + id + " of the Safe " + treasury.Hex()).wait("Signing as the owner " + fx.Wallets[0].Address)
	// Its checksummed spelling with one letter's case turned.
	i := strings.IndexAny(to[2:], "abcdefABCDEF") + 2
	mixed := to[:i] + strings.Map(func(r rune) rune { return r ^ 0x20 }, to[i:i+1]) + to[i+1:]
	for _, tc := range []struct{ typed, says string }{
		{common.Address{}.Hex(), "the zero address"},
		{treasury.Hex(), "the allocation's tokens go there already"},
		{vester.Hex(), "the vester itself"},
		{mixed, "wrong EIP-55 checksum"},
	} {
		f.key(tea.KeyCtrlU).typ(tc.typed).wait(tc.says)
	}
	f.key(tea.KeyCtrlU).typ(to).wait("! every later claim pays " + to + ", not the Safe")
	start := f.mark
	f.key(tea.KeyEnter).wait("What the owners sign").wait("Sign the safeTxHash")
	f.runes("y").wait("read the review to its end first").key(tea.KeyEnd).wait("↑/pgup scrolls back").runes("y")
	f.wait("1 of 2 signatures").wait("Transactions, P")

	list, err := s.ReadProposals(context.Background())
	if err != nil || len(list) != 1 || list[0].Proposal == nil {
		t.Fatalf("the proposals: %+v, %v", list, err)
	}
	prop := list[0].Proposal
	if prop.Act.Op != proposal.OpTransfer || prop.Act.Subject != id || prop.Act.To != common.HexToAddress(to) || len(prop.Calls) != 1 {
		t.Errorf("the proposal's act %+v with %d calls, want the transfer of %s to %s in one call", prop.Act, len(prop.Calls), id, to)
	}
	screen := f.seen.String()[start:]
	for _, want := range []string{"transferBeneficiaryAddress", "this cannot be undone", prop.Hashes.Domain.Hex(), prop.Hashes.Message.Hex(), prop.Hashes.SafeTx.Hex(), "Signed by", "Checked by the signing policy"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review did not show %q", want)
		}
	}

	f.coSignAndExecute(3)
	st, err := wallet.ReadStanding(context.Background(), s.Chain, vester, id)
	if err != nil || st.WithdrawalAddress != common.HexToAddress(to) {
		t.Fatalf("the vester's withdrawal address: %+v (%v), want %s", st, err, to)
	}
}
