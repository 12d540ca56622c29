package cli

import (
	"encoding/csv"
	"strings"
	"testing"

	"allot/core/journal"
	"allot/core/txlog"
)

// TestTransactionsCommand: allot transactions lists what the
// Transactions screen lists, the same rows in the same order, as a table,
// -o json or -o csv, filtered by kind and status in any case.
func TestTransactionsCommand(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	for _, args := range [][]string{
		{"tx", "start", "--contract", fx.ContractIDs[0], "--token", s.TokenIDs[0], "--allocation", fx.AllocationIDs[0]},
		{"tx", "fund", "--token", s.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=1"},
	} {
		if r := runCLI(t, s, nil, args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	screen, err := txlog.Read(j, s.Deployment())
	if err != nil || len(screen) != 2 {
		t.Fatalf("the screen's rows: %+v, %v", screen, err)
	}

	r := runCLI(t, s, nil, "transactions")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "TRANSACTION") {
		t.Fatalf("table: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for i, row := range screen {
		if !strings.HasPrefix(lines[i+1], row.ID) || !strings.Contains(lines[i+1], row.Kind) || !strings.Contains(lines[i+1], row.Status) {
			t.Errorf("row %d is %q, the screen's %+v", i, lines[i+1], row)
		}
	}

	r = runCLI(t, s, nil, "transactions", "-o", "json", "--kind", "start_distribution")
	var out struct {
		Transactions []transactionJSON `json:"transactions"`
	}
	decodeJSON(t, r, &out)
	if len(out.Transactions) != 1 || out.Transactions[0].Kind != "START_DISTRIBUTION" || out.Transactions[0].Status != "CREATED" || len(out.Transactions[0].Sent) == 0 {
		t.Fatalf("-o json --kind start_distribution: %+v", out.Transactions)
	}

	r = runCLI(t, s, nil, "transactions", "-o", "csv", "--status", "created")
	records, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(records) != 3 || records[0][0] != "transaction" {
		t.Fatalf("-o csv --status created: %v\n%s", err, r.stdout)
	}

	r = runCLI(t, s, nil, "transactions", "--status", "UNKNOWN")
	if r.code != 0 || !strings.Contains(r.stdout, "No transactions of that kind and status") {
		t.Errorf("--status UNKNOWN: exit %d\n%s", r.code, r.stdout)
	}
}

// TestTransactionsFilterSaysWhatThereIs: a --kind that matches no row
// ("fund" for FUND_DISTRIBUTION) is answered with the kinds and statuses
// there are, not only "No transactions of that kind and status".
func TestTransactionsFilterSaysWhatThereIs(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	if r := runCLI(t, s, nil, "tx", "fund", "--token", s.TokenIDs[0], "--item", fx.AllocationIDs[0]+"=1"); r.code != 0 {
		t.Fatalf("tx fund: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, s, nil, "transactions", "--kind", "fund")
	if r.code != 0 || !strings.Contains(r.stdout, "kinds here: FUND_DISTRIBUTION") || !strings.Contains(r.stdout, "statuses here: CREATED") {
		t.Errorf("--kind fund: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
