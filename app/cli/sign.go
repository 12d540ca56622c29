package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/term"

	"allot/core/act"
	"allot/core/sign"
	"allot/internal/sanitize"
	"allot/wallet"
)

// txFlags are the flags of a command that signs transactions and may send
// them. There is no flag to sign what the signing policy refuses.
type txFlags struct {
	send, wait, yes bool
}

// declareTx declares --send, --wait and --yes on fs, parsed into f.
func declareTx(fs *flag.FlagSet, f *txFlags) {
	fs.BoolVar(&f.send, "send", false, "send the signed transaction(s); without it they are printed, signed but not sent")
	fs.BoolVar(&f.wait, "wait", false, "with --send: follow each transaction to one confirmation and print its receipt")
	fs.BoolVar(&f.yes, "yes", false, "with --send: send without asking; needed when stdin is not a terminal")
}

func (f txFlags) check(e *env, cmd string) error {
	switch {
	case f.wait && !f.send:
		return usagef("%s: --wait needs --send", cmd)
	case f.yes && !f.send:
		return usagef("%s: --yes needs --send", cmd)
	case f.send && !f.yes && !e.terminal():
		return usagef("%s: --send without --yes: stdin is not a terminal, so nothing can ask you to confirm; review without --send first, then add --yes", cmd)
	}
	return nil
}

