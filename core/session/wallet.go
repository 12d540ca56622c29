package session

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/keystore"
)

// Wallet is the stakeholder's state in a dashboard session: the keystore,
// the account unlocked in it, and the portal session. The dashboard's
// screens change it only from their Update, on the UI goroutine; the
// keystore and the portal are safe to use from their commands.
type Wallet struct {
	store   *keystore.Store
	account common.Address // zero when no account is unlocked
	portal  *wallet.Portal
	session *wallet.Session
	mu      sync.Mutex // guards store, which a command opens
}

// Store opens the keystore of s's profile on first use. The folder is read
// without holding w.mu, which the header takes every frame: a slow or
// hostile folder must not freeze the screen.
func (w *Wallet) Store(s *Session) (*keystore.Store, error) {
	if store := w.opened(); store != nil {
		return store, nil
	}
	dir, err := s.Profile.KeystoreDir()
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

// Portal is the portal session, when signed in and not expired. The
// portal owns it: once it refused the session's token (a 401, the
// service restarted), every screen and the header read signed out.
func (w *Wallet) Portal(now time.Time) (*wallet.Portal, wallet.Session, bool) {
	if w.portal == nil || w.session == nil || w.session.Expired(now) {
		return nil, wallet.Session{}, false
	}
	if _, err := w.portal.Session(); errors.Is(err, wallet.ErrNotSignedIn) {
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

// Unlocked makes account the unlocked one; a portal session of another
// account ends.
func (w *Wallet) Unlocked(account common.Address) {
	if account != w.account {
		w.SignOut()
	}
	w.account = account
}

// SignedIn keeps the portal session.
func (w *Wallet) SignedIn(p *wallet.Portal, s wallet.Session) { w.portal, w.session = p, &s }
