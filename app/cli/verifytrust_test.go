package cli

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
)

// TestProofOfAnUnpinnedVesterPasses: the profile pins another vester, not
// the one that holds the proof's root, which the token's contract list
// names. The proof still PASSes (exit 0), and a line of its own says the
// vester is not pinned and what pins it; history and upcoming read it too.
// Only signing needs the pin.
func TestProofOfAnUnpinnedVesterPasses(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	f.sess.Profile.Pins = pinsOf(t, f.sess.Chain, map[wallet.PinKind][]common.Address{wallet.PinVester: {f.pool}})

	r := f.run(t, "proof", testAllocation, "--verify")
	if r.code != 0 || !strings.Contains(r.stdout, "PASS "+f.tree.Root().Hex()+" in vester "+f.vester.Hex()) {
		t.Errorf("proof --verify of a valid proof on an unpinned vester: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "vester " + f.vester.Hex() + ": not pinned: claims refused until `allot pin vester " + f.vester.Hex() + "`"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("proof --verify does not say, on its own line, %q:\n%s", want, r.stdout)
	}
	if r := f.run(t, "history", testAllocation); r.code != 0 {
		t.Errorf("history of an allocation on an unpinned vester: exit %d\n%s", r.code, r.stderr)
	}
	if r := f.run(t, "upcoming", testAllocation, "-o", "json"); r.code != 0 || strings.Contains(r.stdout, `"items":[]`) {
		t.Errorf("upcoming of an allocation on an unpinned vester: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	f.sess.Profile.Pins = pinsOf(t, f.sess.Chain, map[wallet.PinKind][]common.Address{wallet.PinVester: {f.vester}})
	if r := f.run(t, "proof", testAllocation, "--verify"); r.code != 0 || !strings.Contains(r.stdout, "vester "+f.vester.Hex()+": pinned in ") {
		t.Errorf("proof --verify on a pinned vester: exit %d\n%s", r.code, r.stdout)
	}
}
