// Package proposals holds the Safe proposals of this machine, opened from
// the Transactions screen: the list of the state directory's proposals
// (docs/custody.md), each with where it stands against its Safe, and a
// proposal's page, where an owner signs it and any key executes it.
// Everything is read through the session, which reads the files and the
// chain.
package proposals

import (
	"context"
	"errors"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
)

// Row is a proposal of the state directory, as the list shows it.
type Row struct{ session.SafeProposal }

// State is where the proposal stands, in a word or three: "1 of 2
// signatures" while signatures are missing.
func (r Row) State() string {
	switch {
	case r.Proposal == nil:
		return "unreadable"
	case r.Err != nil:
		return "Safe unreadable"
	case r.SafeProposal.State == proposal.Missing:
		return fmt.Sprintf("%d of %d signatures", len(r.Proposal.Signatures), r.Proposal.Threshold)
	case r.SafeProposal.State == proposal.Changed:
		return "owners changed"
	}
	return string(r.SafeProposal.State)
}

// act says what the proposal does: "stake of POOL: 5,000.00 tokens",
// "claim of ALLOCATION: all that is claimable"; an act of another kind
// by its name and subject alone.
func act(p *proposal.Proposal) string {
	what := fmt.Sprintf("%s of %s", sanitize.Line(p.Act.Op), sanitize.Line(p.Act.Subject))
	switch {
	case p.Act.Amount != nil:
		return what + ": " + wallet.FormatTokens(p.Act.Amount) + " tokens"
	case p.Act.Op == proposal.OpClaim:
		return what + ": all that is claimable"
	case p.Act.Op == proposal.OpTransfer && p.Act.To != (common.Address{}):
		return what + " to " + p.Act.To.Hex()
	}
	return what
}

var keyOpen = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open: sign or execute"))

// New lists the state directory's Safe proposals, newest first, read
// again on the lists' rhythm: a proposal another allot process signed
// shows its new signature on the next refresh.
func New(ctx *views.Context) views.Screen {
	l := views.NewList(ctx, "Safe proposals", widget.TableConfig[Row]{
		Columns: columns(),
		ID:      func(r Row) string { return r.File },
		CopyText: func(r Row) string {
			if r.Proposal == nil {
				return r.File
			}
			return r.Proposal.Hashes.SafeTx.Hex()
		},
		Empty: empty(ctx.Session.ProposalsFolder()),
	}, fields)
	s := ctx.Session
	l.Fetch = func(c context.Context) ([]Row, error) {
		list, err := s.ReadProposals(c)
		var cut session.ProposalsCut
		if errors.As(err, &cut) {
			err = views.RowsWarning(cut.Error())
		}
		rows := make([]Row, len(list))
		for i, sp := range list {
			rows[i] = Row{sp}
		}
		return rows, err
	}
	l.NewestFirst = true
	l.Actions = []views.RowAction[Row]{{
		Key:  keyOpen,
		Open: func(r Row) views.Screen { return NewPage(ctx, r.SafeProposal) },
		Only: func(r Row) bool { return r.Proposal != nil },
	}}
	return list{l}
}

// list is the proposals' list, read again at once when a page changed a
// proposal's file: a signature added, an execution recorded.
type list struct{ *views.List[Row] }

// changed says a page wrote a proposal's file. It is an event: the page
// that wrote is not the list that shows the file, and another process's
// allot learns of it only on the list's next read.
type changed struct{}

func (changed) Event() {}

func (l list) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(changed); ok {
		return l.Reload()
	}
	return l.List.Update(msg)
}

// empty says where proposals come from when there are none.
func empty(folder string) string {
	out := "No Safe proposals on this machine. An owner makes one with s or c on a Safe of the accounts page (u), or `allot stake|claim --account SAFE --owner KEY`"
	if folder == "" {
		return out + "."
	}
	return out + "; a proposal file a teammate sent is listed once saved in " + sanitize.Line(folder) + "."
}

func columns() []widget.Column[Row] {
	return []widget.Column[Row]{
		{Title: "STATE", Cell: Row.State, MinWidth: 14},
		{Title: "SAFE", Cell: func(r Row) string { return safeOf(r) }, MinWidth: 13, Priority: 1},
		{Title: "NONCE", Cell: func(r Row) string { return nonceOf(r) }, Align: widget.AlignRight, Priority: 2},
		{Title: "ACT", Cell: func(r Row) string { return actOf(r) }, Text: true, MinWidth: 12},
		{Title: "SAFETXHASH", Cell: func(r Row) string { return hashOf(r) }, MinWidth: 13, Priority: 3},
	}
}

func safeOf(r Row) string {
	if r.Proposal == nil {
		return ""
	}
	return r.Proposal.Safe.Hex()
}

func nonceOf(r Row) string {
	if r.Proposal == nil {
		return ""
	}
	return r.Proposal.Tx.Nonce.String()
}

func actOf(r Row) string {
	if r.Proposal == nil {
		return r.File
	}
	return act(r.Proposal)
}

func hashOf(r Row) string {
	if r.Proposal == nil {
		return ""
	}
	return r.Proposal.Hashes.SafeTx.Hex()
}

// fields are the detail pane's: the state and why, or why the proposal
// could not be read.
func fields(r Row) []widget.Field {
	if r.Proposal == nil {
		return []widget.Field{{Label: "File", Value: sanitize.Line(r.File)}, {Label: "Unreadable", Value: sanitize.Line(r.Err.Error())}}
	}
	p := r.Proposal
	out := []widget.Field{
		{Label: "State", Value: r.State()},
		{Label: "Act", Value: act(p)},
		{Label: "Safe", Value: p.Safe.Hex()},
		{Label: "Nonce", Value: p.Tx.Nonce.String()},
		{Label: "safeTxHash", Value: p.Hashes.SafeTx.Hex()},
	}
	if r.Err != nil {
		return append(out, widget.Field{Label: "Why", Value: sanitize.Line(r.Err.Error())})
	}
	return append(out, widget.Field{Label: "Why", Value: sanitize.Line(r.Detail)})
}
