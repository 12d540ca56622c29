package rows

import (
	"testing"
	"time"

	"allot/api"
)

// TestDescriptionsAreWhole: every column has a title of its own and a
// value; one in the CSV has a field to head it there.
func TestDescriptionsAreWhole(t *testing.T) {
	checkWhole(t, "contracts", Contracts)
	checkWhole(t, "pools", Pools)
	checkWhole(t, "stakes", Stakes)
	checkWhole(t, "transactions", Transactions)
}

func checkWhole[R any](t *testing.T, name string, cs Columns[R]) {
	seen := map[string]bool{}
	for i, c := range cs {
		if c.Title == "" || seen[c.Title] || c.Value == nil || c.In(CSV) && c.Field == "" {
			t.Errorf("%s: column %d (%q) has no title of its own, no value or no CSV field", name, i, c.Title)
		}
		seen[c.Title] = true
	}
}

// TestKindsAsTheTablesWriteThem: each kind's exact value as a table cell
// and in the details, the headers naming the unit.
func TestKindsAsTheTablesWriteThem(t *testing.T) {
	for _, tt := range []struct {
		kind        Kind
		exact, cell string
	}{
		{Text, "Whale pool", "Whale pool"},
		{Text, "", ""},
		{Tokens, "1250000.5", "1,250,000.50"},
		{Tokens, "", "-"},
		{Ether, "0.0005", "0.0005"},
		{Percent, "6.5", "6.50%"},
		{Minute, "2026-11-22T10:04:05.123Z", "2026-11-22 10:04 UTC"},
		{Second, "2026-11-22T10:04:05.123Z", "2026-11-22 10:04:05"},
		{Minute, "", "-"},
		{Seconds, "90061", "1d 1h"},
		{Count, "12", "12"},
	} {
		if got := string(AppendCell(nil, tt.kind, []byte(tt.exact))); got != tt.cell {
			t.Errorf("kind %d: %q reads %q, want %q", tt.kind, tt.exact, got, tt.cell)
		}
	}

	p := api.Pool{Name: "Flex"}
	p.TotalStaked, _ = api.ParseDecimal("127721.3")
	p.ClaimNativeTokenFee, _ = api.ParseDecimal("0.0001")
	at := func(t time.Time) string {
		if t.IsZero() {
			return "not set"
		}
		return t.Format(time.Kitchen)
	}
	for title, want := range map[string][3]string{
		"Total staked":  {"Total staked (MRD)", "TOTAL STAKED (MRD)", "127,721.30 MRD"},
		"Claim fee":     {"Claim fee (ether)", "CLAIM FEE (ether)", "0.0001 ether"},
		"Name":          {"Name", "NAME", "Flex"},
		"Period finish": {"Period finish", "PERIOD FINISH", "not set"},
		"Contract":      {"Contract", "CONTRACT", ""},
	} {
		for _, c := range Pools {
			if c.Title != title {
				continue
			}
			if got := [3]string{c.Header(Dashboard, "MRD"), c.Header(Table, "MRD"), c.Detail(&p, "MRD", at)}; got != want {
				t.Errorf("%s: %q, want %q", title, got, want)
			}
		}
	}
}
