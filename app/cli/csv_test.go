package cli

import (
	"encoding/csv"
	"strings"
	"testing"

	"allot/api"
	"allot/internal/isotime"
)

// TestListsAsCSV: contracts, pools and stakes -o csv hold a header row and
// one row an item, the amounts the same text -o json writes.
func TestListsAsCSV(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	read := func(args ...string) [][]string {
		t.Helper()
		r := runCLI(t, s, nil, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
		rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
		if err != nil {
			t.Fatalf("%v: not CSV: %v\n%s", args, err, r.stdout)
		}
		return rows
	}

	pool := s.Fixtures.PoolIDs[0]
	rows := read("stakes", "--pool", pool, "-o", "csv")
	var list struct {
		Items []api.Stake `json:"items"`
		Total int         `json:"total"`
	}
	decodeJSON(t, runCLI(t, s, nil, "stakes", "--pool", pool, "-o", "json"), &list)
	if strings.Join(rows[0], ",") != "id,walletAddress,amount,status,createdAt" {
		t.Fatalf("stakes header %q", rows[0])
	}
	if len(rows) != len(list.Items)+1 || len(list.Items) == 0 {
		t.Fatalf("stakes: %d rows for %d items", len(rows), len(list.Items))
	}
	for i, st := range list.Items {
		want := []string{st.ID, st.WalletAddress, st.Amount.String(), st.Status, isotime.Format(st.CreatedAt.Time)}
		if strings.Join(rows[i+1], ",") != strings.Join(want, ",") {
			t.Fatalf("stake %d: %q, want %q", i, rows[i+1], want)
		}
	}

	pools := read("pools", "-o", "csv")
	if len(pools[0]) != 15 || pools[0][3] != "totalStaked" || len(pools) < 2 {
		t.Errorf("pools: header %q, %d rows", pools[0], len(pools))
	}
	contracts := read("contracts", "-o", "csv")
	if strings.Join(contracts[0], ",") != "id,name,type,address,balance,createdAt" || len(contracts) < 2 {
		t.Errorf("contracts: header %q, %d rows", contracts[0], len(contracts))
	}

	if r := runCLI(t, s, nil, "humanity", s.Fixtures.Wallets[0].Address, "-o", "csv"); r.code != 2 {
		t.Errorf("humanity -o csv: exit %d, want a usage error", r.code)
	}
}
