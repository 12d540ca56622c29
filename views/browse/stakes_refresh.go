package browse

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
)

// A pool's stakes refresh behind the rows on show: a second read runs
// while the table keeps its rows, cursor, sort and filter, and its rows
// replace them only once whole, so that a refresh never shows a pool
// half read. The dashboard asks only the screen on show to refresh, and
// a refresh is not started while one (or a load) runs: a pool of a
// million stakes is read again only while someone looks at it, and one
// read at a time.

// refresh starts a quiet read of the pool's stakes, unless a read runs,
// the pool is not known yet, or the last load failed (r retries that).
func (s *stakes) refresh() tea.Cmd {
	if s.quiet != nil || s.feed != nil || s.finding || s.pool.ID == "" || s.source == nil || s.Err != nil {
		return nil
	}
	s.quietSeq = s.Reqs.Next()
	var cmd tea.Cmd
	s.quiet, cmd = startFeed(s.Ctx.Root(), s.quietSeq, s.source, api.StakesRequest{StakingPoolID: s.pool.ID})
	return cmd
}

// takeQuiet reads a quiet refresh to its end, then shows it whole: the
// pool's new rows, totals and sizes, the cursor on its row. One that
// fails leaves the rows on show, marked stale.
func (s *stakes) takeQuiet(msg stakesArrived) tea.Cmd {
	if !msg.done {
		return msg.feed.nextCmd()
	}
	s.quiet = nil
	if msg.err != nil {
		s.MarkStale(msg.err)
		return nil
	}
	s.Refreshed()
	s.arrived, s.expect = msg.rows.Len(), msg.rows.Len()
	s.sums, s.total, s.bins, s.broke = msg.sums, msg.total, msg.bins, nil
	var cmd tea.Cmd
	if s.wallet != "" {
		// A wallet's stakes are on show: the pool's rows wait for the
		// filter's end, as on a load.
		s.all = msg.rows
	} else {
		cmd = s.showRows(msg.rows, true)
	}
	s.refreshLine()
	return cmd
}
