package browse

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

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
// reusing its batch slice. It announces total first when it is not 0,
// waits on hold before the batch at holdAt, and after failAt rows it
// stops with err. wallets answers a server-side wallet filter.
type testSource struct {
	rows    []api.StakeRow
	total   int
	batch   int
	holdAt  int
	hold    chan struct{}
	failAt  int
	err     error
	wallets map[string][]api.StakeRow

	mu       sync.Mutex
	requests []api.StakesRequest
}

func (s *testSource) StreamStakesTo(ctx context.Context, req api.StakesRequest, sink api.StakesSink) (int, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	rows := s.rows
	if req.WalletAddress != "" {
		rows = s.wallets[req.WalletAddress]
	} else if s.total != 0 && sink.Total != nil {
		sink.Total(s.total)
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
		if err := sink.Rows(buf); err != nil {
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

// summaryOf is the stakes' line above the table, whole, as it reads when
// the width takes every part.
func summaryOf(s *stakes) string { return strings.Join(s.SummaryParts, " · ") }

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

const (
	walletA = "0xaaaa000000000000000000000000000000000001"
	walletB = "0xbbbb000000000000000000000000000000000002"
)
