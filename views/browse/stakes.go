package browse

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/rows"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// stakes lists the stakes of one pool: all of them (up to millions), a
// summary, and a histogram of their sizes. Rows are compact values
// (api.StakeRow), formatted only when they are drawn; they reach the table
// while the answer is still arriving, and the totals settle when it ends.
// A full wallet address typed in the filter asks the service for that
// wallet's stakes; a partial one filters locally.
type stakes struct {
	*views.List[api.StakeRow]
	pool   api.Pool
	source stakeSource // the session's client; tests give their own

	// ref is the pool's id or name as the user gave it, for a screen that
	// looks its pool up itself (NewStakesByRef); pools lists the token's
	// pools for that, and finding is true while it runs.
	ref     string
	pools   func(context.Context) ([]api.Pool, error)
	finding bool

	feed    *stakeFeed // the pool's stakes being read; nil once read
	arrived int        // rows of the pool arrived so far
	// expect is how many stakes the answer announced, else how many the
	// pool had at the last complete load, to say how far a load is; 0
	// when unknown.
	expect int
	broke  error       // why the pool's answer broke off, its rows kept
	sums   *stakeSums  // of the whole pool, once it arrived
	unit   string      // the token's symbol, after the amounts ("" unnamed)
	total  int         // the service's count of the pool's stakes
	bins   widget.Bins // sizes of the pool's staked stakes arrived so far

	// wallet is the address a server-side filter asked for ("" for none);
	// all then keeps the pool's rows, and walletSeq numbers its request.
	wallet     string
	all        widget.RowSet[api.StakeRow]
	walletSeq  int
	walletN    int
	walletBusy bool // a wallet's stakes are asked for
	// walletFailed: the last wallet asked for was refused, and the status
	// line says why until a wallet is found or the filter is left.
	walletFailed bool

	// quiet is a refresh's read behind the rows on show, numbered
	// quietSeq (stakes_refresh.go).
	quiet    *stakeFeed
	quietSeq int

	histogram bool
	// shown is the histogram of the stakes the table shows, for the
	// filter and rows shownFor names; shownBusy while it is computed.
	shown     widget.Bins
	shownFor  shownKey
	shownBusy bool
}

// NewStakes is the stakes of pool.
func NewStakes(ctx *views.Context, pool api.Pool) views.Screen { return newStakes(ctx, pool) }

func newStakes(ctx *views.Context, pool api.Pool) *stakes {
	s := &stakes{pool: pool, unit: unit(ctx)}
	if ctx.Session != nil {
		s.source = ctx.Session.API
	}
	s.List = views.NewList(ctx, pool.Name, widget.TableConfig[api.StakeRow]{
		Columns:    views.Columns(rows.Stakes, s.unit),
		ID:         func(st api.StakeRow) string { return st.IDString() },
		CopyText:   func(st api.StakeRow) string { return st.WalletString() },
		FilterText: stakeFilterText,
		OnFilter:   s.onFilter,
		Empty:      "This pool has no stakes.",
	}, func(st api.StakeRow) []widget.Field {
		return append(views.Details(rows.Stakes, s.unit, ctx.Now(), st), widget.Field{Label: "Pool", Value: s.pool.Name + " (" + s.pool.ID + ")"})
	})
	s.SummaryLine = true
	s.Own = func(api.StakeRow, bool) widget.Bindings {
		return widget.Bindings{s.histogramKey("histogram"), s.refreshKey()}.InGroup("stakes")
	}
	return s
}

// stakeFilterText is what the filter searches in a stake: the cells as
// the table shows them (rows.Stakes; TestStakeFilterTextIsTheCells), then
// the id the details show, written without a string each, so that
// indexing a million stakes leaves no garbage behind (through the
// description's functions, each row would escape to the heap).
func stakeFilterText(dst []byte, st api.StakeRow) []byte {
	dst = append(st.AppendWallet(dst), 0)
	var exact [96]byte
	dst = append(rows.AppendCell(dst, rows.Tokens, st.AppendAmount(exact[:0])), 0)
	dst = append(append(dst, st.StatusText()...), 0)
	var d15 [32]byte
	dst = append(rows.AppendCell(dst, rows.Minute, st.AppendCreatedAt(d15[:0])), 0)
	return st.AppendID(dst)
}

func (s *stakes) Init() tea.Cmd { return s.reload() }

