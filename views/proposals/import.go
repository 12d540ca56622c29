package proposals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/txbuilder"
)

// importPage is :safe import FILE SAFE, as `allot safe import` reads a
// teammate's Safe{Wallet} Transaction Builder file (docs/custody.md):
// at most txbuilder.MaxFileSize bytes, its checksum checked against its
// content, for the profile's chain and this Safe, each call reviewed
// under the signing policy of the act it makes (session.ImportedAct,
// ReviewSafeAct), refusals said with their reasons. What passes is saved,
// once the user answers yes, as a proposal no one has signed
// (session.SaveProposal): :proposals lists it, and its page signs it.
type importPage struct {
	views.Base
	ctx       *views.Context
	path      string
	safeAddr  common.Address
	multiSend common.Address // zero: the canonical one of the Safe\'s version
	reqs      views.Requests
	seq       int
	reading   bool
	saving    bool
	read      imported
	err       error // why the file could not be read or reviewed
	ask       *widget.Confirm
	saved     string // where the proposal was saved
	saveErr   error
	scroll    widget.Scroll
	w, h      int
}

// imported is the file as read and, once its checks passed, its review.
type imported struct {
	batch  txbuilder.Batch
	review *session.SafeReview
	// kept is this machine's proposal of the same safeTxHash, when there
	// is one: saving would replace it and the signatures it holds.
	kept string
}

var keySave = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save as a proposal"))

// NewImport is the import of the Transaction Builder file at path as a
// proposal of the Safe safeAddr, its calls made through multiSend (zero:
// the canonical MultiSendCallOnly of the Safe's version).
func NewImport(ctx *views.Context, path string, safeAddr, multiSend common.Address) views.Screen {
	i := &importPage{ctx: ctx, path: path, safeAddr: safeAddr, multiSend: multiSend}
	i.scroll.Styles = ctx.Styles
	return i
}

// Acting: the page writes a proposal.
func (i *importPage) Acting() {}

func (i *importPage) Title() string { return "Import a Transaction Builder file" }

func (i *importPage) Mode() views.Mode {
	return views.Mode{Busy: i.reading || i.saving, Writing: i.saving, TakesKeys: i.ask != nil, OwnsEsc: i.ask != nil}
}

func (i *importPage) Init() tea.Cmd {
	s, rec, path, addr, multiSend := i.ctx.Session, i.ctx.Recorder, i.path, i.safeAddr, i.multiSend
	i.seq, i.reading = i.reqs.Next(), true
	return views.Load(i.ctx, i.seq, func(c context.Context) (imported, error) {
		b, err := session.ReadTxBuilder(path)
		if err != nil {
			return imported{}, err
		}
		info, err := s.ReadSafe(c, addr)
		if err != nil {
			return imported{batch: b}, err
		}
		a, err := s.ImportedAct(c, rec, info, b)
		if err != nil {
			return imported{batch: b}, fmt.Errorf("safe import: %w", err)
		}
		a.MultiSend = multiSend
		r, err := s.ReviewSafeAct(c, rec, a)
		if err != nil {
			return imported{batch: b}, err
		}
		return imported{batch: b, review: r, kept: keptProposal(s, r)}, nil
	})
}

// keptProposal is the path of this machine's proposal of r's safeTxHash,
// "" when there is none.
func keptProposal(s *session.Session, r *session.SafeReview) string {
	if s.ProposalsFolder() == "" {
		return ""
	}
	path := filepath.Join(s.ProposalsFolder(), r.Proposal.Hashes.SafeTx.Hex()+".json")
	if _, err := os.Lstat(path); err != nil {
		return ""
	}
	return path
}

func (i *importPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if i.ask != nil {
			return i.ask.Update(msg)
		}
		if i.scroll.Key(msg) {
			return nil
		}
		cmd, _ := i.Keys().Dispatch(msg)
		return cmd
	case widget.ConfirmMsg:
		if !i.ask.Answers(msg) {
			return nil
		}
		i.ask = nil
		if msg.Yes {
			return i.save()
		}
	case views.Loaded[imported]:
		if msg.Seq == i.seq {
			i.reading, i.read, i.err = false, msg.Value, msg.Err
		}
	case views.Loaded[[]string]:
		if msg.Seq != i.seq {
			return nil
		}
		i.saving, i.saveErr = false, msg.Err
		if msg.Err != nil {
			return nil
		}
		i.saved = msg.Value[0]
		return wrote // the proposals' list reads it
	}
	return nil
}

// whyNotSave says why the review cannot be saved, "" when it can.
func (i *importPage) whyNotSave() string {
	switch {
	case i.reading:
		return "wait: the file is being read"
	case i.saving:
		return "wait: saving"
	case i.saved != "":
		return "saved already"
	case i.err != nil || i.read.review == nil:
		return "the file was refused (why is above)"
	case i.read.review.Refusal != nil:
		return "the signing policy refused it (why is above)"
	case i.read.kept != "":
		return "this machine has its proposal already: :proposals lists it"
	}
	return ""
}

// confirm asks before the proposal is written.
func (i *importPage) confirm() tea.Cmd {
	prop := i.read.review.Proposal
	i.ask = i.ctx.Confirm("import", "Save it as a proposal of the Safe?",
		"Safe "+prop.Safe.Hex()+", nonce "+prop.Tx.Nonce.String(),
		"safeTxHash "+prop.Hashes.SafeTx.Hex(),
		"No one has signed it: an owner signs it on its page (:proposals).")
	i.ask.SetWidth(min(i.w, 80))
	return nil
}

