package cli

import (
	"strings"
	"testing"
)

// TestSafeBatchNamesTheActThatFails: an act the service cannot build (an
// allocation it does not have) is named by its flag, after the act
// before it was built, and nothing is proposed.
func TestSafeBatchNamesTheActThatFails(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	owner0, pass0 := tr.wallet(0)
	const missing = "7f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f"
	r := tr.run(t, pass0, "safe", "batch", "--account", tr.safe.Hex(), "--owner", owner0,
		"--stake", tr.pool.ID+"="+tr.amount, "--claim", missing, "--proposal", tr.path("b.json"), "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "--claim "+missing+": ") {
		t.Errorf("exit %d, want a failure naming --claim %s:\n%s", r.code, missing, r.stderr)
	}
	if strings.Contains(r.stderr, "safeTxHash") {
		t.Errorf("a review was shown for a batch that could not be built:\n%s", r.stderr)
	}
}
