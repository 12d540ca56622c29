package views

import (
	"strings"
	"testing"
)

// TestHumanityFieldRefusesBadChecksum: the wallet typed in the portal's
// humanity field is checked as on the command line: a mixed-case address
// with a wrong EIP-55 checksum is refused with the right one shown, and
// nothing is asked of the service.
func TestHumanityFieldRefusesBadChecksum(t *testing.T) {
	const good = "0x52908400098527886E0F7030069857D2E4169EE7"
	p := NewPortal(&Context{}).(*portal)
	p.humanityIn.SetValue("0x52908400098527886E0F7030069857D2E4169Ee7")
	if cmd := p.askHumanity(); cmd != nil || p.err == nil || !strings.Contains(p.err.Error(), good) {
		t.Errorf("wrong checksum: cmd %v, err %v", cmd != nil, p.err)
	}
}
