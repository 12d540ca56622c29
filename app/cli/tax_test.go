package cli

import (
	"context"
	"encoding/csv"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/core/session"
	"allot/wallet"
	"allot/wallet/history"
)

const (
	koinlyHeaderRow      = "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash"
	coinTrackerHeaderRow = "Date,Received Quantity,Received Currency,Sent Quantity,Sent Currency,Fee Amount,Fee Currency,Tag"
)

// taxRows runs history --wallet holder -o format (and more args) and
// reads its CSV, which python's csv module must read too, strictly.
func taxRows(t *testing.T, s *session.Session, holder, format string, more ...string) ([][]string, result) {
	t.Helper()
	r := runCLI(t, s, nil, append([]string{"history", "--wallet", holder, "-o", format}, more...)...)
	if r.code != ExitOK {
		t.Fatalf("history -o %s: exit %d\n%s", format, r.code, r.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatalf("-o %s is not CSV: %v\n%s", format, err, r.stdout)
	}
	pythonReads(t, r.stdout, len(rows))
	return rows, r
}

// pythonReads checks that python's csv module, strict, reads text as the
// same number of rows: the tools' importers are not Go's. Skipped without
// python3.
func pythonReads(t *testing.T, text string, rows int) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3: the export is not read by python's csv module")
		return
	}
	file := filepath.Join(t.TempDir(), "export.csv")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	script := "import csv, sys\n" +
		"with open(sys.argv[1], newline='', encoding='utf-8') as f:\n" +
		"    rows = list(csv.reader(f, strict=True))\n" +
		"print(len(rows))\n"
	out, err := exec.Command(python, "-c", script, file).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(rows) {
		t.Errorf("python's csv module reads %q (%v), want %d rows", out, err, rows)
	}
}

// seededClaim is the sandbox's seeded claim of its claimed-in-part
// allocation, sent by the deployer for the beneficiary, as -o json gives
// it, and the beneficiary.
func seededClaim(t *testing.T, s *session.Session) (eventJSON, string) {
	t.Helper()
	id := stateAllocation(t, s, sandbox.StateClaimedInPart)
	out := historyEvents(t, runCLI(t, s, nil, "history", id, "-o", "json"))
	if len(out.Events) != 1 || out.Events[0].Kind != "claim" {
		t.Fatalf("the seeded claim: %+v", out.Events)
	}
	return out.Events[0], out.Events[0].Recipient
}