// errNoSession is the state of a stakes screen opened with no session
// (ctx.Session nil): there is no service to look its pool up in or to read
// its stakes from.
var errNoSession = errors.New("no session: there is no service to read the pool's stakes from")

// reload looks the pool up while it is not known, else reads its stakes
// again.
func (s *stakes) reload() tea.Cmd {
	lookUp := s.pool.ID == "" && s.ref != ""
	if s.source == nil || lookUp && s.pools == nil {
		s.Err = errNoSession // drawn where the stakes would be
		s.Table.SetLoading(nil)
		return nil
	}
	if lookUp {
		return s.findPool()
	}
	return s.reloadWhole()
}

// reloadWhole reads the pool's stakes again. The rows on screen stay until
// the first new ones arrive.
func (s *stakes) reloadWhole() tea.Cmd {
	if s.feed != nil {
		s.feed.cancel()
	}
	if s.quiet != nil {
		s.quiet.cancel()
		s.quiet = nil
	}
	s.Seq = s.Reqs.Next()
	s.Err, s.broke, s.sums = nil, nil, nil
	s.arrived, s.bins = 0, widget.Bins{}
	s.Table.SetLoading(func() string { return "" })
	var cmd tea.Cmd
	s.feed, cmd = startFeed(s.Ctx.Root(), s.Seq, s.source, api.StakesRequest{StakingPoolID: s.pool.ID})
	s.refreshLine()
	return cmd
}

// take puts what arrived of the pool's stakes on screen.
func (s *stakes) take(msg stakesArrived) tea.Cmd {
	var cmds []tea.Cmd
	if n := msg.rows.Len(); n > s.arrived {
		first := s.arrived == 0
		s.arrived = n
		switch {
		case s.wallet != "":
			s.all = msg.rows
		case first:
			cmds = append(cmds, s.showRows(msg.rows, false))
		default:
			cmds = append(cmds, s.extendRows(msg.rows))
		}
	}
	s.bins = msg.bins
	if msg.announced > 0 {
		s.expect = msg.announced // the service's word for this answer
	}
	if !msg.done {
		s.refreshLine()
		return tea.Batch(append(cmds, msg.feed.nextCmd())...)
	}
	s.feed = nil
	s.Table.SetLoading(nil)
	switch {
	case msg.err != nil && s.arrived == 0:
		s.Err = msg.err // drawn where the stakes would be
		if s.wallet == "" {
			cmds = append(cmds, s.SetRows(nil))
		}
	case msg.err != nil:
		s.broke = msg.err
	default:
		s.Refreshed()
		s.sums, s.total = msg.sums, msg.total
		s.expect = s.arrived
		if s.arrived == 0 && s.wallet == "" {
			cmds = append(cmds, s.SetRows(nil))
		}
	}
	s.refreshLine()
	return tea.Batch(cmds...)
}

// showRows puts the pool's rows in the table, replacing what it showed;
// a refresh's keep the order on show (widget.Table.RefreshRowSet).
func (s *stakes) showRows(rows widget.RowSet[api.StakeRow], refresh bool) tea.Cmd {
	var cmd tea.Cmd
	if refresh {
		cmd = s.Table.RefreshRowSet(rows)
	} else {
		cmd = s.Table.SetRowSet(rows)
	}
	s.Layout() // the rows decide how wide the table wants to be
	s.Focused = ""
	s.SyncDetail()
	return cmd
}

// extendRows shows rows, which extend those the table holds, and gives
// the table the width the new rows ask for.
func (s *stakes) extendRows(rows widget.RowSet[api.StakeRow]) tea.Cmd {
	before := s.Table.NaturalWidth()
	cmd := s.Table.ExtendRows(rows)
	if s.Table.NaturalWidth() != before {
		s.Layout()
	}
	s.SyncDetail()
	return cmd
}

// refreshLine writes the line above the table: the server filter's answer,
// the load's progress, how it broke off, or the pool's totals.
func (s *stakes) refreshLine() {
	s.SummaryParts = s.poolLine()
	if s.wallet != "" {
		s.SummaryParts = []string{fmt.Sprintf("%s of %s (asked the service)", stakeCount(s.walletN), s.wallet), "esc: the whole pool"}
	}
}

