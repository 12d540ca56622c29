package views

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/act"
	"allot/wallet"
	"allot/wallet/keystore"
)

// Wallet is the stakeholder's state the screens share: the keystore, the
// account unlocked in it, and the portal session. Screens change it only
// from Update, on the UI goroutine; the keystore and the portal are safe to
// use from commands.
type Wallet struct {
	store   *keystore.Store
	account common.Address // zero when no account is unlocked
	portal  *wallet.Portal
	session *wallet.Session
	mu      sync.Mutex // guards store, which a command opens
}

// Store opens the profile's keystore on first use. The folder is read
// without holding w.mu, which the header takes every frame: a slow or
// hostile folder must not freeze the screen.
func (w *Wallet) Store(ctx *Context) (*keystore.Store, error) {
	if store := w.opened(); store != nil {
		return store, nil
	}
	dir, err := ctx.Session.Profile.KeystoreDir()
	if err != nil {
		return nil, err
	}
	store, err := keystore.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open the keystore: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.store == nil { // else another command opened it first: keep that one
		w.store = store
	}
	return w.store, nil
}

// opened is the keystore when it has been opened, else nil.
func (w *Wallet) opened() *keystore.Store {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.store
}

// Signer is the unlocked account's signer, or nil when the account is
// locked (by hand or by the keystore's relock timer).
func (w *Wallet) Signer() *keystore.Signer {
	if _, _, ok := w.Account(); !ok {
		return nil
	}
	return w.opened().Signer(w.account)
}

// Account is the unlocked account and how long it stays unlocked; false
// when none is (the address is then the one last unlocked, or zero). The
// header asks every frame: it reads the keystore's timer, nothing more.
func (w *Wallet) Account() (common.Address, time.Duration, bool) {
	store := w.opened()
	if store == nil || w.account == (common.Address{}) {
		return w.account, 0, false
	}
	left := store.TimeLeft(w.account)
	return w.account, max(left, 0), left > 0
}

// Lock forgets the unlocked key and signs out of the portal: a session
// belongs to the account that signed in.
func (w *Wallet) Lock() {
	if store := w.opened(); store != nil {
		store.LockAll()
	}
	w.account = common.Address{}
	w.SignOut()
}

// Portal is the portal session, when signed in and not expired.
func (w *Wallet) Portal(now time.Time) (*wallet.Portal, wallet.Session, bool) {
	if w.portal == nil || w.session == nil || w.session.Expired(now) {
		return nil, wallet.Session{}, false
	}
	return w.portal, *w.session, true
}

// SignOut forgets the portal session and its token.
func (w *Wallet) SignOut() {
	if w.portal != nil {
		w.portal.SignOut()
	}
	w.portal, w.session = nil, nil
}

// unlocked makes account the unlocked one; a portal session of another
// account ends.
func (w *Wallet) Unlocked(account common.Address) {
	if account != w.account {
		w.SignOut()
	}
	w.account = account
}

// signedIn keeps the portal session.
func (w *Wallet) SignedIn(p *wallet.Portal, s wallet.Session) { w.portal, w.session = p, &s }

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
	for i, st := range signed {
		t := wallet.Track(context.Background(), ctx.Session.Chain, st.Tx, wallet.TrackOptions{Confirmations: 1})
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
