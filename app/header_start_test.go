package app

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/views/widget"
)

// TestHeaderKeepsItsStartAt80: unlocked and signed in to the portal, on a
// page that says how fresh its rows are, the header keeps what matters
// first: at 80 columns it starts with "allot │ profile sandbox" and keeps
// SANDBOX and both countdowns whole (the token's long name, the account's
// address and the age of the rows give way first); at 60 columns the
// compact top line keeps the page's name whole beside them.
func TestHeaderKeepsItsStartAt80(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: FullWidth, Height: FullHeight})
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
	f.runes("1").wait("Team & Advisors Vesting").settle()
	m := f.quit()
	countdowns := regexp.MustCompile(`SANDBOX.* │ (MRD|token MRD) │ (0x\S+ )?unlocked \d+:\d\d · portal \d+:\d\d( │ |$)`)

	header := lines(m)[0]
	if !strings.HasPrefix(header, "allot │ profile sandbox │ ") || !countdowns.MatchString(header) {
		t.Errorf("header at 80 columns: %q", header)
	}

	// The program has ended: the final model is the test's to resize.
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	top := lines(m)[0]
	if !strings.HasPrefix(top, "1 Contracts │ ") || !countdowns.MatchString(top) {
		t.Errorf("top line at 60 columns: %q", top)
	}
}

// TestHeaderGivesRoomBack: a part shortened before a later step made room
// enough gets its room back: on a profile without the SANDBOX badge, once
// the account's address has gone, "token MRD" fits again at 80 columns.
func TestHeaderGivesRoomBack(t *testing.T) {
	t.Parallel()
	parts := make([]forms, partBusy+1)
	parts[partBrand] = forms{"allot", ""}
	parts[partProfile], parts[partBadge] = profileParts(widget.DefaultStyles(), "sandbox", false, false)
	parts[partToken] = forms{"token Meridian (MRD)", "token MRD", "MRD", ""}
	parts[partWallet] = forms{"0x3e3D…7Ae2 unlocked 4:55 · portal 59:55", "unlocked 4:55 · portal 59:55"}
	parts[partFresh] = forms{"updated 13s ago", "13s ago", ""}
	got := shrink(parts, headerSteps, partProfile, " │ ", 80)
	if want := "allot │ profile sandbox │ token MRD │ unlocked 4:55 · portal 59:55 │ 13s ago"; got != want {
		t.Errorf("header at 80 columns:\n got %q\nwant %q", got, want)
	}
}

// TestTopLineGivesNoRoomToPadding: on the compact top line, where the
// token's symbol cannot come back, the SANDBOX badge's padding does not
// take the room it left.
func TestTopLineGivesNoRoomToPadding(t *testing.T) {
	t.Parallel()
	parts := make([]forms, partBusy+1)
	parts[partProfile], parts[partBadge] = profileParts(widget.DefaultStyles(), "sandbox", true, false)
	parts[partToken] = forms{"token Meridian (MRD)", "token MRD", "MRD", ""}
	parts[partWallet] = forms{"0x3e3D…7Ae2 unlocked 4:48 · portal 59:51", "unlocked 4:48 · portal 59:51"}
	got := ansi.Strip(shrink(parts, compactSteps, partProfile, " │ ", 42))
	if want := "SANDBOX │ unlocked 4:48 · portal 59:51"; got != want {
		t.Errorf("top line's header in 42 columns:\n got %q\nwant %q", got, want)
	}
}
