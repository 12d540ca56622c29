package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/core/rows"
	"allot/core/session"
	"allot/internal/amount"
	"allot/internal/isotime"
	"allot/internal/sanitize"
)

// TestWriteJSONEscapesWhatTerminalsActOn: encoding/json writes C1
// controls, bidirectional overrides and a RawMessage's invalid UTF-8 as
// they are; writeJSON escapes them, and the value decodes the same.
func TestWriteJSONEscapesWhatTerminalsActOn(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	if err := (formatFlag{f: new(format)}).Set("csv"); err == nil || err.Error() != "want table or json" {
		t.Errorf("-o csv where no csv is written: %v", err)
	}
	f := new(format)
	if err := (formatFlag{f: f, withCSV: true}).Set("csv"); err != nil || *f != formatCSV {
		t.Errorf("-o csv for a list: %v, %q", err, *f)
	}
	if err := (formatFlag{f: f, withCSV: true}).Set("xml"); err == nil || err.Error() != "want table, json or csv" {
		t.Errorf("-o xml: %v", err)
	}
}

// TestStakesJSONAsWriteJSON: the stakes' streamed JSON is writeJSON's of
// the same list, byte for byte: hostile statuses, exact amounts, absent
// times, mixed-case addresses and empty lists included.
func TestStakesJSONAsWriteJSON(t *testing.T) {
	t.Parallel()
	rows := testStakeRows(t)
	for _, rows := range [][]api.StakeRow{rows, nil} {
		list := api.List[api.Stake]{Items: api.Items[api.Stake]{}, Total: 7}
		for i := range rows {
			list.Items = append(list.Items, rows[i].Stake())
		}
		var want, got bytes.Buffer
		if err := writeJSON(&want, list); err != nil {
			t.Fatal(err)
		}
		jw := newStakesJSON(&got)
		if err := jw.rows(rows); err != nil {
			t.Fatal(err)
		}
		if err := jw.end(7); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("got\n%q\nwant\n%q", got.String(), want.String())
		}
	}
}

