package views

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views/widget"
)

// stakes lists the stakes of one pool: all of them (up to hundreds of
// thousands), a summary, and a histogram of their sizes. A full wallet
// address typed in the filter asks the service for that wallet's stakes; a
// partial one filters locally.
type stakes struct {
	*list[api.Stake]
	pool      api.Pool
	all       []api.Stake     // the pool's stakes, kept while a server filter shows a subset
	poolLine  string          // the pool's summary, kept likewise
	buckets   []widget.Bucket // of every stake loaded
	histogram bool
	// shown is the histogram of the stakes the list shows, for the rows
	// and the filter shownFor names.
	shown    []widget.Bucket
	shownFor string
}

// NewStakes is the stakes of pool.
func NewStakes(ctx *Context, pool api.Pool) Screen {
	s := &stakes{pool: pool}
	s.list = newList(ctx, pool.Name, widget.TableConfig[api.Stake]{
		Columns: []widget.Column[api.Stake]{
			{Title: "Wallet", Cell: func(st api.Stake) string { return st.WalletAddress }, MinWidth: 42, MaxWidth: 42, Flex: 3, Sort: func(a, b api.Stake) int {
				return cmpString(strings.ToLower(a.WalletAddress), strings.ToLower(b.WalletAddress))
			}},
			{Title: "Amount", Cell: func(st api.Stake) string { return widget.FormatAmountMin(st.Amount.String(), 2) }, Align: widget.AlignRight, MinWidth: 16, Sort: func(a, b api.Stake) int { return a.Amount.Cmp(b.Amount.Decimal) }},
			{Title: "Status", Cell: func(st api.Stake) string { return st.Status }, MinWidth: 9, Priority: 2, Sort: func(a, b api.Stake) int { return cmpString(a.Status, b.Status) }},
			{Title: "Created", Cell: func(st api.Stake) string { return api.FormatTime(st.CreatedAt) }, MinWidth: 20, Priority: 3, Sort: func(a, b api.Stake) int { return a.CreatedAt.Compare(b.CreatedAt.Time) }},
			{Title: "ID", Cell: func(st api.Stake) string { return st.ID }, MinWidth: 10, Priority: 4},
		},
		ID:       func(st api.Stake) string { return st.ID },
		CopyText: func(st api.Stake) string { return st.WalletAddress },
		OnFilter: s.onFilter,
		Empty:    "This pool has no stakes.",
	}, func(st api.Stake) []widget.Field {
		return []widget.Field{
			{Label: "Wallet", Value: st.WalletAddress},
			{Label: "Amount", Value: widget.FormatAmount(st.Amount.String())},
			{Label: "Status", Value: st.Status},
			{Label: "Created", Value: widget.FormatTime(st.CreatedAt.Time, ctx.Now())},
			{Label: "Stake ID", Value: st.ID},
			{Label: "Pool", Value: pool.Name + " (" + pool.ID + ")"},
		}
	})
	s.summaryLine = true
	return s
}

// whole is the pool's stakes with what is computed over them, off the UI
// goroutine: summing 100,000 amounts takes longer than a frame.
type whole struct {
	rows    []api.Stake
	summary string
	buckets []widget.Bucket
}

func (s *stakes) Init() tea.Cmd { return s.reloadWhole() }

func (s *stakes) reloadWhole() tea.Cmd {
	s.seq = nextSeq()
	s.busy, s.err = true, nil
	s.all = nil
	s.table.SetLoading(func() string { return "" })
	fetch := s.fetchWallet("")
	return load(s.seq, func(c context.Context) (whole, error) {
		rows, err := fetch(c)
		if err != nil {
			return whole{}, err
		}
		text, buckets := summarize(rows)
		return whole{rows: rows, summary: text, buckets: buckets}, nil
	})
}

func (s *stakes) fetchWallet(wallet string) func(context.Context) ([]api.Stake, error) {
	client := s.ctx.Session.API
	poolID := s.pool.ID
	return func(c context.Context) ([]api.Stake, error) {
		list, err := client.Stakes(c, api.StakesRequest{StakingPoolID: poolID, WalletAddress: wallet})
		if err != nil {
			return nil, err
		}
		return list.Items, nil
	}
}

// serverRows is the answer to a server-side wallet filter.
type serverRows struct {
	seq    int
	wallet string
	rows   []api.Stake
	err    error
}

// onFilter sends a whole address to the service; anything else is the
// table's own substring filter.
func (s *stakes) onFilter(query string) (tea.Cmd, bool) {
	q := strings.TrimSpace(query)
	if len(q) == 42 && strings.HasPrefix(q, "0x") && isHex(q[2:]) {
		s.seq = nextSeq()
		seq, fetch := s.seq, s.fetchWallet(q)
		s.busy = true
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			defer cancel()
			rows, err := fetch(ctx)
			return serverRows{seq: seq, wallet: q, rows: rows, err: err}
		}, true
	}
	if s.all != nil {
		// Back from a server filter: the table filters the whole pool again.
		rows := s.all
		s.all = nil
		s.summaryTxt = s.poolLine
		return s.setRows(rows), false
	}
	return nil, false
}

