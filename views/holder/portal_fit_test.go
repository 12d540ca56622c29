package holder

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/core/session"
	"allot/views"
	"allot/views/widget"
)

// TestPortalSignInQuestionWhole: at the dashboard's smallest pages the
// sign-in question is drawn whole at the bottom (a question is answered
// only when seen), the message scrolling in the rows it leaves; at a
// roomy page the message's caption and rules are kept.
func TestPortalSignInQuestionWhole(t *testing.T) {
	msg := "allot.example wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\nSign in to the claim portal.\n\nURI: https://allot.example\nVersion: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2026-11-23T20:00:00Z"
	for _, size := range [][2]int{{60, 12}, {60, 14}, {80, 18}, {100, 16}, {120, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := &views.Context{Styles: widget.DefaultStyles(), Wallet: &session.Wallet{}, Now: time.Now}
			p := NewPortal(ctx).(*portal)
			p.message = msg
			p.askSignIn("0x52908400098527886E0F7030069857D2E4169EE7")
			p.SetSize(size[0], size[1])
			view := strings.TrimRight(ansi.Strip(p.View()), "\n")
			lines := strings.Split(view, "\n")
			question := strings.Split(strings.TrimRight(ansi.Strip(p.confirm.View()), "\n"), "\n")
			if len(lines) > size[1] {
				t.Fatalf("%d lines on a page of %d:\n%s", len(lines), size[1], view)
			}
			if len(lines) < len(question) || strings.Join(lines[len(lines)-len(question):], "\n") != strings.Join(question, "\n") {
				t.Fatalf("the question is not whole at the bottom:\n%s", view)
			}
			if !strings.Contains(view, "lines 1–") && !strings.Contains(view, "Issued At") {
				t.Fatalf("neither the message nor where it scrolls is shown:\n%s", view)
			}
			if size[1] >= 30 && !strings.Contains(view, "exactly as it will be signed") {
				t.Fatalf("a roomy page lost the message's caption:\n%s", view)
			}
		})
	}
}

// TestPortalSignInMessageRoom: on the dashboard's pages at 80x24 and at
// 60x20 the sign-in message keeps five lines at least, the page's head
// and the rules giving way first: it showed two (60x20) or four (80x24)
// lines of eleven beside a head that says what the caption says again.
func TestPortalSignInMessageRoom(t *testing.T) {
	msg := "allot.example wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\nSign in to the claim portal.\n\nURI: https://allot.example\nVersion: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2026-11-23T20:00:00Z\nExpiration Time: 2026-11-23T20:10:00Z"
	for _, size := range [][2]int{{60, 16}, {60, 17}, {80, 19}, {80, 20}} {
		ctx := &views.Context{Styles: widget.DefaultStyles(), Wallet: &session.Wallet{}, Now: time.Now}
		p := NewPortal(ctx).(*portal)
		p.message = msg
		p.askSignIn("0x52908400098527886E0F7030069857D2E4169EE7")
		p.SetSize(size[0], size[1])
		view := ansi.Strip(p.View())
		var first, last int
		if _, err := fmt.Sscanf(view[strings.Index(view, "lines "):], "lines %d–%d", &first, &last); err != nil || last-first+1 < 5 {
			t.Errorf("%dx%d: %d lines of the message shown, want 5 at least:\n%s", size[0], size[1], last-first+1, view)
		}
		if strings.Count(view, "\n")+1 > size[1] {
			t.Errorf("%dx%d: taller than the page:\n%s", size[0], size[1], view)
		}
	}
}