// testStakeRows are stakes whose every field is out of the ordinary.
func testStakeRows(t *testing.T) []api.StakeRow {
	t.Helper()
	amount := func(s string) api.Decimal {
		d, err := api.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	at := api.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.FixedZone("x", 3600))}
	stakes := []api.Stake{
		{ID: "3f1a2b4c-0000-4000-8000-000000000001", Amount: amount("-1234.500000000000000001"), Status: "STAKED", CreatedAt: at, WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7"},
		{ID: "3F1A2B4C-0000-4000-8000-00000000000A", Amount: amount("0.000000000000000001"), Status: "<b>&\"\\\x01\u2028\u009b\u202e\xff é", WalletAddress: "0xabcdef0000000000000000000000000000000001"},
		{ID: "3f1a2b4c-0000-4000-8000-000000000002", Amount: amount("1250"), Status: "\x1b[2J", CreatedAt: at, WalletAddress: "0xABCDEF0000000000000000000000000000000002"},
		{ID: "3f1a2b4c-0000-4000-8000-000000000003", Amount: amount("=1+2"[1:2]), Status: "=HYPERLINK(\"x\")", CreatedAt: at, WalletAddress: "0xabcdef0000000000000000000000000000000003"},
		{ID: "3f1a2b4c-0000-4000-8000-000000000004", Amount: amount("115792089237316195423570985008687907853269984665640564039457.584007913129639936"), Status: "UNSTAKING", CreatedAt: at, WalletAddress: "0xabcdef0000000000000000000000000000000004"},
	}
	rows := make([]api.StakeRow, len(stakes))
	for i, st := range stakes {
		var err error
		if rows[i], err = api.StakeRowOf(st); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

// TestStakesCSVAsCSVTable: the stakes' streamed CSV is what csvTable
// writes for the same stakes.
func TestStakesCSVAsCSVTable(t *testing.T) {
	t.Parallel()
	stakes := testStakeRows(t)
	var want, got bytes.Buffer
	tw := newCSV(&want, "id", "walletAddress", "amount", "status", "createdAt")
	for i := range stakes {
		st := stakes[i].Stake()
		created := ""
		if !st.CreatedAt.IsZero() {
			created = isotime.Format(st.CreatedAt.Time)
		}
		tw.row(csvText(st.ID), csvText(st.WalletAddress), st.Amount.String(), csvText(st.Status), created)
	}
	if err := tw.flush(); err != nil {
		t.Fatal(err)
	}
	if err := writeRowsCSV(&got, rows.Stakes, rowsOf(stakes)); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}

// TestStakesTableAsTable: the stakes' table is what table (tabwriter)
// writes for the same stakes.
func TestStakesTableAsTable(t *testing.T) {
	t.Parallel()
	for _, rows := range [][]api.StakeRow{testStakeRows(t), nil} {
		var want, got bytes.Buffer
		tw := newTable(&want, "ID", "WALLET", "AMOUNT (MRD)", "STATUS", "CREATED")
		tw.alignDecimals(2)
		for i := range rows {
			st := rows[i].Stake()
			tw.row(st.ID, st.WalletAddress, amount.Tokens(st.Amount.String()), st.Status, api.FormatTime(st.CreatedAt))
		}
		if err := tw.flush(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&want, "%d of %d stakes\n", len(rows), 9)
		if err := writeStakesTable(&got, stakeChunks{rows[:min(2, len(rows))], rows[min(2, len(rows)):]}, 9, "MRD"); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
		}
	}
}

// TestStakesTableCountBelowRows: a total below the stakes listed is
// said beside their count, never as "3 of 2 stakes".
func TestStakesTableCountBelowRows(t *testing.T) {
	t.Parallel()
	rows := testStakeRows(t)
	var got bytes.Buffer
	if err := writeStakesTable(&got, stakeChunks{rows}, 2, ""); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("\n%d stakes (the service counts 2)\n", len(rows)); len(rows) <= 2 || !strings.HasSuffix(got.String(), want) {
		t.Errorf("%d stakes the service counts as 2 end %q, want %q", len(rows), got.String()[max(0, got.Len()-60):], want)
	}
}

// TestStakesCutMidStream: a listing cut after some stakes leaves them on
// stdout (the JSON unclosed, so that no reader takes it for the whole),
// exits 1 and says how many arrived; a refusal before any stake leaves
// stdout empty.
func TestStakesCutMidStream(t *testing.T) {
	t.Parallel()
	const pool = "3f1a2b4c-0000-4000-8000-000000000001"
	var items []string
	for i := range 10_000 {
		items = append(items, fmt.Sprintf(`{"id":"3f1a2b4c-0000-4000-8000-%012d","amount":"%d","status":"STAKED","createdAt":"2026-01-02T03:04:05.000Z","walletAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}`, i, i))
	}
	whole := `{"isProcessed":true,"result":{"items":[` + strings.Join(items, ",") + `],"total":10000}}`
	cut := strings.Index(whole, items[7000]) + 50
	body := whole[:cut]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-service-api-token") != "k" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()
	open := func(key string) *session.Session {
		client, err := api.New(api.Config{BaseURL: srv.URL, APIKey: key, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return &session.Session{Name: "cut", API: client, Requests: session.NewRequestLog(), StateDir: t.TempDir(), Now: time.Now}
	}
	s := open("k")

	r := runCLI(t, s, nil, "stakes", "--pool", pool, "-o", "json")
	if r.code != 1 || !strings.Contains(r.stderr, "only the first 7000 stakes arrived") || strings.Count(r.stdout, `"id"`) != 7000 || json.Valid([]byte(r.stdout)) {
		t.Errorf("json: exit %d, %d stakes on stdout, stderr %q", r.code, strings.Count(r.stdout, `"id"`), r.stderr)
	}
	r = runCLI(t, s, nil, "stakes", "--pool", pool, "-o", "csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if r.code != 1 || !strings.Contains(r.stderr, "only the first 7000 stakes arrived") || err != nil || len(rows) != 7001 {
		t.Errorf("csv: exit %d, %d rows (%v), stderr %q", r.code, len(rows), err, r.stderr)
	}
	r = runCLI(t, s, nil, "stakes", "--pool", pool)
	if r.code != 1 || !strings.Contains(r.stdout, "7000 stakes: the listing stopped before its end") || strings.Count(r.stdout, "STAKED") != 7000 {
		t.Errorf("table: exit %d, stdout ends %q, stderr %q", r.code, r.stdout[max(0, len(r.stdout)-80):], r.stderr)
	}

	for _, format := range []string{"json", "csv", "table"} {
		r = runCLI(t, open("wrong"), nil, "stakes", "--pool", pool, "-o", format)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "401") {
			t.Errorf("%s, refused: exit %d, stdout %q, stderr %q", format, r.code, r.stdout, r.stderr)
		}
	}
}

// TestTableAlignsDecimals: a column of numbers has its decimal points
// lined up, flush right under its header, so that magnitudes compare at a
// glance (pools' TOTAL STAKED read 127721.3 over 3042191.07, both flush
// left); a cell that is no number ends where the points are.
func TestTableAlignsDecimals(t *testing.T) {
	t.Parallel()
	var got bytes.Buffer
	tw := newTable(&got, "NAME", "TOTAL STAKED", "APY", "BLOCK")
	tw.alignDecimals(1, 2, 3)
	tw.row("Flex", "127721.3", "6.5", "-")
	tw.row("Lock", "3042191.07", "16.875", "1234")
	tw.row("Whale", "153145859", "20", "7")
	if err := tw.flush(); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"NAME   TOTAL STAKED     APY  BLOCK\n" +
		"Flex      127721.3    6.5        -\n" +
		"Lock     3042191.07  16.875   1234\n" +
		"Whale  153145859     20          7\n"
	if got.String() != want {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
}
