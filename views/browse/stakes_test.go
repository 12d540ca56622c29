package browse

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/core/rows"
	"allot/views/widget"
)

// TestStakesShowWhileTheAnswerArrives: the first rows are on screen, with
// the progress in the summary line, while the rest of the answer is still
// on its way; the totals settle, exactly, when it ends.
func TestStakesShowWhileTheAnswerArrives(t *testing.T) {
	items := manyStakes(3000)
	src := &testSource{rows: decodeRows(t, items), batch: 1000, holdAt: 2000, hold: make(chan struct{})}
	s, d := newStakesScreen(t, src)
	d.run(func() bool { return s.arrived == 2000 }, s.Init())
	view := s.View()
	if !strings.Contains(view, "2,000 stakes so far…") || !strings.Contains(view, walletA) {
		t.Fatalf("with 2,000 of the stakes arrived, the screen does not show them and say so:\n%s", view)
	}
	if !s.Mode().Busy {
		t.Error("the screen is not busy while the answer arrives")
	}
	close(src.hold)
	d.run(nil)

	staked, withdrawn, nWithdrawn := decimal.Zero, decimal.Zero, 0
	for i := range 3000 {
		amount := decimal.RequireFromString(fmt.Sprintf("%d.000000000000000001", i+1))
		if i%7 == 0 {
			withdrawn, nWithdrawn = withdrawn.Add(amount), nWithdrawn+1
		} else {
			staked = staked.Add(amount)
		}
	}
	for _, want := range []string{
		"3,000 stakes · staked " + widget.FormatAmount(staked.String()) + " ·",
		"withdrawn " + widget.FormatAmount(withdrawn.String()) + " (" + widget.FormatCount(nWithdrawn) + ")",
		"largest 3,000.000000000000000001",
	} {
		if !strings.Contains(summaryOf(s), want) {
			t.Errorf("once all arrived, the summary does not say %q: %s", want, summaryOf(s))
		}
	}
	if s.Mode().Busy || s.Table.Len() != 3000 {
		t.Errorf("busy %v with %d rows, want done with 3,000", s.Mode().Busy, s.Table.Len())
	}

	// A refresh knows how many to expect.
	src.hold = make(chan struct{})
	d.run(func() bool { return s.arrived == 2000 }, s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}))
	if view := s.View(); !strings.Contains(view, "2,000 of 3,000 stakes…") {
		t.Errorf("a refresh does not count against the last load:\n%s", view)
	}
	close(src.hold)
	d.run(nil)
}

// TestStakesCountAgainstTheAnnouncedTotal: a total the answer announces
// before its rows counts the first load's progress ("N of M stakes…");
// rows past a total that was wrong are counted without it, never "N of
// fewer".
func TestStakesCountAgainstTheAnnouncedTotal(t *testing.T) {
	rows := decodeRows(t, manyStakes(3000))
	for _, tt := range []struct {
		total int
		want  string
	}{{3000, "2,000 of 3,000 stakes…"}, {1500, "2,000 stakes so far…"}} {
		src := &testSource{rows: rows, total: tt.total, batch: 1000, holdAt: 2000, hold: make(chan struct{})}
		s, d := newStakesScreen(t, src)
		d.run(func() bool { return s.arrived == 2000 }, s.Init())
		if view := s.View(); !strings.Contains(view, tt.want) {
			t.Errorf("total %d announced, 2,000 arrived: the summary does not say %q:\n%s", tt.total, tt.want, view)
		}
		close(src.hold)
		d.run(nil)
	}
}

