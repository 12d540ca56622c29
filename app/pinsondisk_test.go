package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/session/sessiontest"
	"allot/wallet"
)

// TestPinsEditedElsewhereCountInAnOpenDashboard: the dashboard is open
// when another allot (or an editor) takes the vesters out of the profile's
// file: the next claim's review reads the file, refuses the claim and
// says where it read the pins; once they are back in the file, the next
// review asks to sign. The dashboard keeps no pins of its own.
func TestPinsEditedElsewhereCountInAnOpenDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir()) // an honest service: nothing is rewritten
	h.Session.StateDir = t.TempDir()
	id := h.Session.Fixtures.AllocationIDs[0]
	pins := h.Session.Profile.Pins
	path := h.PinIn(t, pins)

	f := newFlowOn(t, h.Session)
	f.unlock()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	edit := func(remove bool) {
		for _, v := range pins.Vesters {
			e := config.PinEdit{Profile: "hostile", Kind: wallet.PinVester, Address: common.HexToAddress(v), Remove: remove}
			e.CodeHash = common.HexToHash(pins.CodeHashes[v])
			if err := config.EditPinsFile(path, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	edit(true)
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("REFUSED by the signing policy; nothing can be signed")
	f.waitFrom(f.mark, "is not pinned in the profile").waitFrom(f.mark, "pins read at this review from")
	if seen := f.seen.String()[f.mark:]; !strings.Contains(strings.Join(strings.Fields(seen), ""), path) {
		t.Errorf("the review does not say it read the pins from %s", path)
	}
	// No to the pin question; esc then leaves the claim, and C opens a
	// new one.
	f.waitFrom(f.mark, "as a vester?") // the pin question, asked once what allot knows is read
	f.key(tea.KeyEnter).wait("✗ not signed: the signing policy refused it")
	f.key(tea.KeyEsc).wait("C claim")

	edit(false)
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("Sign and send this transaction?")
	f.quit()
}
