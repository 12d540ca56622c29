package cli

import (
	"encoding/csv"
	"regexp"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/core/session"
	"allot/wallet/history"
)

// stateAllocation is the embedded sandbox's demo allocation the seed left
// in state.
func stateAllocation(t *testing.T, s *session.Session, state string) string {
	t.Helper()
	for _, id := range append(s.Fixtures.LifeAllocationIDs, s.Fixtures.AllocationIDs...) {
		if s.Fixtures.AllocationStates[id] == state {
			return id
		}
	}
	t.Fatalf("the sandbox seeds no allocation %s", state)
	return ""
}

// historyEvents decodes `history -o json`, every field of it known.
func historyEvents(t *testing.T, r result) historyOutput {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var out historyOutput
	decodeJSON(t, r, &out)
	return out
}

var (
	isoTime     = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$`)
	txHash      = regexp.MustCompile(`^0x[0-9a-f]{64}$`)
	address     = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	exactAmount = regexp.MustCompile(`^\d+(\.\d+)?$`)
)

// TestHistorySeededStates: on the embedded sandbox, the history of each
// demo allocation tells what the seed did to it on chain, in order.
func TestHistorySeededStates(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	for state, want := range map[string]string{
		sandbox.StateClaimedInPart: "claim",
		sandbox.StateCancelled:     "cancel",
		sandbox.StateRevoked:       "claim revoke",
		sandbox.StateTransferred:   "transfer",
		sandbox.StateActive:        "",
	} {
		id := stateAllocation(t, s, state)
		out := historyEvents(t, runCLI(t, s, nil, "history", id, "-o", "json"))
		var kinds []string
		for _, e := range out.Events {
			kinds = append(kinds, e.Kind)
			if e.Allocation != id || !isoTime.MatchString(e.Time) || !txHash.MatchString(e.Transaction) ||
				!address.MatchString(e.Vester) || !address.MatchString(e.Sender) || e.Block == 0 {
				t.Errorf("%s: event %+v", state, e)
			}
			switch e.Kind {
			case "claim":
				if !exactAmount.MatchString(e.Amount) || e.Amount == "0" || !exactAmount.MatchString(e.Fee) || e.Symbol == "" ||
					!address.MatchString(e.Recipient) || e.ThroughHandler == nil || *e.ThroughHandler {
					t.Errorf("%s: claim %+v", state, e)
				}
			case "transfer":
				if !address.MatchString(e.NewBeneficiary) {
					t.Errorf("%s: transfer %+v", state, e)
				}
			}
		}
		if got := strings.Join(kinds, " "); got != want {
			t.Errorf("%s: events %q, want %q", state, got, want)
		}
		if out.Allocation != id || out.ToBlock == 0 || len(out.Warnings) != 0 || out.Skipped != 0 {
			t.Errorf("%s: %+v", state, out)
		}
	}
}

// TestHistoryWalletCSV: a wallet's claims as CSV, exactly the columns of
// a stakeholder's records, each claim named by its allocation.
func TestHistoryWalletCSV(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	claimed := stateAllocation(t, s, sandbox.StateClaimedInPart)
	proof := runCLI(t, s, nil, "proof", claimed, "-o", "json")
	wallet := regexp.MustCompile(`"walletAddress": "(0x[0-9a-fA-F]{40})"`).FindStringSubmatch(proof.stdout)
	if wallet == nil {
		t.Fatalf("no wallet in the proof:\n%s", proof.stdout)
	}
	r := runCLI(t, s, nil, "history", "--wallet", wallet[1], "-o", "csv")
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// token is the contract's address, symbol its symbol, as in
	// upcoming -o csv and both commands' JSON: a script merges them.
	if got := strings.Join(rows[0], ","); got != "time,block,transaction,allocation,amount,token,symbol,feeEther" {
		t.Fatalf("header %s", got)
	}
	found := false
	for _, row := range rows[1:] {
		if !isoTime.MatchString(row[0]) || !regexp.MustCompile(`^\d+$`).MatchString(row[1]) || !txHash.MatchString(row[2]) ||
			!exactAmount.MatchString(row[4]) || !common.IsHexAddress(row[5]) || common.HexToAddress(row[5]).Hex() != row[5] ||
			!regexp.MustCompile(`^[A-Z]+$`).MatchString(row[6]) || !exactAmount.MatchString(row[7]) {
			t.Errorf("row %q", row)
		}
		found = found || row[3] == claimed
	}
	if !found {
		t.Errorf("no claim of %s among\n%s", claimed, r.stdout)
	}
}

// TestHistoryTable: the table names each event and ends with a count.
func TestHistoryTable(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	r := runCLI(t, s, nil, "history", stateAllocation(t, s, sandbox.StateRevoked))
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "TIME (UTC)") || !strings.Contains(lines[1], " claim ") ||
		!strings.Contains(lines[2], " revoke ") || !regexp.MustCompile(`^1 claim, 2 events in blocks \d+ to \d+$`).MatchString(lines[3]) {
		t.Errorf("table:\n%s", r.stdout)
	}
	// For people, an amount reads as on every screen (23,650.1335); JSON
	// and CSV keep the exact ungrouped decimal.
	if len(lines) > 1 && !regexp.MustCompile(`\d,\d{3}\.\d`).MatchString(lines[1]) {
		t.Errorf("the claim's amount is not grouped as the screens write it: %q", lines[1])
	}
}

func TestHistoryUsage(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id := s.Fixtures.AllocationIDs[0]
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", id, "--wallet", "0x0000000000000000000000000000000000000001"}, "not both"},
		{[]string{"history", "--wallet", "0x12"}, "--wallet"},
		{[]string{"history", "not-a-uuid"}, "allocation id"},
		{[]string{"history", id, "--from-block", "9", "--to-block", "3"}, "--from-block 9 is after --to-block 3"},
		{[]string{"history", id, "-o", "xml"}, "want table, json, csv, koinly or cointracker"},
		{[]string{"history", id, "--from-block", "-1"}, "want a block number"},
		{[]string{"history", id, "--to-block", "0"}, "genesis"},
	} {
		r := runCLI(t, s, nil, tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want a usage error saying %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestHistoryProgress: a long scan tells its progress on stderr at each
// tenth, of the blocks and then of the checks, only when stderr is a
// terminal; a short one says nothing.
func TestHistoryProgress(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	e := &env{IO: IO{Stderr: &stderr}}
	if e.historyProgress() != nil {
		t.Fatal("progress without a terminal")
	}
	e.stderrTerminal = true
	progress := e.historyProgress()
	const blocks = 10 * longScanBlocks
	for scanned := uint64(0); scanned <= blocks; scanned += blocks / 40 {
		progress(history.Progress{Scanned: scanned, Blocks: blocks, Found: 3000})
	}
	for checked := 10; checked <= 3000; checked += 10 {
		progress(history.Progress{Scanned: blocks, Blocks: blocks, Found: 3000, Checked: checked})
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 20 || lines[0] != "allot: history: 10% of 500000 blocks scanned, 3000 found" ||
		!strings.HasPrefix(lines[10], "allot: history: 300 of 3000 checked") {
		t.Errorf("progress:\n%s", stderr.String())
	}

	stderr.Reset()
	short := e.historyProgress()
	short(history.Progress{Scanned: 100, Blocks: 100, Found: 5, Checked: 5})
	if stderr.Len() != 0 {
		t.Errorf("a short scan printed %q", stderr.String())
	}
}
