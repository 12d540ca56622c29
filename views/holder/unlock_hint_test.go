package holder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/internal/session"
	"allot/views/viewstest"
)

// TestUnlockHintKeepsThePassphraseWhole: at 60 columns the sandbox's
// passphrase hint wraps at spaces, never inside allot-demo-N.
func TestUnlockHintKeepsThePassphraseWhole(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	for _, w := range []int{60, 62, 64, 70, 80} {
		u := viewstest.NewDriver(t, NewUnlock(ctx), w, 20)
		u.Until("the accounts", func() bool { return !u.S.Mode().Busy })
		if v := ansi.Strip(u.S.View()); !strings.Contains(v, "allot-demo-N") {
			t.Errorf("at %d columns the passphrase is split:\n%s", w, v)
		}
	}
}

// TestUnlockNoteNotCut: at 60 columns an account's "per its file" note is
// not cut mid-phrase; what it means is said once under the list.
func TestUnlockNoteNotCut(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	for _, w := range []int{60, 80} {
		u := viewstest.NewDriver(t, NewUnlock(ctx), w, 20)
		u.Until("the accounts", func() bool { return !u.S.Mode().Busy })
		v := ansi.Strip(u.S.View())
		if strings.Contains(v, "…") || !strings.Contains(v, "proved") {
			t.Errorf("at %d columns:\n%s", w, v)
		}
	}
}
