package cli

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// TestProofVerifyUnclaimable: `allot proof --verify` of a leaf the
// production vester divides by zero on (a piece of period length 0) shows
// no unlocked amount but says, in plain words, until when it cannot be
// claimed (docs/deployment.md D16); the proof's own checks still pass.
func TestProofVerifyUnclaimable(t *testing.T) {
	t.Parallel()
	const start = 1_600_000_000
	args := vesting.Args{
		Allocation: vesting.Allocation{ID: "alloc-zero", OriginalBeneficiary: common.Address{1}, TotalAllocation: big.NewInt(1e18)},
		Schedule: vesting.Schedule{Kind: vesting.Interval, UnlockScheduleID: "S-ZERO", Pieces: []vesting.Piece{
			{StartDate: start, PeriodLength: 0, NumberOfPeriods: 1, Percent: 300_000},
			{StartDate: start, PeriodLength: 365 * 86_400, NumberOfPeriods: 100, Percent: 700_000}, // ends in 2120
		}},
	}
	data, err := vesting.Encode(args)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "proof.json")
	if err := os.WriteFile(file, []byte(`{"id": "alloc-zero", "rootIndex": 0, "proof": [], "decodableArgs": "`+hexutil.Encode(data)+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	until := time.Unix(start+100*365*86_400, 0).UTC().Format("2006-01-02 15:04:05 UTC")
	want := "this schedule cannot be claimed on the production vester until " + until

	// No vester of the sandbox holds this made-up root: the root check
	// fails (exit 3), the schedule's passes; the warning is not a failure.
	r := runCLI(t, nil, nil, "proof", "--file", file, "--verify")
	if r.code != ExitCheckFail || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "PASS interval S-ZERO") {
		t.Errorf("exit %d, stdout does not say %q with the schedule passing:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "% = ") {
		t.Errorf("an unlocked amount is shown:\n%s", r.stdout)
	}

	r = runCLI(t, nil, nil, "proof", "--file", file, "--verify", "-o", "json")
	if r.code != ExitCheckFail || !strings.Contains(r.stdout, `"unlocked": null`) || !strings.Contains(r.stdout, want) {
		t.Errorf("exit %d, json:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
