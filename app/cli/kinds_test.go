package cli

import (
	"slices"
	"strings"
	"testing"

	"allot/core/journal"
	"allot/core/write"
	"allot/core/write/writetest"
	"allot/views/transactions"
)

// TestTransactionsNameEveryKindAsTheScreen: for a write of every kind the
// registry knows (core/write), `allot transactions` gives the label
// and the description the Transactions screen gives, the kind's own.
func TestTransactionsNameEveryKindAsTheScreen(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	writetest.Lost(t, s.Recorder(j))
	screen, err := transactions.Read(j, s.Deployment())
	if err != nil || len(screen) != len(write.Kinds()) {
		t.Fatalf("the screen lists %d rows (%v), want one of each of the %d kinds", len(screen), err, len(write.Kinds()))
	}
	r := runCLI(t, s, nil, "transactions", "-o", "json")
	var out struct {
		Transactions []transactionJSON `json:"transactions"`
	}
	decodeJSON(t, r, &out)
	table := runCLI(t, s, nil, "transactions")
	lines := strings.Split(strings.TrimSpace(table.stdout), "\n")
	if len(out.Transactions) != len(screen) || len(lines) != len(screen)+1 {
		t.Fatalf("the command lists %d rows as JSON, %d in the table; the screen %d:\n%s", len(out.Transactions), len(lines)-1, len(screen), table.stdout)
	}
	for i, row := range screen {
		k, _ := write.Of(row.Op)
		cli := out.Transactions[i]
		if cli.Kind != k.Label(row.Ref) || row.Kind != cli.Kind || !strings.Contains(lines[i+1], "  "+cli.Kind+"  ") {
			t.Errorf("%s: the command says %q (table %q), the screen %q, the registry %q", row.Op, cli.Kind, lines[i+1], row.Kind, k.Label(row.Ref))
		}
		if len(cli.About) == 0 || !slices.Equal(cli.About, row.About()) {
			t.Errorf("%s: the command describes it as %+v, the screen as %+v", row.Op, cli.About, row.About())
		}
	}
}