// TestStakesAnswerBrokeOff: an answer that breaks off keeps the rows that
// arrived, says so, and r reads the pool again.
func TestStakesAnswerBrokeOff(t *testing.T) {
	rows := decodeRows(t, manyStakes(3000))
	src := &testSource{rows: rows, batch: 1000, failAt: 2000, err: errors.New("unexpected EOF")}
	s, d := newStakesScreen(t, src)
	d.run(nil, s.Init())
	view := s.View()
	if !strings.Contains(view, "2,000 stakes arrived; the answer broke off: r to retry") || s.Table.Len() != 2000 {
		t.Fatalf("the screen does not keep the 2,000 stakes that arrived and say the answer broke off (%d rows):\n%s", s.Table.Len(), view)
	}
	if !errors.Is(s.LoadErr(), src.err) {
		t.Errorf("E does not detail why: %v", s.LoadErr())
	}
	src.err = nil
	d.keys("r")
	if view := s.View(); s.Table.Len() != 3000 || !strings.Contains(view, "3,000 stakes · staked") || s.LoadErr() != nil {
		t.Errorf("r did not load the whole pool (%d rows):\n%s", s.Table.Len(), view)
	}

	// Nothing arrived: the load failed, drawn where the rows would be.
	src.err, src.failAt = errors.New("connection refused"), 0
	d.keys("r")
	if view := s.View(); !strings.Contains(view, "Could not load Pool: connection refused") {
		t.Errorf("a load that brought nothing is not a failure:\n%s", view)
	}
}

// TestStakesCutBodyKeepsTheRowsRead: the client's own stream, over a body
// cut off in the middle of its items, delivers the rows before the cut;
// the screen keeps them and says the answer broke off.
func TestStakesCutBodyKeepsTheRowsRead(t *testing.T) {
	body := listing(manyStakes(10_000))
	cut := strings.Index(body, stakeItem(9000, walletA, "9001.000000000000000001", "STAKED")) + 40
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		io.WriteString(w, body[:cut])
	}))
	defer srv.Close()
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	s, d := newStakesScreen(t, c)
	d.run(nil, s.Init())
	var partial *api.PartialError
	if n := s.Table.Len(); n < api.StakeBatch || n > 9000 || !errors.As(s.LoadErr(), &partial) {
		t.Fatalf("%d rows kept, error %v; want the batches before stake 9,000 and the partial answer", n, s.LoadErr())
	}
	if want := widget.FormatCount(s.Table.Len()) + " stakes arrived; the answer broke off: r to retry"; !strings.Contains(summaryOf(s), want) {
		t.Errorf("summary %q does not say %q", summaryOf(s), want)
	}
}

// TestStakesFilterAndSortWhileArriving: a filter and a sort set while the
// answer arrives apply to the rows that arrive after them too.
func TestStakesFilterAndSortWhileArriving(t *testing.T) {
	rows := decodeRows(t, manyStakes(3000))
	src := &testSource{rows: rows, batch: 500, holdAt: 1000, hold: make(chan struct{})}
	s, d := newStakesScreen(t, src)
	d.run(func() bool { return s.arrived == 1000 }, s.Init())
	d.typeFilter("0xbbbb")
	d.keys("s", "s", "s") // Wallet ↑, Wallet ↓, Amount ↑
	d.keys("s")           // Amount ↓
	close(src.hold)
	d.run(nil)
	if n := s.Table.Len(); n != 1500 {
		t.Fatalf("the filter keeps %d of the 3,000 stakes, want wallet B's 1,500", n)
	}
	all, shown := s.Table.Shown()
	if got := all.At(shown[0]); got.AmountString() != "3000.000000000000000001" {
		t.Errorf("sorted by amount, descending, the first row is %s, want the largest of wallet B", got.AmountString())
	}
}

// TestStakesHistogramFollowsTheFilter: the histogram counts the staked
// stakes among those the filter keeps, counted off the UI goroutine.
func TestStakesHistogramFollowsTheFilter(t *testing.T) {
	rows := decodeRows(t, []string{
		stakeItem(1, walletA, "100", "STAKED"),
		stakeItem(2, walletA, "50", "UNSTAKING"),
		stakeItem(3, walletB, "1000", "WITHDRAWN"),
		stakeItem(4, walletB, "7", "STAKED"),
	})
	s, d := newStakesScreen(t, &testSource{rows: rows, batch: 4})
	d.run(nil, s.Init())
	for _, want := range []string{"4 stakes", "staked 157.00 ·", "withdrawn 1,000.00 (1)", "largest 100"} {
		if !strings.Contains(summaryOf(s), want) {
			t.Errorf("summary %q does not say %q", summaryOf(s), want)
		}
	}
	d.keys("h")
	if n := s.bins.Total(); n != 3 {
		t.Errorf("the histogram counts %d stakes, want the 3 staked", n)
	}
	d.keys("h")
	d.typeFilter("0xbbbb")
	d.keys("h")
	view := s.View()
	if n := s.shown.Total(); n != 1 || !strings.Contains(view, `matching "0xbbbb"`) || strings.Contains(view, "counting") {
		t.Errorf("the histogram under the filter counts %d stakes, want 1 (the filter keeps one staked):\n%s", n, view)
	}
}