func (s *stakes) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case serverRows:
		if msg.seq != s.seq {
			return nil
		}
		s.busy = false
		if msg.err != nil {
			return func() tea.Msg { return ErrorMsg{Op: "stakes of " + msg.wallet, Err: msg.err} }
		}
		if s.all == nil {
			s.all, s.poolLine = s.table.Rows(), s.summaryTxt
		}
		s.summaryTxt = fmt.Sprintf("%s of %s (asked the service) · esc: the whole pool", stakeCount(len(msg.rows)), msg.wallet)
		return s.setRows(msg.rows)
	case loaded[whole]:
		if msg.seq != s.seq {
			return nil
		}
		s.busy = false
		if msg.err != nil {
			s.table.SetLoading(nil)
			s.err = msg.err // drawn where the stakes would be
			return nil
		}
		s.summaryTxt, s.buckets = msg.value.summary, msg.value.buckets
		return s.setRows(msg.value.rows)
	case tea.KeyMsg:
		if s.table.EditingFilter() {
			break
		}
		switch {
		case key.Matches(msg, keyHistogram):
			s.histogram = !s.histogram
			return nil
		case key.Matches(msg, keyRefresh):
			return s.reloadWhole()
		}
	}
	return s.list.Update(msg)
}

// stakeWithdrawn is the status of a stake that has left its pool: it no
// longer counts towards what the pool has staked.
const stakeWithdrawn = "WITHDRAWN"

// summarize computes the summary line and the histogram's buckets once per
// load, rather than per frame. The totals say what they count: a pool's
// "staked" leaves out the stakes withdrawn, as the pool's own total does.
func summarize(rows []api.Stake) (string, []widget.Bucket) {
	staked, withdrawn, largest := decimal.Zero, decimal.Zero, decimal.Zero
	nWithdrawn := 0
	for _, st := range rows {
		if st.Status == stakeWithdrawn {
			withdrawn = withdrawn.Add(st.Amount.Decimal)
			nWithdrawn++
			continue
		}
		staked = staked.Add(st.Amount.Decimal)
		if st.Amount.GreaterThan(largest) {
			largest = st.Amount.Decimal
		}
	}
	text := fmt.Sprintf("%s · staked %s · withdrawn %s (%s) · largest %s · h: histogram",
		stakeCount(len(rows)), widget.FormatAmount(staked.String()),
		widget.FormatAmount(withdrawn.String()), widget.FormatCount(nWithdrawn), widget.FormatAmount(largest.String()))
	return text, stakedBuckets(rows)
}

// stakedBuckets are the histogram of the sizes of the stakes still staked.
func stakedBuckets(rows []api.Stake) []widget.Bucket {
	amounts := make([]decimal.Decimal, 0, len(rows))
	for _, st := range rows {
		if st.Status != stakeWithdrawn {
			amounts = append(amounts, st.Amount.Decimal)
		}
	}
	return widget.LogBuckets(amounts)
}

// shownBuckets is the histogram of the stakes the list shows: those the
// filter keeps. It is computed again only when the rows or the filter
// changed since the histogram was last drawn.
func (s *stakes) shownBuckets() []widget.Bucket {
	q, rows := s.table.Query(), s.table.Rows()
	if q == "" && len(s.all) == 0 {
		return s.buckets
	}
	var first *api.Stake
	if len(rows) > 0 {
		first = &rows[0]
	}
	if key := fmt.Sprintf("%q %d %p", q, len(rows), first); key != s.shownFor {
		idx := s.table.FilterIndices(q)
		shown := make([]api.Stake, len(idx))
		for i, j := range idx {
			shown[i] = rows[j]
		}
		s.shown, s.shownFor = stakedBuckets(shown), key
	}
	return s.shown
}

func (s *stakes) View() string {
	if !s.histogram {
		return s.list.View()
	}
	what := "Stake sizes in " + s.pool.Name + ", staked (not withdrawn)"
	if q := s.table.Query(); q != "" {
		what += fmt.Sprintf(" matching %q", q)
	}
	title := s.ctx.Styles.Title.Render(sanitize.Truncate(what+" (h: back to the list)", s.width))
	return title + "\n" + widget.Histogram(s.shownBuckets(), s.width, max(s.height-1, 3))
}

func (s *stakes) ShortHelp() []key.Binding {
	return append([]key.Binding{keyHistogram, keyRefresh}, s.list.ShortHelp()...)
}

// FullHelp lists h and r too: the list's own help does not know them.
func (s *stakes) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{keyHistogram, keyRefresh}}, s.list.FullHelp()...)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// stakeCount is "1 stake", "2 stakes", "1,204 stakes".
func stakeCount(n int) string {
	if n == 1 {
		return "1 stake"
	}
	return widget.FormatCount(n) + " stakes"
}
