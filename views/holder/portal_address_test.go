package holder

import (
	"strings"
	"testing"
	"time"

	"allot/core/session"
	"allot/views"
)

// TestHumanityFieldRefusesBadChecksum: the wallet typed in the portal's
// humanity field is checked as on the command line: a mixed-case address
// with a wrong EIP-55 checksum is refused with the right one shown, and
// nothing is asked of the service.
func TestHumanityFieldRefusesBadChecksum(t *testing.T) {
	const good = "0x52908400098527886E0F7030069857D2E4169EE7"
	p := NewPortal(&views.Context{}).(*portal)
	p.humanityIn.SetValue("0x52908400098527886E0F7030069857D2E4169Ee7")
	if cmd := p.askHumanity(); cmd != nil || p.err == nil || !strings.Contains(p.err.Error(), good) {
		t.Errorf("wrong checksum: cmd %v, err %v", cmd != nil, p.err)
	}
}

// TestPortalOffersOnlyWhatCanWork: without a portal session, "sign out"
// and "reload submission" would do nothing, so neither is offered.
func TestPortalOffersOnlyWhatCanWork(t *testing.T) {
	p := NewPortal(&views.Context{Wallet: &session.Wallet{}, Now: time.Now}).(*portal)
	for _, b := range p.Keys().ShortHelp() {
		if b.Enabled() && (b.Help().Desc == "sign out" || b.Help().Desc == "reload submission") {
			t.Errorf("%q offered while signed out", b.Help().Desc)
		}
	}
}
