package proposals

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

// A Safe's transfer of an allocation it holds to a new withdrawal address
// (docs/deployment.md D18), proposed from the allocation's page (t) as
// `allot transfer ID --to ADDR --account SAFE --owner KEY` proposes it:
// the address is typed and checked as for a key's transfer
// (views.TransferTo), the session builds the transfer from the
// allocation's proof and reviews the Safe transaction
// (session.ProposeTransfer), and the unlocked owner signs what the review
// showed, as for a stake or a claim of the Safe.

// transferOf is the allocation a Safe's transfer gives to a new address,
// and the vester that holds it.
type transferOf struct {
	id     string
	vester common.Address
}

// NewSafeTransfer is the transfer of allocation id on vester, whose
// tokens go to the Safe sa now, to an address the form takes, proposed by
// the unlocked key, an owner of sa.
func NewSafeTransfer(ctx *views.Context, sa session.SafeAccount, id string, vester common.Address) views.Screen {
	p := &propose{safe: sa, transfer: &transferOf{id: id, vester: vester}}
	p.FormSign = views.NewFormSign(ctx, p.head, "review the Safe transaction",
		widget.TextField("to", "New address", "0x… the wallet or Safe every later claim pays", func(v string) error {
			_, err := views.TransferTo(v, sa.Address, vester)
			return err
		}))
	p.Form.Field("to").SetCharLimit(60)
	p.scroll.Styles = ctx.Styles
	return p
}

// transferTo is the new address the form holds, zero while it is none
// the transfer may go to.
func (p *propose) transferTo() common.Address {
	to, err := views.TransferTo(p.Form.Field("to").Value(), p.safe.Address, p.transfer.vester)
	if err != nil {
		return common.Address{}
	}
	return to
}

// transferHead is what the transfer's form says of the allocation and
// of what the transfer changes, in plain words.
func (p *propose) transferHead() string {
	st, w := p.Ctx.Styles, max(p.Width, 20)
	var b strings.Builder
	b.WriteString("Its tokens go to this Safe now; every later claim pays the address typed instead\n")
	if to := p.transferTo(); to != (common.Address{}) {
		b.WriteString(st.Fail.Render(widget.Truncate("! every later claim pays "+to.Hex()+", not the Safe; once executed, it cannot be undone", w)) + "\n")
	}
	return b.String()
}

// transferCaution is the review's warning for each transfer the
// proposal's calls make, one act or among a batch's: what the Safe gives
// up, for good.
func (p *propose) transferCaution(prop *proposal.Proposal, w int) []string {
	acts, err := wallet.SplitSafeCalls(wallet.InnerCalls(prop.ChainID, prop.Safe, prop.Calls))
	if err != nil {
		return nil // no act allot knows: the policy's refusal says so
	}
	var out []string
	for _, a := range acts {
		if a.Op != proposal.OpTransfer {
			continue
		}
		line := "! this cannot be undone: once executed, every later claim of allocation " + sanitize.Line(a.Allocation) + " pays " + a.To.Hex() + ", not the Safe " + prop.Safe.Hex()
		for _, l := range widget.WrapWords(line, w) {
			out = append(out, p.Ctx.Styles.Fail.Render(l))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, "")
}
