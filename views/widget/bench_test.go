package widget

import (
	"sync"
	"testing"

	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
)

// The issue fixes these benchmark names so that they can be tracked over
// time: a keystroke (cursor down) plus View on stakes tables of 100,000 and
// 1,000,000 rows, the same on bubbles/table for comparison, and a filter
// keystroke over 100,000 rows. Rows are built once per process.
var (
	stakes100k = sync.OnceValue(func() []stake { return makeStakes(100_000) })
	stakes1M   = sync.OnceValue(func() []stake { return makeStakes(1_000_000) })
)

const benchWidth, benchHeight = 120, 36

var keyDown = tea.KeyMsg{Type: tea.KeyDown}

func BenchmarkStakesKeyDown100k(b *testing.B) { benchKeyDown(b, stakes100k()) }

func BenchmarkStakesKeyDown1M(b *testing.B) { benchKeyDown(b, stakes1M()) }

// benchKeyDown starts with the cursor on the last visible line, so that
// every keystroke scrolls and renders one row that was never drawn: the
// steady state of holding the down key.
func benchKeyDown(b *testing.B, rows []stake) {
	tb := newStakeTable(rows, benchWidth, benchHeight, TableConfig[stake]{})
	tb.setCursor(tb.bodyHeight() - 1)
	tb.View()
	b.ReportAllocs()
	for b.Loop() {
		tb.Update(keyDown)
		_ = tb.View()
	}
}

func BenchmarkBubblesTableKeyDown100k(b *testing.B) {
	stakes := stakes100k()
	rows := make([]table.Row, len(stakes))
	for i, s := range stakes {
		rows[i] = table.Row{s.ID, s.Wallet, FormatAmount(s.Amount), s.Status, s.CreatedAt.UTC().Format("2006-01-02 15:04")}
	}
	// Widths plus bubbles' one-cell padding on each side fill 120 columns.
	cols := []table.Column{
		{Title: "ID", Width: 26}, {Title: "Wallet", Width: 42}, {Title: "Amount", Width: 14},
		{Title: "Status", Width: 10}, {Title: "Created", Width: 16},
	}
	m := table.New(
		table.WithColumns(cols), table.WithRows(rows), table.WithFocused(true),
		table.WithWidth(benchWidth), table.WithHeight(benchHeight),
	)
	m.SetCursor(m.Height() - 1)
	m.View()
	b.ReportAllocs()
	for b.Loop() {
		m, _ = m.Update(keyDown)
		_ = m.View()
	}
}

// BenchmarkStakesFilter100k filters 100,000 rows as the keystrokes of a
// partial wallet address would, from the densest query ("0" matches most
// rows) to a selective one. The lowercase index is built once before, as
// the first filter keystroke does in the background
// (BenchmarkStakesFilterIndex100k measures that).
func BenchmarkStakesFilter100k(b *testing.B) {
	tb := newStakeTable(stakes100k(), benchWidth, benchHeight, TableConfig[stake]{})
	tb.FilterIndices("warm up")
	queries := []string{"0", "0x", "0x7", "0x7f", "0x7f3", "0x7f3a"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = tb.FilterIndices(queries[i%len(queries)])
		i++
	}
}

// BenchmarkStakesFilterIndex100k builds the filter index of 100,000 rows:
// the one-time cost of the first filter keystroke, paid off the UI
// goroutine.
func BenchmarkStakesFilterIndex100k(b *testing.B) {
	rows, cols := stakes100k(), stakeColumns()
	b.ReportAllocs()
	for b.Loop() {
		_ = buildIndex(RowsOf(rows), cellsText(cols))
	}
}

// BenchmarkStakesSort100k sorts 100,000 rows by amount, the work behind one
// press of the sort key (also off the UI goroutine).
func BenchmarkStakesSort100k(b *testing.B) {
	rows, cols := stakes100k(), stakeColumns()
	b.ReportAllocs()
	for b.Loop() {
		_ = sortRows(RowsOf(rows), cols, sortKey{col: 2})
	}
}
