package views

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/act"
	"allot/wallet"
)

// TxStatusMsg is a followed transaction's status as it changes: every
// screen may show it; the Transactions screen does.
type TxStatusMsg struct {
	Op     string
	Status wallet.Status
	// Final is true for the last status of the transaction (mined with
	// its confirmations, reverted, dropped) or when following stopped.
	Final bool
	Err   error // why following stopped before the transaction was final
}

// follow tracks sent transactions until each is final, reporting every
// change as a TxStatusMsg and journaling each final status.
func follow(ctx *Context, signed []act.Signed) tea.Cmd {
	cmds := make([]tea.Cmd, len(signed))
	root := ctx.Root()
	for i, st := range signed {
		// The batch's transactions before this one are on the nonces
		// below its own: waiting for them is no gap.
		t := wallet.Track(root, ctx.Session.Chain, st.Tx, wallet.TrackOptions{Confirmations: 1, Poll: ctx.Session.TrackPoll, Ahead: uint64(i)})
		cmds[i] = watch(ctx.Recorder, st.Op, t)
	}
	return tea.Batch(cmds...)
}

// watch waits for the tracker's next update; each message carries the
// command that waits for the one after, until the transaction is final.
func watch(rec *act.Recorder, op string, t *wallet.Tracker) tea.Cmd {
	return func() tea.Msg {
		select {
		case st, ok := <-t.Updates():
			if ok {
				return txUpdate{TxStatusMsg{Op: op, Status: st}, watch(rec, op, t)}
			}
		case <-t.Done():
		}
		// The tracker runs under the screens' root: when that ends, so
		// does the tracker, and this wait with it.
		st, err := t.Wait(context.Background())
		if err == nil {
			rec.Final(op, st)
		} else if errors.Is(err, wallet.ErrStoppedWatching) {
			err = fmt.Errorf("stopped following %s: it may still be mined", st.Hash.Hex())
		}
		return TxStatusMsg{Op: op, Status: st, Final: true, Err: err}
	}
}

// txUpdate carries a status and the command that keeps watching; the
// dashboard unwraps it (see Unwrap).
type txUpdate struct {
	TxStatusMsg
	next tea.Cmd
}

// Unwrap splits a tracker update into the status every screen sees and
// the command that waits for the next one; other messages pass unchanged.
func Unwrap(msg tea.Msg) (tea.Msg, tea.Cmd) {
	if u, ok := msg.(txUpdate); ok {
		return u.TxStatusMsg, u.next
	}
	return msg, nil
}