func (s *stakes) poolLine() []string {
	count := stakeCount(s.arrived)
	// More rows than expected (a pool that grew, a service's total that
	// is wrong) are counted without the expectation they passed.
	known := s.expect > 0 && s.arrived <= s.expect
	if known {
		count = widget.FormatCount(s.arrived) + " of " + stakeCount(s.expect)
	}
	switch {
	case s.broke != nil:
		return []string{count + " arrived; the answer broke off: r to retry", "E: why"}
	case s.feed != nil && s.arrived == 0:
		return nil // the table says it is loading
	case s.feed != nil && !known:
		return []string{count + " so far…"}
	case s.feed != nil:
		return []string{count + "…"}
	case s.sums == nil:
		return nil
	}
	return summarize(s.sums, s.total, s.unit)
}

// Mode is the list's, busy too while the pool's stakes arrive or a
// wallet's are asked for.
func (s *stakes) Mode() views.Mode {
	m := s.List.Mode()
	m.Busy = s.finding || s.feed != nil || s.walletBusy
	return m
}

// LoadErr is why the stakes could not be loaded, or why their answer broke
// off, for the error details (E).
func (s *stakes) LoadErr() error {
	if s.Err != nil {
		return s.Err
	}
	return s.broke
}

func (s *stakes) Update(msg tea.Msg) tea.Cmd {
	cmd := tea.Batch(s.update(msg), s.dropRefused())
	if s.histogram {
		return tea.Batch(cmd, s.countShown())
	}
	return cmd
}

func (s *stakes) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.Loaded[api.Pool]:
		if msg.Seq != s.Seq {
			return nil
		}
		return s.found(msg)
	case stakesArrived:
		if msg.seq == s.quietSeq && s.quiet != nil {
			return s.takeQuiet(msg)
		}
		if msg.seq != s.Seq {
			return nil
		}
		return s.take(msg)
	case views.RefreshMsg:
		if msg.Chain {
			return nil // the service's list: its own rhythm
		}
		return s.refresh()
	case views.Loaded[walletStakes]:
		if msg.Seq != s.walletSeq {
			return nil
		}
		s.walletBusy = false
		if msg.Err != nil {
			s.walletFailed = true
			return func() tea.Msg { return views.ErrorMsg{Op: "stakes of " + msg.Value.wallet, Err: msg.Err} }
		}
		if s.wallet == "" {
			s.all = s.Table.Rows()
		}
		s.wallet, s.walletN = msg.Value.wallet, len(msg.Value.rows)
		s.refreshLine()
		return tea.Batch(s.SetRows(msg.Value.rows), s.mended())
	case shownBins:
		s.shownBusy = false
		s.shown, s.shownFor = msg.bins, msg.key
		return nil
	case tea.KeyMsg:
		if bs, apart := s.apart(); apart {
			cmd, _ := bs.Dispatch(msg)
			return cmd
		}
	}
	return s.List.Update(msg)
}

// noSession is whether the screen was opened with no session: its error
// state then is all it shows, and no key of its own does anything.
func (s *stakes) noSession() bool { return errors.Is(s.Err, errNoSession) }

func (s *stakes) View() string {
	if s.noSession() {
		// Not the list's failed load: it offers r, which has no one to ask.
		text := "✗ stakes: " + errNoSession.Error() + "\n\nesc: back"
		return widget.Page(text, s.Width, max(s.Height, 1))
	}
	var none *api.NoPoolError
	if errors.As(s.Err, &none) {
		text := "✗ stakes: " + sanitize.Line(none.Error()) + "\n\nesc: back · r: look again"
		return widget.Page(text, s.Width, max(s.Height, 1))
	}
	if !s.histogram {
		return s.List.View()
	}
	what := titled("Stake sizes", s.unit) + " in " + s.pool.Name + ", staked (not withdrawn)"
	if q := s.Table.Query(); q != "" {
		what += fmt.Sprintf(" matching %q", q)
	}
	bins := &s.bins
	if !s.unfiltered() {
		bins = &s.shown
		if s.shownFor != s.shownKey() {
			what += " (counting…)"
		}
	}
	// The hint goes before the title is cut.
	title := s.Ctx.Styles.Title.Render(widget.JoinParts(s.Width, " ", sanitize.Line(what), "(h: back to the list)"))
	return title + "\n" + widget.Histogram(bins.Buckets(), s.Width, max(s.Height-1, 3))
}