// terminal reports whether the user can be asked a question on stdin.
func (e *env) terminal() bool {
	if e.Terminal != nil {
		return e.Terminal()
	}
	f, ok := e.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// confirm asks question on stderr and reads the answer from stdin: only
// "y" or "yes" is a yes.
func (e *env) confirm(question string) bool {
	fmt.Fprint(e.Stderr, question+" [y/N] ")
	line, _ := bufio.NewReader(io.LimitReader(e.Stdin, 64)).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// txBatch is calls to sign in order, taking consecutive nonces.
type txBatch struct {
	subject string   // what the batch is about: an allocation id, a pool id
	op      string   // what it is: claim, stake
	ops     []string // per call, for the journal and messages: claim, approve, stake
	calls   []wallet.Call
	known   map[common.Address]string
	// check applies the signing policy to the calls.
	check sign.Check
}

// transact is the clear-signing flow of every command that signs, on the
// one signing path (sign.Prepare, as the dashboard's review): decode each
// call and show it on stderr; apply the signing policy, which refuses
// (and journals the refusal of) anything but what was asked, before
// anything is built; build the EIP-1559 transactions (which checks the
// chains and the sender) and show their chain, nonce, gas and fees; with
// --send, ask before sending unless --yes; unlock and sign; then print
// them unsent, or send them, journaling each hash, and with --wait follow
// them to one confirmation. A transaction that reverted or was dropped is
// exit status 1, after the output. s was opened for a write on a chain.
func (e *env) transact(ctx context.Context, s *opened, acct *signingAccount, b txBatch, f txFlags, out format) error {
	_, err := e.transactStatuses(ctx, s, acct, b, f, out)
	return err
}

// transactStatuses is transact, which also returns the status of each
// transaction sent, as last seen: a stake's says whether its approve was
// mined and the stake was not.
func (e *env) transactStatuses(ctx context.Context, s *opened, acct *signingAccount, b txBatch, f txFlags, out format) ([]wallet.Status, error) {
	req := sign.Request{Op: b.op, Subject: b.subject, Calls: b.calls, From: acct.address, Labels: b.known, Check: b.check}
	rv, err := sign.Prepare(ctx, s.Session, s.rec, req)
	for i, summary := range rv.Summaries {
		printSummary(e.Stderr, i, len(rv.Summaries), b.ops[i], summary)
	}
	var refused *wallet.RefusedError
	if errors.As(rv.Refusal, &refused) {
		fmt.Fprintln(e.Stderr, "REFUSED by the signing policy; nothing was signed:")
		for _, r := range refused.Reasons {
			fmt.Fprintln(e.Stderr, "  - "+sanitize.Line(r))
		}
		fmt.Fprintln(e.Stderr, "  pins read from "+sanitize.Line(rv.PinsFrom))
		pinHint(e.Stderr, s, refused)
		return nil, rv.Refusal
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(e.Stderr, "Checked by the signing policy:")
	var facts []string
	for _, l := range rv.Facts {
		facts = append(facts, "  "+l.Label, l.Value)
	}
	fields(e.Stderr, facts...)
	fmt.Fprintln(e.Stderr, "  pins read from "+sanitize.Line(rv.PinsFrom))
	drafts := rv.Drafts
	for i, d := range drafts {
		printDraft(e.Stderr, i, len(drafts), b.ops[i], d)
	}
	fmt.Fprintln(e.Stderr, wallet.WorstCaseLine(drafts))
	if f.send && !f.yes {
		question := "Sign and send this transaction?"
		if len(drafts) > 1 {
			question = fmt.Sprintf("Sign and send these %d transactions, in this order?", len(drafts))
		}
		if !e.confirm(question) {
			return nil, errors.New("not signed: you did not answer yes; nothing was sent")
		}
	}
	signer, err := acct.unlock()
	if err != nil {
		return nil, err
	}
	signed, err := sign.Sign(s.rec, b.subject, b.ops, rv, signer)
	if err != nil {
		return nil, err
	}
	if !f.send {
		return nil, printSigned(e.Stdout, signed, out)
	}

	statuses, sendErr := s.rec.Send(ctx, s.Chain, b.subject, signed)
	var waitErr error
	if f.wait && len(statuses) > 0 {
		// Those sent before one failed are followed too: an approve
		// mined before its stake was refused leaves an allowance.
		statuses, waitErr = e.follow(ctx, s, signed[:len(statuses)], statuses)
	}
	if err := printStatuses(e.Stdout, b.ops, statuses, out); err != nil {
		if sendErr == nil {
			return statuses, err
		}
		fmt.Fprintf(e.Stderr, "allot: %v\n", err)
	}
	if sendErr != nil {
		return statuses, sendErr
	}
	if err := failures(b.ops, statuses); err != nil {
		return statuses, err
	}
	return statuses, waitErr
}

// follow tracks every sent transaction at once until each is final, and
// journals each final status. One the node holds in its queue (a nonce
// gap) is said as soon as it is seen, and no longer waited for: it is
// mined only once the nonce it waits for is.
func (e *env) follow(ctx context.Context, s *opened, signed []act.Signed, statuses []wallet.Status) ([]wallet.Status, error) {
	trackers := make([]*wallet.Tracker, len(signed))
	for i, st := range signed {
		fmt.Fprintf(e.Stderr, "Waiting for %s transaction %s to be mined...\n", st.Op, st.Hash.Hex())
		// The batch's transactions before this one are on the nonces
		// below its own: waiting for them is no gap.
		trackers[i] = wallet.Track(ctx, s.Chain, st.Tx, wallet.TrackOptions{Confirmations: 1, Poll: s.TrackPoll, Ahead: uint64(i)})
	}
	var firstErr error
	for i, t := range trackers {
		st, err := awaitFinal(ctx, t)
		statuses[i] = st
		if st.State == wallet.StateQueued {
			fmt.Fprintf(e.Stderr, "%s transaction %s is %s. Not waiting for it: `allot transactions` says when it is mined.\n",
				signed[i].Op, st.Hash.Hex(), st.QueuedNote())
			continue
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		s.rec.Final(signed[i].Op, st)
	}
	if firstErr != nil {
		return statuses, fmt.Errorf("%w; the transactions may still be mined", firstErr)
	}
	return statuses, nil
}

// awaitFinal waits for t's final status, or its first queued one.
func awaitFinal(ctx context.Context, t *wallet.Tracker) (wallet.Status, error) {
	for {
		select {
		case st, open := <-t.Updates():
			if st.State == wallet.StateQueued {
				return st, nil
			}
			if !open {
				return t.Wait(ctx)
			}
		case <-ctx.Done():
			return t.Wait(ctx)
		}
	}
}

// failures says which transactions reverted or were dropped.
func failures(ops []string, statuses []wallet.Status) error {
	var problems []string
	for i, st := range statuses {
		switch st.State {
		case wallet.StateReverted:
			reason := st.RevertReason
			if reason == "" {
				reason = "the node gave no reason"
			}
			problems = append(problems, fmt.Sprintf("%s transaction %s reverted: %s", ops[i], st.Hash.Hex(), reason))
		case wallet.StateQueued:
			problems = append(problems, fmt.Sprintf("%s transaction %s is %s", ops[i], st.Hash.Hex(), st.QueuedNote()))
		case wallet.StateDropped:
			what := "was dropped"
			if st.Reorged {
				what = "was " + wallet.Reorg + ", and dropped"
			}
			problems = append(problems, fmt.Sprintf("%s transaction %s %s: it will not be mined", ops[i], st.Hash.Hex(), what))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "; "))
}

// printSummary shows a call the way the user must read it before it is
// signed: the function, every argument, the value, and every warning.
func printSummary(w io.Writer, i, n int, op string, s *wallet.Summary) {
	fmt.Fprintf(w, "Transaction %d of %d (%s): %s\n", i+1, n, op, sanitize.Line(s.Title()))
	var pairs []string
	for _, l := range s.Lines() {
		pairs = append(pairs, "  "+l.Label, l.Value)
	}
	fields(w, pairs...)
	for _, warn := range s.Warnings {
		fmt.Fprintln(w, "  WARNING: "+sanitize.Line(warn.Message))
	}
}

// printDraft shows what a built transaction costs and where it goes, before
// the key is unlocked.
func printDraft(w io.Writer, i, n int, op string, d *wallet.Draft) {
	fmt.Fprintf(w, "Transaction %d of %d (%s), built:\n", i+1, n, op)
	var pairs []string
	for _, l := range d.Lines() {
		pairs = append(pairs, "  "+l.Label, l.Value)
	}
	fields(w, pairs...)
}

// printSigned prints signed transactions that were not sent.
func printSigned(w io.Writer, signed []act.Signed, out format) error {
	if out == formatJSON {
		return writeJSON(w, map[string]any{"transactions": signed})
	}
	for i, st := range signed {
		fmt.Fprintf(w, "Transaction %d of %d (%s), signed, not sent:\n", i+1, len(signed), st.Op)
		if err := fields(w, "  hash", st.Hash.Hex(), "  nonce", fmt.Sprint(st.Nonce), "  raw", st.Raw); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "Not sent: run again with --send, or broadcast the raw transaction yourself.")
	return err
}

// printStatuses prints the sent transactions' statuses; in JSON exactly
// {"transactions": [STATUS...]}, in order.
func printStatuses(w io.Writer, ops []string, statuses []wallet.Status, out format) error {
	if out == formatJSON {
		if statuses == nil {
			statuses = []wallet.Status{}
		}
		return writeJSON(w, map[string][]wallet.Status{"transactions": statuses})
	}
	t := newTable(w, "OP", "HASH", "STATUS", "BLOCK", "GAS USED", "CONFIRMATIONS", "REVERT REASON")
	t.alignDecimals(3, 4, 5)
	for i, st := range statuses {
		block, gas, confs := "-", "-", "-"
		if st.Mined() {
			block, gas, confs = fmt.Sprint(st.Block), fmt.Sprint(st.GasUsed), fmt.Sprint(st.Confirmations)
		}
		state := string(st.State)
		if st.Reorged {
			state += " (" + wallet.Reorg + ")"
		}
		if st.State == wallet.StateQueued {
			state += fmt.Sprintf(" (behind nonce %d)", st.Behind)
		}
		t.row(ops[i], st.Hash.Hex(), state, block, gas, confs, st.RevertReason)
	}
	return t.flush()
}
