package holder

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/core/session"
	"allot/viewstest"
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
		// The Safes are read beside the keys, their spinner's "…" no cut.
		u.Until("the accounts and the Safes", func() bool {
			return !u.S.Mode().Busy && !strings.Contains(u.S.View(), "Reading the profile's Safes")
		})
		v := ansi.Strip(u.S.View())
		if strings.Contains(v, "…") || !strings.Contains(v, "proved") {
			t.Errorf("at %d columns:\n%s", w, v)
		}
	}
}

// TestUnlockErrorKeepsTheFileNameWhole: at 80 columns a wrong
// passphrase's error wraps at spaces, the key file's name whole on one
// line (was broken at its "--"); at 60, narrower than the name, all of it
// is there.
func TestUnlockErrorKeepsTheFileNameWhole(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	ctx.Wallet = &session.Wallet{}
	for _, w := range []int{60, 80} {
		u := viewstest.NewDriver(t, NewUnlock(ctx), w, 24)
		u.Until("the accounts", func() bool { return !u.S.Mode().Busy })
		u.Keys("enter")
		u.Type("wrong")
		u.Keys("enter")
		u.Until("the wrong passphrase", func() bool {
			return strings.Contains(strings.Join(strings.Fields(ansi.Strip(u.S.View())), " "), "wrong passphrase")
		})
		v := ansi.Strip(u.S.View())
		name := regexp.MustCompile(`sandbox-wallet-0--[0-9a-f]{40}\.json`)
		switch {
		case w == 80 && !name.MatchString(v):
			t.Errorf("at %d columns the file name is broken:\n%s", w, v)
		case !name.MatchString(strings.ReplaceAll(v, "\n", "")):
			// 64 columns of name in 60: broken, but all of it there.
			t.Errorf("at %d columns the file name is lost:\n%s", w, v)
		}
	}
}
