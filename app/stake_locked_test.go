package app

import (
	"strings"
	"testing"
)

// TestStakeFormLockedButSignedIn: an account that locked itself (its
// timer) keeps its portal session; the stake form asks to unlock it
// again, not for a portal sign-in that is already there.
func TestStakeFormLockedButSignedIn(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.unlock()
	f.runes("6").wait("Proof of humanity").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	store, err := f.m.ctx.Wallet.Store(f.s)
	if err != nil {
		t.Fatal(err)
	}
	store.LockAll() // as the keystore's relock timer does
	f.runes("2").wait("Season").runes("S").wait("Stake in").wait("is locked")
	v := strings.Join(strings.Fields(f.quit().View()), " ")
	if strings.Contains(v, "needs a portal sign-in") || !strings.Contains(v, "its portal sign-in holds") {
		t.Errorf("the form asks for a sign-in that is there:\n%s", v)
	}
}
