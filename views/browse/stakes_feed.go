package browse

import (
	"context"
	"math/big"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/holiman/uint256"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/views/widget"
)

// stakeSource streams a pool's stakes, as api.Client.StreamStakesTo does:
// the sink gets the service's total as soon as the answer holds it, and
// the rows in batches as they arrive (the batch may be reused once Rows
// returns); the total comes back at the end too. An error after some
// batches means the answer broke off after them.
type stakeSource interface {
	StreamStakesTo(ctx context.Context, req api.StakesRequest, sink api.StakesSink) (total int, err error)
}

// stakeFeed carries a pool's stakes from the goroutine reading the answer
// to the screen. The reader never waits for the screen: rows pile up until
// the screen takes them, all at once. A slow frame so gets one bigger
// batch instead of slowing the download, and a screen that was closed
// meanwhile leaves no reader stuck.
type stakeFeed struct {
	seq    int
	cancel context.CancelFunc
	wake   chan struct{} // holds one token when something arrived

	mu sync.Mutex
	// rows is every row arrived. The reader appends to it (a RowSet never
	// moves the rows it holds) and the screen shows the newest set, so a
	// stake is copied once, from the client's batch to its place.
	rows  widget.RowSet[api.StakeRow]
	sums  stakeSums // of every row arrived
	done  bool
	total int
	err   error
	// announced is the total the answer announced so far, 0 for none.
	announced int
}

// stakesArrived is what arrived since the screen last took from its feed.
type stakesArrived struct {
	seq  int
	feed *stakeFeed
	rows widget.RowSet[api.StakeRow] // every row arrived so far
	// bins counts the sizes of every stake arrived so far, staked ones.
	bins widget.Bins
	// announced is the service's count of the pool's stakes, as the
	// answer announced it before its end; 0 for none.
	announced int
	done      bool
	// Once done: the totals of every row, the service's count, and why
	// the answer broke off (nil when it did not).
	sums  *stakeSums
	total int
	err   error
}

// startFeed starts reading the stakes of req from source; the command
// delivers the first rows. The read has no deadline of its own: a million
// stakes on a slow link take minutes, and the client already gives up on
// an answer that stops moving. A refresh cancels it, and so does the end
// of root (the screens' root: quitting, switching profile).
func startFeed(root context.Context, seq int, source stakeSource, req api.StakesRequest) (*stakeFeed, tea.Cmd) {
	ctx, cancel := context.WithCancel(root)
	f := &stakeFeed{seq: seq, cancel: cancel, wake: make(chan struct{}, 1)}
	return f, func() tea.Msg {
		go f.read(ctx, source, req)
		return f.next()
	}
}

func (f *stakeFeed) read(ctx context.Context, source stakeSource, req api.StakesRequest) {
	defer f.cancel()
	total, err := source.StreamStakesTo(ctx, req, api.StakesSink{
		Total: func(total int) {
			f.mu.Lock()
			f.announced = total
			f.mu.Unlock()
			f.signal()
		},
		Rows: func(batch []api.StakeRow) error {
			// Summed before the lock: the screen may be taking rows.
			var part stakeSums
			part.add(batch)
			f.mu.Lock()
			f.rows = f.rows.Append(batch)
			f.sums.merge(&part)
			f.mu.Unlock()
			f.signal()
			return nil
		},
	})
	f.mu.Lock()
	f.done, f.total, f.err = true, total, err
	f.mu.Unlock()
	f.signal()
}

func (f *stakeFeed) signal() {
	select {
	case f.wake <- struct{}{}:
	default: // a token is there already; the screen takes everything
	}
}

// next waits until something arrived and takes it.
func (f *stakeFeed) next() tea.Msg {
	<-f.wake
	f.mu.Lock()
	defer f.mu.Unlock()
	m := stakesArrived{seq: f.seq, feed: f, rows: f.rows, bins: f.sums.bins, announced: f.announced, done: f.done}
	if f.done {
		sums := f.sums
		m.sums, m.total, m.err = &sums, f.total, f.err
	}
	return m
}

// nextCmd is the command that waits for the feed's next rows.
func (f *stakeFeed) nextCmd() tea.Cmd { return f.next }

