package cli

import (
	"bytes"
	"strings"
	"testing"

	"allot/api"
)

// TestTablesGroupTokenAmounts: the contracts and pools tables write an
// amount of tokens as history, upcoming and proof do, and as the
// dashboard shows it: grouped, at least two decimals, never rounded. JSON
// and CSV keep the exact decimal.
func TestTablesGroupTokenAmounts(t *testing.T) {
	dec := func(s string) api.Decimal {
		d, err := api.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var contracts, pools, csv bytes.Buffer
	c := &api.List[api.Contract]{Items: api.Items[api.Contract]{{ID: "c1", Name: "Vester", Balance: dec("91978016.67")}}, Total: 1}
	if err := writeContracts(&contracts, c, formatTable, listToken{"Meridian (MRD)", "MRD"}); err != nil {
		t.Fatal(err)
	}
	p := &api.List[api.Pool]{Items: api.Items[api.Pool]{{ID: "p1", Name: "Pool", TotalStaked: dec("1250000.000000000000000001"), MinimumStakeAmount: dec("1000")}}, Total: 1}
	if err := writePools(&pools, p, formatTable, listToken{"Meridian (MRD)", "MRD"}); err != nil {
		t.Fatal(err)
	}
	if err := writeContracts(&csv, c, formatCSV, listToken{"Meridian (MRD)", "MRD"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ out, amount string }{
		{contracts.String(), "91,978,016.67"},
		{pools.String(), "1,250,000.000000000000000001"},
		{pools.String(), "1,000.00"},
		{csv.String(), ",91978016.67,"},
		{contracts.String(), "BALANCE (MRD)"},
		{pools.String(), "TOTAL STAKED (MRD)"},
		{pools.String(), "MIN STAKE (MRD)"},
	} {
		if !strings.Contains(want.out, want.amount) {
			t.Errorf("want %q in\n%s", want.amount, want.out)
		}
	}
}
