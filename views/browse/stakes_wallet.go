package browse

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// onFilter sends a whole address to the service; anything else is the
// table's own substring filter.
func (s *stakes) onFilter(query string) (tea.Cmd, bool) {
	q := strings.TrimSpace(query)
	if s.pool.ID == "" {
		return nil, false // no pool yet to ask about
	}
	// A wallet's answer still on its way is for a filter no longer asked.
	s.walletSeq, s.walletBusy = s.Reqs.Next(), false
	if strings.HasPrefix(q, "0x") && common.IsHexAddress(q) {
		s.walletBusy = true
		seq, source, poolID := s.walletSeq, s.source, s.pool.ID
		return views.Load(s.Ctx, seq, func(c context.Context) (walletStakes, error) {
			var rows []api.StakeRow
			_, err := source.StreamStakesTo(c, api.StakesRequest{StakingPoolID: poolID, WalletAddress: q}, api.StakesSink{Rows: func(batch []api.StakeRow) error {
				rows = append(rows, batch...)
				return nil
			}})
			return walletStakes{wallet: q, rows: rows}, err
		}), true
	}
	mended := s.mended()
	if s.wallet != "" {
		// Back from a server filter: the table filters the whole pool again.
		rows := s.all
		s.wallet, s.all = "", widget.RowSet[api.StakeRow]{}
		s.refreshLine()
		return tea.Batch(s.showRows(rows, false), mended), false
	}
	return mended, false
}

// mended takes a refused wallet's error off the status line once it is
// no longer about what the page shows: a wallet was found, or the filter
// left; nil when none is there.
func (s *stakes) mended() tea.Cmd {
	if !s.walletFailed {
		return nil
	}
	s.walletFailed = false
	return func() tea.Msg { return views.StatusMsg{} } // an empty line, no error

}

// dropRefused takes a refused wallet filter out of force once it is no
// longer being typed: the rows on show are the pool's, and the table does
// not say "filter: 0x… (server)" over them. The error stays on the status
// line to say why.
func (s *stakes) dropRefused() tea.Cmd {
	if !s.walletFailed || s.walletBusy || s.Table.EditingFilter() || s.Table.Query() == "" {
		return nil
	}
	s.walletFailed = false // so that clearing does not take the error off
	clear := s.Table.ClearFilter()
	s.walletFailed = true
	return clear
}

// walletStakes is the answer to a server-side wallet filter.
type walletStakes struct {
	wallet string
	rows   []api.StakeRow
}