// TestStakesServerFilter: a whole address typed in the filter asks the
// service for that wallet's stakes; esc brings the whole pool back, with
// the stakes that arrived meanwhile.
func TestStakesServerFilter(t *testing.T) {
	rows := decodeRows(t, manyStakes(3000))
	wallet := "0xcccc000000000000000000000000000000000003"
	mine := decodeRows(t, []string{stakeItem(9, wallet, "5", "STAKED")})
	src := &testSource{rows: rows, batch: 1000, holdAt: 1000, hold: make(chan struct{}), wallets: map[string][]api.StakeRow{wallet: mine}}
	s, d := newStakesScreen(t, src)
	d.run(func() bool { return s.arrived == 1000 }, s.Init())
	d.typeFilter(wallet)
	if view := s.View(); s.Table.Len() != 1 || !strings.Contains(view, "1 stake of "+wallet+" (asked the service)") {
		t.Fatalf("the wallet's stakes are not shown (%d rows):\n%s", s.Table.Len(), view)
	}
	if last := src.requests[len(src.requests)-1]; last.WalletAddress != wallet || last.StakingPoolID != testPool.ID {
		t.Errorf("the service was asked %+v", last)
	}
	close(src.hold)
	d.run(nil)
	if s.Table.Len() != 1 {
		t.Errorf("the pool's stakes arriving replaced the wallet's: %d rows", s.Table.Len())
	}
	d.keys("esc")
	if view := s.View(); s.Table.Len() != 3000 || !strings.Contains(view, "3,000 stakes · staked") {
		t.Errorf("esc did not bring back the whole pool (%d rows):\n%s", s.Table.Len(), view)
	}
}

// TestStakesWalletAnswerAfterEscIsDropped: a wallet's stakes that arrive
// after the filter was cleared do not replace the pool's.
func TestStakesWalletAnswerAfterEscIsDropped(t *testing.T) {
	rows := decodeRows(t, manyStakes(100))
	mine := decodeRows(t, []string{stakeItem(9, walletA, "5", "STAKED")})
	s, d := newStakesScreen(t, &testSource{rows: rows, batch: 100, wallets: map[string][]api.StakeRow{walletA: mine}})
	d.run(nil, s.Init())
	ask, handled := s.onFilter(walletA)
	if !handled || !s.Mode().Busy {
		t.Fatalf("a whole address is not asked of the service (handled %v, busy %v)", handled, s.Mode().Busy)
	}
	s.onFilter("") // esc, before the answer
	d.run(nil, ask)
	if s.Table.Len() != 100 || s.wallet != "" || s.Mode().Busy {
		t.Errorf("the late answer replaced the pool: %d rows, wallet %q, busy %v", s.Table.Len(), s.wallet, s.Mode().Busy)
	}
}

// TestStakesLargeAmountsSumExactly: sums and the largest stake stay exact
// past 2^256 base units and for amounts finer than base units.
func TestStakesLargeAmountsSumExactly(t *testing.T) {
	big := "115792089237316195423570985008687907853269984665640564039457.584007913129639935" // (2^256-1) base units
	amounts := []string{big, big, big, "0.0000000000000000001", "0.000000000000000000000000000001"}
	var items []string
	want := decimal.Zero
	for i, a := range amounts {
		items = append(items, stakeItem(i, walletA, a, "STAKED"))
		want = want.Add(decimal.RequireFromString(a))
	}
	var sums stakeSums
	sums.add(decodeRows(t, items))
	if got := sums.staked.decimal(); !got.Equal(want) {
		t.Errorf("staked sums to %s, want %s", got, want)
	}
	if sums.bins.Total() != len(amounts) {
		t.Errorf("the histogram counts %d stakes, want %d", sums.bins.Total(), len(amounts))
	}
}