// save writes the proposal to the state directory's folder.
func (i *importPage) save() tea.Cmd {
	s, prop := i.ctx.Session, i.read.review.Proposal
	i.seq, i.saving = i.reqs.Next(), true
	return views.Write(i.seq, func(context.Context) ([]string, error) {
		paths, err := s.SaveProposal(prop, "")
		if err == nil && len(paths) == 0 {
			err = errors.New("the session has no state directory to keep proposals in")
		}
		return paths, err
	})
}

func (i *importPage) Keys() widget.Bindings {
	if i.ask != nil {
		return i.ask.Bindings()
	}
	return widget.Bindings{
		{Key: keySave, Short: true, Run: i.confirm, Disabled: i.whyNotSave,
			Long: "save the reviewed Safe transaction as a proposal, unsigned, for the owners to sign from :proposals"},
		{Key: i.scroll.Help("scroll"), Label: true, Short: true},
	}
}

func (i *importPage) SetSize(width, height int) {
	i.w, i.h = width, height
	if i.ask != nil {
		i.ask.SetWidth(min(width, 80))
	}
}

func (i *importPage) View() string {
	// What became of it stays in sight under the review, as the
	// question does.
	foot := i.outcome(max(i.w, 20))
	if i.ask != nil {
		foot = strings.Split(i.ask.View(), "\n")
	}
	i.scroll.SetSize(i.w, max(i.h-len(foot), 3))
	i.scroll.SetLines(i.lines(max(i.w, 20)))
	return strings.Join(append(i.scroll.View(), foot...), "\n")
}

// lines are the file, its checks, the review and what was saved.
func (i *importPage) lines(w int) []string {
	st := i.ctx.Styles
	out := []string{st.Title.Render("Import a Transaction Builder file"), ""}
	add := func(label, value string) { out = append(out, fitField(label, value, w)...) }
	add("File", sanitize.Line(i.path))
	add("For the Safe", i.safeAddr.Hex())
	b := i.read.batch
	var refusal *session.TxBuilderRefusal
	switch {
	case i.reading:
		return append(out, "Reading the file and the Safe…")
	case i.err != nil && b.Checksum == "" && errors.As(i.err, &refusal):
		return append(out, widget.WrapWords("✗ Refused: "+sanitize.Line(i.err.Error()), w)...)
	case i.err != nil && b.Checksum == "":
		return append(out, widget.WrapWords("✗ "+sanitize.Line(i.err.Error()), w)...)
	}
	add("Name", sanitize.Line(b.Name))
	add("Checksum", sanitize.Line(b.Checksum)+" ✓ its content's")
	add("Made for", fmt.Sprintf("chain %d, %d call(s)", b.ChainID, len(b.Transactions)))
	if i.err != nil {
		return append(append(out, ""), widget.WrapWords("✗ Refused: "+sanitize.Line(i.err.Error()), w)...)
	}
	return append(out, i.reviewLines(w)...)
}

// reviewLines are each call decoded, the three hashes, the signing
// policy's verdict, and what was saved.
func (i *importPage) reviewLines(w int) []string {
	st, r := i.ctx.Styles, i.read.review
	prop := r.Proposal
	out := []string{"", st.Title.Render("Proposal: " + sanitize.Truncate(act(prop), max(w-10, 10)))}
	for n, d := range r.Decoded {
		out = append(out, fmt.Sprintf("  call %d of %d", n+1, len(r.Decoded)))
		for _, l := range d.Lines() {
			out = append(out, fitField("    "+sanitize.Line(l.Label), sanitize.Line(l.Value), w)...)
		}
	}
	out = append(out, "", st.Title.Render("What the owners sign"))
	add := func(label, value string) { out = append(out, fitField(label, value, w)...) }
	add("Safe", fmt.Sprintf("%s on chain %d, nonce %s, %d of %d owners sign", prop.Safe.Hex(), prop.ChainID, prop.Tx.Nonce, prop.Threshold, len(prop.Owners)))
	add("Transaction", fmt.Sprintf("%s to %s", prop.Tx.Operation, prop.Tx.To.Hex()))
	add("Domain hash", prop.Hashes.Domain.Hex())
	add("Message hash", prop.Hashes.Message.Hex())
	add("safeTxHash", prop.Hashes.SafeTx.Hex())
	out = append(out, widget.WrapWords(st.Muted.Render("Compare these hashes with what Safe{Wallet} shows for the file."), w)...)
	out = append(out, "")
	var refused *wallet.RefusedError
	if errors.As(r.Refusal, &refused) {
		out = append(out, "✗ REFUSED by the signing policy; nothing can be saved:")
		for _, reason := range refused.Reasons {
			out = append(out, widget.WrapWords("  - "+sanitize.Line(reason), w)...)
		}
		return append(out, widget.WrapWords("  pins read from "+sanitize.Line(i.ctx.Session.PinsSource()), w)...)
	}
	out = append(out, st.Title.Render("Checked by the signing policy"))
	for _, l := range r.Approval.Facts {
		out = append(out, widget.WrapWords("  "+sanitize.Line(l.Label)+": "+sanitize.Line(l.Value), w)...)
	}
	return out
}

// outcome says, under the review, what became of the proposal:
// saved, not saved, or kept as this machine has it already.
func (i *importPage) outcome(w int) []string {
	switch {
	case i.read.kept != "":
		return widget.WrapWords("This machine has the proposal of this safeTxHash already, with its signatures: "+sanitize.Line(i.read.kept)+". :proposals lists it; nothing is saved over it.", w)
	case i.saveErr != nil:
		return widget.WrapWords("✗ Not saved: "+sanitize.Line(i.saveErr.Error()), w)
	case i.saved != "":
		return widget.WrapWords("✓ Saved as a proposal no one has signed yet: "+sanitize.Line(i.saved)+". :proposals lists it; an owner signs it on its page (s).", w)
	}
	return nil
}
