package cli

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"allot/api"
	"allot/core/journal"
	"allot/core/rows"
	"allot/core/txlog"
)

// probe is a column added to a description, to show that the one edit
// reaches every place: its value names the row's first column's.
func probe[R any](cs rows.Columns[R]) rows.Column[R] {
	return rows.Column[R]{Title: "Probe", Field: "probe", Value: func(r *R, dst []byte) []byte {
		return cs[0].Value(r, append(dst, "probe:"...))
	}}
}

// withProbe adds probe to *cs until the test ends.
func withProbe[R any](t *testing.T, cs *rows.Columns[R]) {
	was := *cs
	*cs = append(slices.Clip(was), probe(was))
	t.Cleanup(func() { *cs = was })
}

// TestListsAreTheirDescriptions: the table and the CSV of each list
// (contracts, pools, stakes, transactions) are the columns its description
// in core/rows gives them, headers and values, in its order; a column
// added to the description shows in both, from that one edit.
func TestListsAreTheirDescriptions(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	if r := runCLI(t, s, nil, "tx", "fund", "--token", s.TokenIDs[0], "--item", fx.AllocationIDs[0]+"=1"); r.code != 0 {
		t.Fatalf("tx fund: exit %d: %s", r.code, r.stderr)
	}
	withProbe(t, &rows.Contracts)
	withProbe(t, &rows.Pools)
	withProbe(t, &rows.Stakes)
	withProbe(t, &rows.Transactions)

	var contracts api.List[api.Contract]
	decodeJSON(t, runCLI(t, s, nil, "contracts", "-o", "json"), &contracts)
	checkList(t, "MRD", rows.Contracts, contracts.Items, func(args ...string) result { return runCLI(t, s, nil, append([]string{"contracts"}, args...)...) })

	var pools api.List[api.Pool]
	decodeJSON(t, runCLI(t, s, nil, "pools", "-o", "json"), &pools)
	checkList(t, "MRD", rows.Pools, pools.Items, func(args ...string) result { return runCLI(t, s, nil, append([]string{"pools"}, args...)...) })

	// By its id, the stakes' table learns the pool's token for its header.
	var stakes api.List[api.Stake]
	pool := fx.PoolIDs[0]
	decodeJSON(t, runCLI(t, s, nil, "stakes", "--pool", pool, "-o", "json"), &stakes)
	stakeRows := make([]api.StakeRow, len(stakes.Items))
	for i, st := range stakes.Items {
		var err error
		if stakeRows[i], err = api.StakeRowOf(st); err != nil {
			t.Fatal(err)
		}
	}
	checkList(t, "MRD", rows.Stakes, stakeRows, func(args ...string) result {
		return runCLI(t, s, nil, append([]string{"stakes", "--pool", pool}, args...)...)
	})

	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	txs, err := txlog.Read(j, s.Deployment())
	if err != nil || len(txs) != 1 {
		t.Fatalf("the journal's transactions: %+v, %v", txs, err)
	}
	checkList(t, "", rows.Transactions, txs, func(args ...string) result {
		return runCLI(t, s, nil, append([]string{"transactions"}, args...)...)
	})
}

// checkList checks a list command's table and CSV against description cs
// and the items it lists (unit: the token named in the amounts' headers).
func checkList[R any](t *testing.T, unit string, cs rows.Columns[R], items []R, run func(args ...string) result) {
	t.Helper()
	if len(items) == 0 {
		t.Fatal("nothing listed")
	}
	table := run()
	lines := strings.Split(table.stdout, "\n")
	if table.code != 0 || len(lines) < len(items)+1 {
		t.Fatalf("table: exit %d\n%s%s", table.code, table.stdout, table.stderr)
	}
	inOrder := func(line string, cells []string) bool {
		at := 0
		for _, c := range cells {
			i := strings.Index(line[at:], c)
			if i < 0 {
				return false
			}
			at += i + len(c)
		}
		return true
	}
	tcols := cs.In(rows.Table)
	if headers := tcols.Headers(rows.Table, unit); !inOrder(lines[0], headers) || !slices.Contains(headers, "PROBE") {
		t.Errorf("table's header %q, want %q", lines[0], headers)
	}
	for i := range items {
		var cells []string
		for _, c := range tcols {
			cells = append(cells, c.Cell(&items[i]))
		}
		if !inOrder(lines[i+1], cells) {
			t.Errorf("table's row %d %q, want %q", i, lines[i+1], cells)
		}
	}

	out := run("-o", "csv")
	records, err := csv.NewReader(strings.NewReader(out.stdout)).ReadAll()
	if out.code != 0 || err != nil || len(records) != len(items)+1 {
		t.Fatalf("csv: exit %d, %v\n%s%s", out.code, err, out.stdout, out.stderr)
	}
	ccols := cs.In(rows.CSV)
	if headers := ccols.Headers(rows.CSV, ""); !slices.Equal(records[0], headers) || !slices.Contains(headers, "probe") {
		t.Errorf("csv's header %q, want %q", records[0], headers)
	}
	for i := range items {
		var cells []string
		for _, c := range ccols {
			v := string(c.Value(&items[i], nil))
			if c.Kind == rows.Text {
				v = csvText(v)
			}
			cells = append(cells, v)
		}
		if !slices.Equal(records[i+1], cells) {
			t.Errorf("csv's row %d %q, want %q", i, records[i+1], cells)
		}
	}
}