// TestAddBinAgreesWithDecimals: the bin read from base units is the bin
// of the decimal amount.
func TestAddBinAgreesWithDecimals(t *testing.T) {
	amounts := []string{"0", "1", "1.999999999999999999", "2", "4.99", "5", "9.999", "10", "0.000000000000000001",
		"0.000000000000000002", "0.5", "123456789", "5000000000000000000000000000000000000000000000000000000000"}
	var items []string
	for i, a := range amounts {
		items = append(items, stakeItem(i, walletA, a, "STAKED"))
	}
	rows := decodeRows(t, items)
	for i, a := range amounts {
		var byBase, byDecimal widget.Bins
		addBin(&byBase, &rows[i])
		byDecimal.AddDecimal(decimal.RequireFromString(a))
		if got, want := byBase.Buckets(), byDecimal.Buckets(); !slices.Equal(got, want) {
			t.Errorf("%s: bins %v, want %v", a, got, want)
		}
	}
}

func TestStakesSummarySingular(t *testing.T) {
	var sums stakeSums
	sums.add(decodeRows(t, []string{stakeItem(1, walletA, "5", "STAKED")}))
	if text := summarize(&sums, 1, "MRD"); text[0] != "1 stake" {
		t.Errorf("summary of one stake: %q", text)
	}
	if text := summarize(&sums, 2, "MRD"); text[0] != "1 stake (the service counts 2)" {
		t.Errorf("summary of one stake the service counts as two: %q", text)
	}
	for n, want := range map[int]string{0: "0 stakes", 1: "1 stake", 1204: "1,204 stakes"} {
		if got := stakeCount(n); got != want {
			t.Errorf("stakeCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStakeFilterTextIsTheCells: the filter searches what the table
// shows, column by column as rows.Stakes describes them, then the id,
// with nothing left for the collector.
func TestStakeFilterTextIsTheCells(t *testing.T) {
	stakes := decodeRows(t, []string{
		stakeItem(1, "0xAbCd000000000000000000000000000000000001", "1234567.5", "STAKED"),
		stakeItem(2, walletB, "0.000000000000000001", "WITHDRAWN"),
		stakeItem(3, walletA, "15000", "COOLING"),
	})
	for _, st := range stakes {
		var want []string
		for _, c := range rows.Stakes.In(rows.Dashboard) {
			want = append(want, c.Cell(&st))
		}
		want = append(want, st.IDString())
		if got := string(stakeFilterText(nil, st)); got != strings.Join(want, "\x00") {
			t.Errorf("filter text %q, want the cells %q", got, want)
		}
	}
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { buf = stakeFilterText(buf[:0], stakes[0]) }); n != 0 {
		t.Errorf("%v allocations a stake", n)
	}
}

// TestStakesLinesNeverCutANumber: at any width the totals line above the
// stakes and the histogram's title show whole parts, dropped from the end
// when narrow, never a number cut in the middle ("withdrawn 6,434,57…").
func TestStakesLinesNeverCutANumber(t *testing.T) {
	s, d := newStakesScreen(t, &testSource{rows: decodeRows(t, manyStakes(3000)), batch: 1000})
	d.run(nil, s.Init())
	parts := s.SummaryParts
	if len(parts) < 4 {
		t.Fatalf("summary parts %q", parts)
	}
	prefixes := func(parts []string, sep string) []string {
		var out []string
		for k := 1; k <= len(parts); k++ {
			out = append(out, strings.Join(parts[:k], sep))
		}
		return out
	}
	for width := 45; width <= 130; width++ { // from where the title without its hint fits
		s.SetSize(width, 20)
		s.histogram = false
		line, _, _ := strings.Cut(ansi.Strip(s.View()), "\n")
		if !slices.Contains(prefixes(parts, " · "), line) {
			t.Errorf("width %d: summary %q is not whole parts of %q", width, line, parts)
		}
		s.histogram = true
		title, _, _ := strings.Cut(ansi.Strip(s.View()), "\n")
		what := "Stake sizes in " + testPool.Name + ", staked (not withdrawn)"
		if !slices.Contains(prefixes([]string{what, "(h: back to the list)"}, " "), title) {
			t.Errorf("width %d: histogram title %q is cut", width, title)
		}
	}
}
