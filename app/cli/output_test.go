package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"allot/api"
	"allot/internal/sanitize"
)

// TestWriteJSONEscapesWhatTerminalsActOn: encoding/json writes C1
// controls, bidirectional overrides and a RawMessage's invalid UTF-8 as
// they are; writeJSON escapes them, and the value decodes the same.
func TestWriteJSONEscapesWhatTerminalsActOn(t *testing.T) {
	v := map[string]any{
		"name": "pool \u009b2J \u202eevil é…",
		"raw":  json.RawMessage("\"\x9b\xc2\x85\""),
	}
	var out bytes.Buffer
	if err := writeJSON(&out, v); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u009b", "\u0085", "\u202e", "\x9b"} {
		if bytes.Contains(out.Bytes(), []byte(bad)) {
			t.Errorf("output holds %q:\n%q", bad, out.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if back["name"] != v["name"] || back["raw"] != "\ufffd\u0085" {
		t.Errorf("decoded %q", back)
	}
}

// TestCSVCells: RFC 4180 quoting, text sanitized and never a formula, a
// negative amount left a number.
func TestCSVCells(t *testing.T) {
	var out bytes.Buffer
	c := newCSV(&out, "name", "amount")
	c.row(csvText(`=HYPERLINK("http://x","a, b")`), "-12.5")
	c.row(csvText("+1"), "0.000000000000000001")
	c.row(csvText("@SUM(A1)"), "1")
	c.row(csvText("-2+3"), "2")
	c.row(csvText("a\nb\x1b[2J\u202e"), "3")
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(out.Bytes())).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out.String())
	}
	want := [][]string{
		{"name", "amount"},
		{`'=HYPERLINK("http://x","a, b")`, "-12.5"},
		{"'+1", "0.000000000000000001"},
		{"'@SUM(A1)", "1"},
		{"'-2+3", "2"},
		{sanitize.Line("a\nb\x1b[2J\u202e"), "3"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %q\nwant %q", rows, want)
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\u202e") {
		t.Errorf("output holds a control: %q", out.String())
	}
}

func TestCSVOnlyForLists(t *testing.T) {
	if err := (formatFlag{f: new(format)}).Set("csv"); err == nil || err.Error() != `-o "csv": want table or json` {
		t.Errorf("-o csv where no csv is written: %v", err)
	}
	f := new(format)
	if err := (formatFlag{f: f, withCSV: true}).Set("csv"); err != nil || *f != formatCSV {
		t.Errorf("-o csv for a list: %v, %q", err, *f)
	}
	if err := (formatFlag{f: f, withCSV: true}).Set("xml"); err == nil || err.Error() != `-o "xml": want table, json or csv` {
		t.Errorf("-o xml: %v", err)
	}
}

// TestStakesJSONAsWriteJSON: the stakes' hand-written JSON is writeJSON's,
// byte for byte, hostile strings, absent times and empty lists included.
func TestStakesJSONAsWriteJSON(t *testing.T) {
	var amount api.Decimal
	if err := amount.UnmarshalJSON([]byte(`"-1234.500000000000000001"`)); err != nil {
		t.Fatal(err)
	}
	at := api.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.FixedZone("x", 3600))}
	items := api.Items[api.Stake]{
		{ID: "a", Amount: amount, Status: "STAKED", CreatedAt: at, WalletAddress: "0xAbC"},
		{ID: "<b>&\"\\\x01\u2028\u009b\u202e\xff é", Status: "\x1b[2J", WalletAddress: "\t"},
	}
	for _, list := range []api.List[api.Stake]{{Items: items, Total: 7}, {Items: api.Items[api.Stake]{}}, {}} {
		var want, got bytes.Buffer
		if err := writeJSON(&want, list); err != nil {
			t.Fatal(err)
		}
		if err := writeStakesJSON(&got, &list); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("got\n%q\nwant\n%q", got.String(), want.String())
		}
	}
}
