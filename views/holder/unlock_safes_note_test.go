package holder

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/wallet/safe"
)

// TestUnlockSaysWhichSafesTheKeyOwns: the status line of an unlock names
// the Safe of the profile the key owns and the way to act as it, since
// the page closes back to where u was pressed; a key that owns none is
// said unlocked, nothing more.
func TestUnlockSaysWhichSafesTheKeyOwns(t *testing.T) {
	owner, other := common.Address{0x01}, common.Address{0x02}
	treasury := common.HexToAddress("0x2Af577581960ed98CEEb6831ef3e85303FC68b4c")
	pane := &safesPane{list: []session.SafeAccount{
		{Address: treasury, Info: safe.Info{Address: treasury, Owners: []common.Address{owner, other}, Threshold: 2, Nonce: big.NewInt(0)}},
		{Address: common.Address{0x03}, Err: safe.ErrNotSafe},
	}}
	u := &unlock{safes: pane}
	if note := u.ownedSafesNote(owner); !strings.Contains(note, "owner of the Safe 0x2Af5") || !strings.Contains(note, "(u, ↓ to it)") {
		t.Errorf("an owner's note: %q", note)
	}
	if note := u.ownedSafesNote(common.Address{0x09}); note != "" {
		t.Errorf("a key that owns no Safe: %q", note)
	}
}
