package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/session"
	"allot/views"
	"allot/views/holder"
	"allot/views/operator"
	"allot/views/schedule"
	"allot/wallet"
)

// TestReadOnlyDashboard: a read-only session says so in the header, and
// no page that would sign, send or write opens: the status line says why
// in one line, and the page on show stays; the help says it beside the
// key.
func TestReadOnlyDashboard(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	s.SetReadOnly(session.ReadOnlyFlag)
	m := newModel(s)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	if top := lines(m)[0]; !strings.Contains(top, "SANDBOX READ-ONLY") {
		t.Errorf("header %q", top)
	}
	contract := api.Contract{ID: "14f74a96-09be-51d7-9a23-06d5c91a3733", Name: "Team & Advisors Vesting"}
	for _, page := range []views.Screen{
		operator.New(m.ctx, contract, api.ActionInitialize),
		schedule.New(m.ctx),
		holder.NewClaim(m.ctx, "b99d73de-cf9b-513d-b8a6-bab0ccae0a79", "1", [20]byte{1}, wallet.ClaimOutlook{}, "MRD"),
	} {
		m.Update(views.NavigateMsg{Screen: page})
		if m.top() == page {
			t.Errorf("%s opened", page.Title())
		}
		if status, isErr := m.shownStatus(); !isErr || !strings.HasSuffix(status, "profile sandbox is read-only (--read-only): nothing is signed, sent or written") {
			t.Errorf("%s: status %q", page.Title(), status)
		}
	}

	// With rows on screen: the footer offers no write, and its key says why.
	f := newFlowOn(t, s)
	view := strings.Split(settle(t, f.tm).view, "\n")
	if footer := view[len(view)-1]; strings.Contains(footer, "initialize") || !strings.Contains(footer, "? help") {
		t.Errorf("Contracts' footer offers a write: %q", footer)
	}
	f.runes("I").wait("is read-only (--read-only)")
	// The help lists the write with the reason it is off.
	f.runes("?").wait("I initialize (profile sandbox is read-only")
	f.quit()
}
