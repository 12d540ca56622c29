package holder

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/views"
	"allot/views/widget"
)

// TestPortalSignsOnlyWhatWasSeen: at 80x24 (the page 80x18) the sign-in
// message does not fit under its question; y signs nothing until the
// reader has scrolled to its end, where the URI, the nonce and the expiry
// are (it signed at "lines 1–4 of 10"). n still answers at once.
func TestPortalSignsOnlyWhatWasSeen(t *testing.T) {
	msg := "allot.example wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\nSign in to the claim portal.\n\nURI: https://allot.example\nVersion: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2026-11-23T20:00:00Z\nExpiration Time: 2026-11-23T20:10:00Z"
	open := func() *portal {
		ctx := &views.Context{Styles: widget.DefaultStyles(), Wallet: &session.Wallet{}, Now: time.Now}
		p := NewPortal(ctx).(*portal)
		p.message = msg
		p.askSignIn("0x52908400098527886E0F7030069857D2E4169EE7")
		p.SetSize(80, 12)
		p.shown.Home()
		return p
	}
	answer := func(p *portal, k tea.KeyMsg) tea.Msg {
		if cmd := p.Update(k); cmd != nil {
			return cmd()
		}
		return nil
	}
	y := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}
	p := open()
	if !strings.Contains(p.View(), "more: ↓/pgdn") {
		t.Fatalf("the message fits: the test needs one that does not:\n%s", p.View())
	}
	if got, ok := answer(p, y).(widget.ConfirmMsg); ok {
		t.Fatalf("y answered %+v with the message's end unseen", got)
	}
	for range 10 {
		p.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	}
	if got, ok := answer(p, y).(widget.ConfirmMsg); !ok || !got.Yes {
		t.Fatalf("y after reading to the end: %#v", got)
	}
	if got, ok := answer(open(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}).(widget.ConfirmMsg); !ok || got.Yes {
		t.Fatalf("n with the end unseen: %#v", got)
	}
}