// stakeSums are the totals of a pool's stakes, kept exactly as integers of
// base units as rows arrive. A pool's "staked" leaves out the stakes
// withdrawn, as the pool's own total does.
type stakeSums struct {
	count, withdrawnCount int
	staked, withdrawn     amountSum
	largest               api.StakeRow // the largest staked, when hasLargest
	hasLargest            bool
	bins                  widget.Bins // sizes of the stakes staked
}

func (s *stakeSums) add(rows []api.StakeRow) {
	s.count += len(rows)
	for i := range rows {
		r := &rows[i]
		if r.Status == api.StakeWithdrawn {
			s.withdrawn.add(r)
			s.withdrawnCount++
			continue
		}
		s.staked.add(r)
		addBin(&s.bins, r)
		if !s.hasLargest || api.CompareAmounts(r, &s.largest) > 0 {
			s.largest, s.hasLargest = *r, true
		}
	}
}

func (s *stakeSums) merge(o *stakeSums) {
	s.count += o.count
	s.withdrawnCount += o.withdrawnCount
	s.staked.merge(&o.staked)
	s.withdrawn.merge(&o.withdrawn)
	s.bins.Merge(&o.bins)
	if o.hasLargest && (!s.hasLargest || api.CompareAmounts(&o.largest, &s.largest) > 0) {
		s.largest, s.hasLargest = o.largest, true
	}
}

// amountSum adds amounts exactly without allocating per row: base units in
// 256 bits with a count of the times they wrapped around, and a decimal for
// the rare amount that base units cannot hold.
type amountSum struct {
	base  uint256.Int
	wraps uint64
	odd   decimal.Decimal
}

func (a *amountSum) add(r *api.StakeRow) {
	v, ok := r.AmountBase()
	if !ok {
		a.odd = a.odd.Add(r.AmountDecimal())
		return
	}
	if _, wrapped := a.base.AddOverflow(&a.base, &v); wrapped {
		a.wraps++
	}
}

func (a *amountSum) merge(o *amountSum) {
	if _, wrapped := a.base.AddOverflow(&a.base, &o.base); wrapped {
		a.wraps++
	}
	a.wraps += o.wraps
	a.odd = a.odd.Add(o.odd)
}

// decimal is the sum in token units.
func (a *amountSum) decimal() decimal.Decimal {
	sum := new(big.Int).Lsh(new(big.Int).SetUint64(a.wraps), 256)
	sum.Add(sum, a.base.ToBig())
	return decimal.NewFromBigInt(sum, -api.AmountDecimals).Add(a.odd)
}

// Powers of ten in base units, for the histogram's bins: pow10[k] = 10^k,
// and twice and five times that while they fit in 256 bits.
var pow10, pow10x2, pow10x5 = func() (p, p2, p5 []uint256.Int) {
	v := uint256.NewInt(1)
	ten, two, five := uint256.NewInt(10), uint256.NewInt(2), uint256.NewInt(5)
	for {
		p = append(p, *v)
		var t uint256.Int
		if _, over := t.MulOverflow(v, two); !over {
			p2 = append(p2, t)
		}
		if _, over := t.MulOverflow(v, five); !over {
			p5 = append(p5, t)
		}
		if _, over := v.MulOverflow(v, ten); over {
			return p, p2, p5
		}
	}
}()

// addBin counts a row's amount in its histogram bin from the integer of
// base units: its decade and whether it reaches 2 or 5 times it.
func addBin(b *widget.Bins, r *api.StakeRow) {
	v, ok := r.AmountBase()
	switch {
	case !ok:
		b.AddDecimal(r.AmountDecimal())
		return
	case v.IsZero():
		b.AddZero()
		return
	}
	// k is the largest power of ten not above v.
	lo, hi := 0, len(pow10)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if pow10[mid].Gt(&v) {
			hi = mid - 1
		} else {
			lo = mid
		}
	}
	k, lead := lo, 1
	if k < len(pow10x2) && !pow10x2[k].Gt(&v) {
		lead = 2
	}
	if k < len(pow10x5) && !pow10x5[k].Gt(&v) {
		lead = 5
	}
	b.Add(k-api.AmountDecimals, lead)
}

// binsOf counts the sizes of the staked stakes among rows[shown...], off
// the UI goroutine.
func binsOf(rows widget.RowSet[api.StakeRow], shown []int) widget.Bins {
	var b widget.Bins
	for _, i := range shown {
		if r := rows.At(i); r.Status != api.StakeWithdrawn {
			addBin(&b, r)
		}
	}
	return b
}