// TestHistoryTaxExportsOfClaimSentByAnother: the seeded claim, which the
// deployer sent for the beneficiary, is a receipt of the token in both
// exports, dated as each tool documents, with no fee (the wallet paid
// none) and, in Koinly's, a description that says who did.
func TestHistoryTaxExportsOfClaimSentByAnother(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	claim, holder := seededClaim(t, s)
	if strings.EqualFold(claim.Sender, holder) {
		t.Fatalf("the seeded claim was sent by its beneficiary %s", holder)
	}
	at, err := time.Parse(time.RFC3339, claim.Time)
	if err != nil {
		t.Fatal(err)
	}

	rows, _ := taxRows(t, s, holder, "koinly")
	if got := strings.Join(rows[0], ","); got != koinlyHeaderRow {
		t.Fatalf("koinly header %s", got)
	}
	want := []string{at.UTC().Format("2006-01-02 15:04") + " UTC", "", "", claim.Amount, claim.Symbol, "", "", "", "", "",
		"vesting claim of allocation " + claim.Allocation + " from vester " + claim.Vester + "; sent by " + claim.Sender + ", who paid its claim fee and gas: no fee to this wallet",
		claim.Transaction}
	if row := rowOf(t, rows, 11, claim.Transaction); strings.Join(row, "|") != strings.Join(want, "|") {
		t.Errorf("koinly row\n%q, want\n%q", row, want)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d UTC$`).MatchString(want[0]) {
		t.Errorf("koinly date %q", want[0])
	}

	rows, _ = taxRows(t, s, holder, "cointracker")
	if got := strings.Join(rows[0], ","); got != coinTrackerHeaderRow {
		t.Fatalf("cointracker header %s", got)
	}
	date := at.UTC().Format("01/02/2006 15:04:05")
	wantCT := []string{date, claim.Amount, claim.Symbol, "", "", "", "", ""}
	found := false
	for _, row := range rows[1:] {
		found = found || strings.Join(row, "|") == strings.Join(wantCT, "|")
	}
	if !found || !regexp.MustCompile(`^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d$`).MatchString(date) {
		t.Errorf("no cointracker row %q among\n%q", wantCT, rows)
	}
}

// rowOf is the row whose column col is value.
func rowOf(t *testing.T, rows [][]string, col int, value string) []string {
	t.Helper()
	for _, row := range rows[1:] {
		if len(row) > col && row[col] == value {
			return row
		}
	}
	t.Fatalf("no row with %s among\n%q", value, rows)
	return nil
}

// TestHistoryTaxExportsOfOwnClaim: a claim the wallet sent itself costs
// it the claim fee and the gas (the receipt's gasUsed times its
// effectiveGasPrice), in ETH, in both exports.
func TestHistoryTaxExportsOfOwnClaim(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	s := sandboxSession(t)
	holder := s.Fixtures.Wallets[1]
	id, _ := claimableOf(t, s, holder.Address, holder.Address)
	r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": holder.Passphrase},
		"claim", id, "--sign", "--account", holder.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	sent := decodeSent(t, r)
	if len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("claim statuses %+v", sent)
	}
	receipt, err := s.Chain.TransactionReceipt(ctx, sent[0].Hash)
	if err != nil {
		t.Fatal(err)
	}
	tx, _, err := s.Chain.TransactionByHash(ctx, sent[0].Hash)
	if err != nil {
		t.Fatal(err)
	}
	gas := new(big.Int).Mul(new(big.Int).SetUint64(receipt.GasUsed), receipt.EffectiveGasPrice)
	cost := wallet.FormatUnits(new(big.Int).Add(tx.Value(), gas))
	if gas.Sign() == 0 {
		t.Fatal("the claim's gas cost nothing: the test cannot tell gas from none")
	}

	rows, _ := taxRows(t, s, holder.Address, "koinly")
	row := rowOf(t, rows, 11, sent[0].Hash.Hex())
	if row[5] != cost || row[6] != "ETH" || strings.Contains(row[10], "sent by") ||
		row[10] != "vesting claim of allocation "+id+" from vester "+tx.To().Hex() {
		t.Errorf("koinly row %q, want the fee %s ETH (the claim fee %s and gas %s wei)", row, cost, tx.Value(), gas)
	}
	rows, _ = taxRows(t, s, holder.Address, "cointracker")
	found := false
	for _, row := range rows[1:] {
		found = found || row[5] == cost && row[6] == "ETH"
	}
	if !found {
		t.Errorf("no cointracker row with the fee %s ETH among\n%q", cost, rows)
	}
}

// TestHistoryKoinlyPrices: --prices gives a claim its tokens' worth on
// the UTC day of its block, exactly; a claim no row prices is left blank
// and said on stderr.
func TestHistoryKoinlyPrices(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	claim, holder := seededClaim(t, s)
	day := claim.Time[:len("2006-01-02")]
	file := filepath.Join(t.TempDir(), "prices.csv")
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("date,symbol,price,currency\n" + day + "," + claim.Symbol + ",0.125,EUR\n")
	rows, r := taxRows(t, s, holder, "koinly", "--prices", file)
	amount, _ := new(big.Rat).SetString(claim.Amount)
	worth := new(big.Rat).Mul(amount, big.NewRat(1, 8))
	row := rowOf(t, rows, 11, claim.Transaction)
	if got, ok := new(big.Rat).SetString(row[7]); !ok || got.Cmp(worth) != 0 || row[8] != "EUR" || strings.Contains(r.stderr, "no price") {
		t.Errorf("net worth %q %q, want %s EUR\n%s", row[7], row[8], worth.FloatString(20), r.stderr)
	}

	write("date,symbol,price,currency\n2001-01-01," + claim.Symbol + ",1,USD\n")
	rows, r = taxRows(t, s, holder, "koinly", "--prices", file)
	if row := rowOf(t, rows, 11, claim.Transaction); row[7] != "" || row[8] != "" ||
		!strings.Contains(r.stderr, "no price of "+claim.Symbol+" on "+day) {
		t.Errorf("an unpriced claim: net worth %q %q, stderr\n%s", row[7], row[8], r.stderr)
	}
}

// TestHistoryTaxUsage: the tax exports are a wallet's, and --prices is
// Koinly's; a bad price file is refused before any scan, naming its line.
func TestHistoryTaxUsage(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id := s.Fixtures.AllocationIDs[0]
	w := s.Fixtures.Wallets[0].Address
	bad := filepath.Join(t.TempDir(), "prices.csv")
	os.WriteFile(bad, []byte("date,symbol,price,currency\n2026-01-02,ALLOT,1e3,USD\n"), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"history", id, "-o", "koinly"}, ExitUsage, "takes --wallet ADDR"},
		{[]string{"history", id, "-o", "cointracker"}, ExitUsage, "takes --wallet ADDR"},
		{[]string{"history", "--wallet", w, "-o", "cointracker", "--prices", bad}, ExitUsage, "--prices fills the Net Worth of -o koinly"},
		{[]string{"history", "--wallet", w, "--prices", bad}, ExitUsage, "--prices fills"},
		{[]string{"history", "--wallet", w, "-o", "koinly", "--prices", bad}, 1, "line 2: price \"1e3\""},
		{[]string{"transactions", "-o", "koinly"}, ExitUsage, "want table, json or csv"},
	} {
		r := runCLI(t, s, nil, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d saying %q", tc.args, r.code, r.stderr, tc.code, tc.want)
		}
	}
}

// TestTaxExportsAreInert: the token's symbol and the allocation id come
// from the chain; a spreadsheet opening either export runs no formula,
// and a token without a symbol is named by its address.
func TestTaxExportsAreInert(t *testing.T) {
	t.Parallel()
	holder := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	token := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	h := &history.History{Events: []history.Event{
		{Kind: history.Claim, Time: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC), Sender: holder, Recipient: holder,
			Allocation: "=HYPERLINK(\"http://x\")", Token: token, Symbol: "@SUM(A1)",
			Amount: big.NewInt(1_500_000_000_000_000_000), Fee: big.NewInt(1e15), Gas: big.NewInt(2e15)},
		{Kind: history.Claim, Time: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC), Sender: holder, Recipient: holder,
			Allocation: "a", Token: token, Amount: big.NewInt(1), Fee: big.NewInt(0), Gas: big.NewInt(0)},
	}}
	var k, c strings.Builder
	if err := writeKoinly(&k, &strings.Builder{}, h, holder, nil); err != nil {
		t.Fatal(err)
	}
	if err := writeCoinTracker(&c, h, holder); err != nil {
		t.Fatal(err)
	}
	wantK := koinlyHeaderRow + "\n" +
		`2026-01-02 15:04 UTC,,,1.5,'@SUM(A1),0.003,ETH,,,,"vesting claim of allocation =HYPERLINK(""http://x"") from vester 0x0000000000000000000000000000000000000000",` + common.Hash{}.Hex() + "\n" +
		"2026-01-02 15:04 UTC,,,0.000000000000000001," + token.Hex() + ",0,ETH,,,,vesting claim of allocation a from vester 0x0000000000000000000000000000000000000000," + common.Hash{}.Hex() + "\n"
	if k.String() != wantK {
		t.Errorf("koinly\n%s\nwant\n%s", k.String(), wantK)
	}
	wantC := coinTrackerHeaderRow + "\n" +
		"01/02/2026 15:04:05,1.5,'@SUM(A1),,,0.003,ETH,\n" +
		"01/02/2026 15:04:05,0.000000000000000001," + token.Hex() + ",,,0,ETH,\n"
	if c.String() != wantC {
		t.Errorf("cointracker\n%s\nwant\n%s", c.String(), wantC)
	}
}
