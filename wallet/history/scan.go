package history

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// ErrAnswerTooLarge is what a transport returns (wrapped) when a node's
// answer is larger than it reads. A log query that meets it is split, like
// one the node refuses.
var ErrAnswerTooLarge = errors.New("the node's answer is larger than allot reads")

// Bounds of a scan.
const (
	// DefaultSpan is the block range of the first log query: public nodes
	// accept 1,000 to 10,000 blocks; a node that refuses it gets halves.
	DefaultSpan = 10_000
	// MaxLogsPerAnswer bounds one answer: nodes cap theirs at 10,000 logs
	// too. A range with more is split.
	MaxLogsPerAnswer = 10_000
	// MaxFound bounds the logs a whole scan keeps for checking.
	MaxFound = 200_000
	// QueryTimeout bounds one log query; a node that takes longer is
	// asked for half the range.
	QueryTimeout = 30 * time.Second
	// growAfter is how many answers in a row at a split span let the span
	// double again, up to the first one: a range refused for the logs it
	// held should not slow the rest of the scan.
	growAfter = 4
)

// A node that says it is busy (HTTP 429) or failing for now (5xx) is
// asked again after a pause that doubles, up to retries times, before
// the query fails (a 5xx then halves the range, as before).
const (
	retries    = 5
	firstPause = time.Second
)

// errTooMany: an answer held more than MaxLogsPerAnswer logs.
var errTooMany = errors.New("more logs than allot reads in one answer")

// scanner asks a node for logs in ranges it accepts.
type scanner struct {
	node    Node
	span    uint64 // the range of the next query
	maxSpan uint64
	inARow  int // answers in a row since the last split
	warn    func(format string, args ...any)
	sleep   func(context.Context, time.Duration) error
}

func newScanner(node Node, span uint64, warn func(string, ...any), sleep func(context.Context, time.Duration) error) *scanner {
	if span == 0 {
		span = DefaultSpan
	}
	if sleep == nil {
		sleep = pause
	}
	return &scanner{node: node, span: span, maxSpan: span, warn: warn, sleep: sleep}
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// busy reports whether err is a node's answer that the same query may
// pass later: too many requests, or a server error.
func busy(err error) bool {
	var status rpc.HTTPError
	return errors.As(err, &status) && (status.StatusCode == 429 || status.StatusCode >= 500)
}

// logs returns q's logs in blocks from..to, in the node's order, asking
// for ranges of at most s.span blocks and halving the span whenever the
// node refuses one (an error answer, a gateway's 413 or 5xx, a timeout,
// an answer too large). A refusal of a single block is an error, as is
// any other failure (the node unreachable, ctx ended). Logs that do not
// match q, or were removed by a reorganization, are dropped with a
// warning: the node answered something else than what was asked.
func (s *scanner) logs(ctx context.Context, q ethereum.FilterQuery, from, to uint64) ([]types.Log, error) {
	var out []types.Log
	for a, tries := from, 0; ; {
		b := to
		if to-a >= s.span {
			b = a + s.span - 1
		}
		got, err := s.query(ctx, q, a, b)
		if err != nil && busy(err) && tries < retries {
			if err := s.sleep(ctx, firstPause<<tries); err != nil {
				return nil, err
			}
			tries++
			continue
		}
		tries = 0
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !refused(err) {
				return nil, fmt.Errorf("logs of blocks %d to %d: %w", a, b, err)
			}
			if a == b {
				return nil, fmt.Errorf("logs of block %d: the node refuses even one block: %w", a, err)
			}
			s.span, s.inARow = max(1, (b-a+1)/2), 0
			continue
		}
		out = append(out, got...)
		if s.inARow++; s.inARow >= growAfter && s.span < s.maxSpan {
			s.span, s.inARow = min(s.span*2, s.maxSpan), 0
		}
		if b == to {
			return out, nil
		}
		a = b + 1
	}
}

// query asks for one range and keeps what matches it.
func (s *scanner) query(ctx context.Context, q ethereum.FilterQuery, from, to uint64) ([]types.Log, error) {
	ctx, cancel := context.WithTimeout(ctx, QueryTimeout)
	defer cancel()
	q.FromBlock, q.ToBlock = blockNumber(from), blockNumber(to)
	got, err := s.node.FilterLogs(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(got) > MaxLogsPerAnswer {
		return nil, fmt.Errorf("%w: %d", errTooMany, len(got))
	}
	kept := got[:0]
	for _, l := range got {
		switch {
		case l.Removed:
			s.warn("skipped a log of block %d the node marks removed (a reorganization)", l.BlockNumber)
		case !matches(l, q, from, to):
			s.warn("skipped a log the node gave for blocks %d to %d that is not what was asked (contract %s, block %d, transaction %s)",
				from, to, l.Address.Hex(), l.BlockNumber, l.TxHash.Hex())
		default:
			kept = append(kept, l)
		}
	}
	return kept, nil
}

// matches reports whether l answers q over blocks from..to: its contract
// one of q's, its topics those q asks at each position, its block in the
// range.
func matches(l types.Log, q ethereum.FilterQuery, from, to uint64) bool {
	if l.BlockNumber < from || l.BlockNumber > to {
		return false
	}
	if len(q.Addresses) > 0 && !slices.Contains(q.Addresses, l.Address) {
		return false
	}
	if len(l.Topics) < len(q.Topics) {
		return false
	}
	for i, want := range q.Topics {
		if len(want) > 0 && !slices.Contains(want, l.Topics[i]) {
			return false
		}
	}
	return true
}

// refused reports whether err is a node's refusal of a query that a
// smaller range may pass: an error answer (range or result limits), an
// HTTP status a gateway gives a query too large or too slow, a timeout of
// the query, or an answer too large.
func refused(err error) bool {
	var answer rpc.Error
	var status rpc.HTTPError
	switch {
	case errors.As(err, &answer):
		return true
	case errors.As(err, &status):
		switch status.StatusCode {
		case 400, 408, 413, 500, 502, 503, 504:
			return true
		}
		return false
	}
	return errors.Is(err, errTooMany) || errors.Is(err, ErrAnswerTooLarge) || errors.Is(err, context.DeadlineExceeded)
}
