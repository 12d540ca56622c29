package browse

import (
	"fmt"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// summarize is the line of a pool's totals, in parts, most important
// first: the line drops them whole from the end when it is narrow. The
// totals say what they count: a pool's "staked" leaves out the stakes
// withdrawn, as the pool's own total does. total is the service's count of
// the stakes: when it is not the number that arrived, the line says so
// rather than pick one. The first amount names the token (unit), as the
// column's title does.
func summarize(sums *stakeSums, total int, unit string) []string {
	largest := "0"
	if sums.hasLargest {
		largest = sums.largest.AmountString()
	}
	count := stakeCount(sums.count)
	if total != sums.count {
		count += " (the service counts " + widget.FormatCount(total) + ")"
	}
	return []string{
		count,
		"staked " + amountIn(widget.FormatTokens(sums.staked.decimal().String()), unit),
		fmt.Sprintf("withdrawn %s (%s)", widget.FormatTokens(sums.withdrawn.decimal().String()), widget.FormatCount(sums.withdrawnCount)),
		"largest " + widget.FormatTokens(largest),
		"h: histogram",
	}
}

// shownBins is the histogram of the rows a table showed, for key.
type shownBins struct {
	key  shownKey
	bins widget.Bins
}

// shownKey names what the table shows: which list of row indexes, and how
// many of it. The table makes a new list for every sort, filter and new
// rows, but grows the last in place as rows arrive in the given order.
// It is compared on every message and frame while the histogram is up,
// so it is a value, not a formatted string.
type shownKey struct {
	list      *int
	len, rows int
}

func (s *stakes) shownKey() shownKey {
	rows, shown := s.Table.Shown()
	return shownKey{list: unsafe.SliceData(shown), len: len(shown), rows: rows.Len()}
}

// unfiltered says the table shows every stake of the pool arrived so far:
// their histogram is counted as they arrive.
func (s *stakes) unfiltered() bool { return s.Table.Query() == "" && s.wallet == "" }

// countShown counts the histogram of what the table shows, off the UI
// goroutine, when that changed since it was last counted.
func (s *stakes) countShown() tea.Cmd {
	if s.unfiltered() || s.shownBusy {
		return nil
	}
	key := s.shownKey()
	if key == s.shownFor {
		return nil
	}
	s.shownBusy = true
	rows, shown := s.Table.Shown()
	return func() tea.Msg { return shownBins{key: key, bins: binsOf(rows, shown)} }
}

// stakeCount is "1 stake", "2 stakes", "1,204 stakes".
func stakeCount(n int) string {
	if n == 1 {
		return "1 stake"
	}
	return widget.FormatCount(n) + " stakes"
}
