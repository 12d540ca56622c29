package cli

import (
	"strings"
	"testing"

	"allot/core/journal/journaltest"
)

// beyondUint256 is one base unit more than a contract can hold.
const beyondUint256 = "115792089237316195423570985008687907853269984665640564039457.584007913129639936"

// TestAmountRuleBeforeAnything: an amount the rule refuses (at most 18
// decimals, base units within a uint256: docs/deployment.md D13) is a
// usage mistake said at once by every command that takes one: nothing is
// sent, journaled, signed in or asked of the portal first.
func TestAmountRuleBeforeAnything(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fx := s.Fixtures
	wallet := fx.Wallets[0].Address
	for _, amount := range []string{"1.1234567890123456789", beyondUint256} {
		for _, args := range [][]string{
			{"tx", "fund", "--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=" + amount},
			{"claim", fx.AllocationIDs[0], "--sender", wallet, "--amount", amount},
			{"claim", fx.AllocationIDs[0], "--amount", amount, "--sign", "--account", wallet},
			{"stake", "--pool", fx.PoolIDs[0], "--amount", amount, "--account", wallet},
		} {
			r := runCLI(t, s, nil, args...)
			if r.code != ExitUsage || !strings.Contains(r.stderr, "at most 18 decimals") && !strings.Contains(r.stderr, "do not fit a uint256") {
				t.Errorf("%s …%s: exit %d, stderr\n%s", strings.Join(args[:2], " "), amount[len(amount)-4:], r.code, r.stderr)
			}
		}
	}
	if applied := s.Applied(); len(applied) != 0 {
		t.Errorf("the service applied %d writes, want none: %+v", len(applied), applied)
	}
	for _, e := range journaltest.Entries(t, s.StateDir) {
		t.Errorf("the journal holds %s %s, want nothing", e.Kind, e.Op)
	}
}

// TestFundWarnsOfOneAllocationTwice: two --items for one allocation are
// sent, as the dashboard sends them after its warning, but not without a
// word; a body's data entries are named as the body names them.
func TestFundWarnsOfOneAllocationTwice(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	a, b := fx.AllocationIDs[0], fx.AllocationIDs[1]
	r := runCLI(t, s, nil, "tx", "fund", "--token", fx.TokenIDs[0], "--item", a+"=1", "--item", b+"=1", "--item", strings.ToUpper(a)+"=2")
	want := "allot: warning: tx fund: --item 1 and --item 3 fund the same allocation: it is funded twice\n"
	if r.code != 0 || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("exit %d, stderr\n%s\nwant it to start\n%s", r.code, r.stderr, want)
	}
	if r := runCLI(t, s, nil, "tx", "fund", "--token", fx.TokenIDs[0], "--item", a+"=1", "--item", b+"=1"); r.code != 0 || strings.Contains(r.stderr, "twice") {
		t.Errorf("distinct allocations: exit %d, stderr\n%s", r.code, r.stderr)
	}
}
