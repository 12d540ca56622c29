package browse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// stakeItem is one stake of a listing, as the service writes it.
func stakeItem(i int, wallet, amount, status string) string {
	return fmt.Sprintf(`{"id":"%08x-0000-4000-8000-000000000000","amount":"%s","status":"%s","createdAt":"2026-01-02T03:04:05.000Z","walletAddress":"%s"}`,
		i, amount, status, wallet)
}

// listing is a staking/stakes answer holding items.
func listing(items []string) string {
	return `{"isProcessed":true,"result":{"items":[` + strings.Join(items, ",") + `],"total":` + fmt.Sprint(len(items)) + `}}`
}

// serve answers every request with body, as the service would.
func serve(t *testing.T, body string) *api.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// decodeRows reads items as the client does: the only way to make
// api.StakeRow values.
func decodeRows(t *testing.T, items []string) []api.StakeRow {
	t.Helper()
	var rows []api.StakeRow
	_, err := serve(t, listing(items)).StreamStakes(context.Background(), api.StakesRequest{StakingPoolID: testPool.ID}, func(b []api.StakeRow) error {
		rows = append(rows, b...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

var testPool = api.Pool{ID: "6a0f3b1e-0000-4000-8000-000000000001", Name: "Pool"}

// testSource streams rows in batches of batch rows, as the client does,
// reusing its batch slice. It waits on hold before the batch at holdAt,
// and after failAt rows it stops with err. wallets answers a
// server-side wallet filter.
type testSource struct {
	rows    []api.StakeRow
	batch   int
	holdAt  int
	hold    chan struct{}
	failAt  int
	err     error
	wallets map[string][]api.StakeRow

	mu       sync.Mutex
	requests []api.StakesRequest
}

func (s *testSource) StreamStakes(ctx context.Context, req api.StakesRequest, each func([]api.StakeRow) error) (int, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	rows := s.rows
	if req.WalletAddress != "" {
		rows = s.wallets[req.WalletAddress]
	}
	buf := make([]api.StakeRow, 0, s.batch)
	for i := 0; i < len(rows); i += s.batch {
		if s.hold != nil && i == s.holdAt {
			<-s.hold
		}
		if s.err != nil && i >= s.failAt {
			return 0, s.err
		}
		buf = append(buf[:0], rows[i:min(i+s.batch, len(rows))]...)
		if err := each(buf); err != nil {
			return 0, err
		}
		clear(buf) // the client reuses its batch
	}
	return len(rows), nil
}

// driver runs a screen's commands and feeds their messages back, as the
// Bubble Tea runtime does, until none is left or stop says so.
type driver struct {
	s     views.Screen
	queue []tea.Cmd
	out   []tea.Msg
}

func (d *driver) run(stop func() bool, cmds ...tea.Cmd) {
	d.queue = append(d.queue, cmds...)
	for len(d.queue) > 0 && (stop == nil || !stop()) {
		c := d.queue[0]
		d.queue = d.queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			d.queue = append(d.queue, m...)
		case views.ErrorMsg, views.StatusMsg, views.NavigateMsg:
			d.out = append(d.out, m)
		default:
			d.queue = append(d.queue, d.s.Update(m))
		}
	}
}

// keys sends keys and runs what they start. A command waiting for more of
// an answer held back by the test stays queued for a later run.
func (d *driver) keys(keys ...string) {
	held := d.queue
	d.queue = nil
	defer func() { d.queue = append(held, d.queue...) }()
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		}
		d.run(nil, d.s.Update(msg))
	}
}

func (d *driver) typeFilter(q string) {
	d.keys("/")
	d.keys(strings.Split(q, "")...)
	d.keys("enter")
}

func newStakesScreen(t *testing.T, src stakeSource) (*stakes, *driver) {
	t.Helper()
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	s := NewStakes(ctx, testPool).(*stakes)
	s.source = src
	// driver runs each keystroke's debounce tick before the next key, so
	// every prefix of a typed query is applied, whatever the debounce; at
	// the default 100 ms a 42-character address took 4 s.
	s.Table.SetDebounce(time.Millisecond)
	s.SetSize(120, 30)
	return s, &driver{s: s}
}

const (
	walletA = "0xaaaa000000000000000000000000000000000001"
	walletB = "0xbbbb000000000000000000000000000000000002"
)

// manyStakes is n stakes of two wallets, amounts from 1 to n tokens plus a
// base unit, every seventh withdrawn.
func manyStakes(n int) []string {
	items := make([]string, n)
	for i := range items {
		wallet, status := walletA, "STAKED"
		if i%2 == 1 {
			wallet = walletB
		}
		if i%7 == 0 {
			status = "WITHDRAWN"
		}
		items[i] = stakeItem(i, wallet, fmt.Sprintf("%d.000000000000000001", i+1), status)
	}
	return items
}

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
	if !s.Busy() {
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
		if !strings.Contains(s.SummaryText, want) {
			t.Errorf("once all arrived, the summary does not say %q: %s", want, s.SummaryText)
		}
	}
	if s.Busy() || s.Table.Len() != 3000 {
		t.Errorf("busy %v with %d rows, want done with 3,000", s.Busy(), s.Table.Len())
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
	if want := widget.FormatCount(s.Table.Len()) + " stakes arrived; the answer broke off: r to retry"; !strings.Contains(s.SummaryText, want) {
		t.Errorf("summary %q does not say %q", s.SummaryText, want)
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
	for _, want := range []string{"4 stakes", "staked 157 ·", "withdrawn 1,000 (1)", "largest 100"} {
		if !strings.Contains(s.SummaryText, want) {
			t.Errorf("summary %q does not say %q", s.SummaryText, want)
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
	if !handled || !s.Busy() {
		t.Fatalf("a whole address is not asked of the service (handled %v, busy %v)", handled, s.Busy())
	}
	s.onFilter("") // esc, before the answer
	d.run(nil, ask)
	if s.Table.Len() != 100 || s.wallet != "" || s.Busy() {
		t.Errorf("the late answer replaced the pool: %d rows, wallet %q, busy %v", s.Table.Len(), s.wallet, s.Busy())
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
	if text := summarize(&sums, 1); !strings.HasPrefix(text, "1 stake ·") {
		t.Errorf("summary of one stake: %q", text)
	}
	if text := summarize(&sums, 2); !strings.HasPrefix(text, "1 stake (the service counts 2) ·") {
		t.Errorf("summary of one stake the service counts as two: %q", text)
	}
	for n, want := range map[int]string{0: "0 stakes", 1: "1 stake", 1204: "1,204 stakes"} {
		if got := stakeCount(n); got != want {
			t.Errorf("stakeCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStakeFilterTextIsTheCells: the filter searches what the table
// shows, column by column.
func TestStakeFilterTextIsTheCells(t *testing.T) {
	rows := decodeRows(t, []string{
		stakeItem(1, "0xAbCd000000000000000000000000000000000001", "1234567.5", "STAKED"),
		stakeItem(2, walletB, "0.000000000000000001", "WITHDRAWN"),
		stakeItem(3, walletA, "15000", "COOLING"),
	})
	for _, st := range rows {
		want := strings.Join([]string{st.WalletString(), widget.FormatAmountMin(st.AmountString(), 2), st.StatusText(),
			api.FormatTime(api.Time{Time: st.Time()}), st.IDString()}, "\x00")
		if got := string(stakeFilterText(nil, st)); got != want {
			t.Errorf("filter text %q, want the cells %q", got, want)
		}
	}
}
