package holder

import (
	"context"
	"errors"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

// transfer transfers an allocation to a new withdrawal address
// (docs/deployment.md D18): the key that holds it now types the address,
// allot builds the vester's transferBeneficiaryAddress from the
// allocation's proof (the service builds none, as for `allot transfer`),
// and the clear-signing flow reviews it under the signing policy
// (session.TransferCheck), signs it on a yes and follows it until mined.
type transfer struct {
	views.FormSign
	id string
	// current is where the allocation's tokens go now, and vester the
	// contract that holds it: neither is a new address.
	current, vester common.Address
	// to is the address the transfer under review gives it to; zero
	// before one is built.
	to common.Address
}

// NewTransfer is the transfer screen of allocation id, whose tokens go to
// current now, on vester.
func NewTransfer(ctx *views.Context, id string, current, vester common.Address) views.Screen {
	t := &transfer{id: id, current: current, vester: vester}
	t.FormSign = views.NewFormSign(ctx, t.headLines, "build the transfer",
		widget.TextField("to", "New address", "0x… the wallet or Safe every later claim pays", nil))
	t.Form.Field("to").SetCharLimit(60)
	t.Form.Field("to").Check = func(v string) error {
		_, err := t.address(v)
		return err
	}
	return t
}

// Acting: the form signs a transfer.
func (t *transfer) Acting() {}

func (t *transfer) Title() string { return "Transfer" }

// address reads the new address typed (views.TransferTo).
func (t *transfer) address(v string) (common.Address, error) {
	return views.TransferTo(v, t.current, t.vester)
}

// Drafted says the form holds an address typed, not sent.
func (t *transfer) Drafted() bool {
	return t.Flow == nil && t.Working == "" && t.Form.Field("to").Value() != ""
}

func (t *transfer) Update(msg tea.Msg) tea.Cmd {
	if t.Flow != nil {
		return t.UpdateFlow(msg)
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return t.FormKey(msg, t.prepare)
	case views.Loaded[[]wallet.Call]:
		if msg.Seq != t.Seq {
			return nil
		}
		t.Working = ""
		if msg.Err != nil {
			t.Err = msg.Err
			return nil
		}
		signer, _, _ := t.Ctx.Wallet.Account()
		check := t.Ctx.Session.TransferCheck(t.id, signer, t.to)
		t.Caution = "Once it is mined, every later claim pays " + t.to.Hex() + ", not " + t.current.Hex() + ", and you cannot undo it."
		return t.Sign(t.id, []string{proposal.OpTransfer}, msg.Value, nil, check)
	}
	return t.Form.Update(msg)
}

// prepare builds the transfer from the allocation's proof, as `allot
// transfer` does (session.TransferCall); it signs nothing.
func (t *transfer) prepare() tea.Cmd {
	if !t.Form.Valid() {
		return nil
	}
	to, _ := t.address(t.Form.Field("to").Value())
	signer, _, ok := t.Ctx.Wallet.Account()
	if !ok {
		t.Err = errors.New("no account is unlocked: esc, then u (or :unlock), and transfer again")
		return nil
	}
	if bar := wallet.HolderTransferBar(t.current, signer); bar != "" {
		t.Err = errors.New(bar)
		return nil
	}
	t.to, t.Working = to, "Building the transfer from the allocation's proof"
	t.Seq = t.Reqs.Next()
	sess, id := t.Ctx.Session, t.id
	return views.Load(t.Ctx, t.Seq, func(ctx context.Context) ([]wallet.Call, error) {
		return sess.TransferCall(ctx, id, signer, to)
	})
}

func (t *transfer) View() string {
	return t.Draw("enter builds the transfer and shows it before anything is signed · esc cancels: nothing is sent", nil)
}

// headLines are the lines above the form or the flow: which allocation,
// whose it is now, and what the transfer changes, in plain words.
func (t *transfer) headLines() string {
	st := t.Ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Transfer allocation "+t.id+" to a new address") + "\n")
	b.WriteString("Its tokens go to " + t.current.Hex() + " now")
	if addr, _, ok := t.Ctx.Wallet.Account(); ok && addr == t.current {
		b.WriteString(": you, the unlocked key")
	}
	b.WriteString("\n")
	to := t.to
	if t.Flow == nil {
		// What the form holds once it is an address the transfer may
		// go to; nothing is said of one half typed.
		to = common.Address{}
		if addr, err := t.address(t.Form.Field("to").Value()); err == nil {
			to = addr
		}
	}
	switch {
	case t.Sent():
		b.WriteString("Every later claim of this allocation pays " + to.Hex() + ". esc shows the allocation as it is now.\n")
	case to != (common.Address{}):
		b.WriteString(st.Fail.Render("! every later claim of this allocation pays "+to.Hex()+", not "+t.current.Hex()+"; this cannot be undone by you") + "\n")
	default:
		b.WriteString(st.Muted.Render("Every later claim pays the address you type, not you; once mined, you cannot undo it.") + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

func (t *transfer) Keys() widget.Bindings { return t.Bindings(nil) }
