package cli

import (
	"bytes"
	"strings"
	"testing"

	"allot/api"
)

// TestTablesGroupTokenAmounts: the contracts and pools tables write an
// amount of tokens as history, upcoming and proof do, and as the
// dashboard shows it: grouped, at least two decimals, never rounded, the
// token named in the column's header; an APY as a percentage with two
// decimals. JSON and CSV keep the exact decimal.
func TestTablesGroupTokenAmounts(t *testing.T) {
	t.Parallel()
	dec := func(s string) api.Decimal {
		d, err := api.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var contracts, pools, csv bytes.Buffer
	mrd := listedToken{text: "Meridian (MRD)", unit: "MRD"}
	c := &api.List[api.Contract]{Items: api.Items[api.Contract]{{ID: "c1", Name: "Vester", Balance: dec("91978016.67")}}, Total: 1}
	if err := writeContracts(&contracts, c, formatTable, mrd); err != nil {
		t.Fatal(err)
	}
	p := &api.List[api.Pool]{Items: api.Items[api.Pool]{{ID: "p1", Name: "Pool", TotalStaked: dec("1250000.000000000000000001"), MinimumStakeAmount: dec("1000"), MaxAPY: dec("6.5")}}, Total: 1}
	if err := writePools(&pools, p, formatTable, mrd); err != nil {
		t.Fatal(err)
	}
	if err := writeContracts(&csv, c, formatCSV, mrd); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ out, amount string }{
		{contracts.String(), "91,978,016.67"},
		{pools.String(), "1,250,000.000000000000000001"},
		{pools.String(), "1,000.00"},
		{pools.String(), "6.50%"}, // as the dashboard writes it
		{contracts.String(), "BALANCE (MRD)"},
		{pools.String(), "TOTAL STAKED (MRD)"},
		{pools.String(), "MIN STAKE (MRD)"},
		{csv.String(), ",91978016.67,"},
	} {
		if !strings.Contains(want.out, want.amount) {
			t.Errorf("want %q in\n%s", want.amount, want.out)
		}
	}
}
