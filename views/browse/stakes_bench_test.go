package browse

import (
	"context"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/api/sandbox"
	"allot/views"
	"allot/views/widget"
)

// The Stakes screen at scale, against allot's own sandbox over loopback
// HTTP (the sandbox shares the benchmark's heap, so allocations include
// its serving of the body, which it renders once before the timer):
//
//	go test -run '^$' -bench 'Stakes(Load|ScreenKeyDown)|BubblesTableStakeRows' -benchmem ./views/browse/
//
// StakesLoad reports, beside time, allocations and bytes per load,
// ms-first-rows (from the request to the first rows in the table) and
// ms-all (to the settled summary).

// whalePool serves the sandbox's whale pool of n stakes and returns a
// client of it and the pool.
func whalePool(b *testing.B, n int) (*api.Client, api.Pool) {
	b.Helper()
	srv, err := sandbox.New(sandbox.Options{WhaleStakes: n, KeystoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	hs := httptest.NewServer(srv)
	b.Cleanup(hs.Close)
	fx := srv.Fixtures()
	c, err := api.New(api.Config{BaseURL: hs.URL, APIKey: fx.ReadOnlyAPIKey})
	if err != nil {
		b.Fatal(err)
	}
	pool := api.Pool{ID: fx.BigPoolID, Name: "Whale pool"}
	// The sandbox renders a pool's listing on its first request.
	if _, err := c.StreamStakes(context.Background(), api.StakesRequest{StakingPoolID: pool.ID}, func([]api.StakeRow) error { return nil }); err != nil {
		b.Fatal(err)
	}
	return c, pool
}

func benchScreen(c *api.Client, pool api.Pool) (*stakes, *driver) {
	ctx := &views.Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	s := NewStakes(ctx, pool).(*stakes)
	s.source = c
	s.SetSize(120, 34)
	return s, &driver{s: s}
}

func BenchmarkStakesLoad100k(b *testing.B) { benchLoad(b, 100_000) }

func BenchmarkStakesLoad1M(b *testing.B) { benchLoad(b, 1_000_000) }

// benchLoad opens the Stakes screen on the whale pool and runs it as the
// dashboard does until the whole answer is on screen.
func benchLoad(b *testing.B, n int) {
	c, pool := whalePool(b, n)
	var first, all time.Duration
	b.ReportAllocs()
	for b.Loop() {
		s, d := benchScreen(c, pool)
		start := time.Now()
		d.run(func() bool { return s.arrived > 0 }, s.Init())
		first += time.Since(start)
		s.View()
		d.run(nil)
		s.View()
		all += time.Since(start)
		if s.Table.Len() != n || s.sums == nil {
			b.Fatalf("%d rows on screen, want %d", s.Table.Len(), n)
		}
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first-rows")
	b.ReportMetric(float64(all.Milliseconds())/float64(b.N), "ms-all")
}

var keyDown = tea.KeyMsg{Type: tea.KeyDown}

// BenchmarkStakesScreenKeyDown1M is a keystroke (cursor down) and a
// redraw of the whole screen (summary, table, detail pane) on a loaded
// pool of 1,000,000 stakes, the cursor on the last visible line so that
// every keystroke scrolls and formats a row never drawn.
func BenchmarkStakesScreenKeyDown1M(b *testing.B) {
	c, pool := whalePool(b, 1_000_000)
	s, d := benchScreen(c, pool)
	d.run(nil, s.Init())
	for range 40 {
		s.Update(keyDown)
	}
	s.View()
	b.ReportAllocs()
	for b.Loop() {
		s.Update(keyDown)
		_ = s.View()
	}
}

// BenchmarkBubblesTableStakeRows100k is the same keystroke and redraw on
// bubbles/table with 100,000 of the same stakes, at a size it can handle:
// its rows must be formatted up front, all of them.
func BenchmarkBubblesTableStakeRows100k(b *testing.B) {
	c, pool := whalePool(b, 100_000)
	var rows []table.Row
	_, err := c.StreamStakes(context.Background(), api.StakesRequest{StakingPoolID: pool.ID}, func(batch []api.StakeRow) error {
		for i := range batch {
			st := &batch[i]
			rows = append(rows, table.Row{st.WalletString(), widget.FormatAmountMin(st.AmountString(), 2), st.StatusText(),
				api.FormatTime(api.Time{Time: st.Time()}), st.IDString()})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// Widths plus bubbles' one-cell padding on each side fill 120 columns.
	cols := []table.Column{
		{Title: "Wallet", Width: 42}, {Title: "Amount", Width: 16}, {Title: "Status", Width: 9},
		{Title: "Created", Width: 20}, {Title: "ID", Width: 23},
	}
	m := table.New(table.WithColumns(cols), table.WithRows(rows), table.WithFocused(true), table.WithWidth(120), table.WithHeight(34))
	m.SetCursor(m.Height() - 1)
	m.View()
	b.ReportAllocs()
	for b.Loop() {
		m, _ = m.Update(keyDown)
		_ = m.View()
	}
}

// BenchmarkStakesScreenSort1M is one press of a sort on a loaded pool of
// 1,000,000 stakes, by each sortable column, until the sorted rows are on
// screen: the job the table runs off the UI goroutine, then the redraw.
// Each round sorts the other way, so that no order is reused.
func BenchmarkStakesScreenSort1M(b *testing.B) {
	c, pool := whalePool(b, 1_000_000)
	s, d := benchScreen(c, pool)
	d.run(nil, s.Init())
	for col, name := range []string{"wallet", "amount", "status", "created"} {
		b.Run(name, func(b *testing.B) {
			desc := false
			for b.Loop() {
				desc = !desc
				d.run(nil, s.Table.SortBy(col, desc))
				_ = s.View()
			}
		})
	}
}
