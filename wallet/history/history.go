// Package history reads what happened to allocations on chain (D18): the
// claims, the cancel, the revoke and each transfer of beneficiary of one
// allocation, or every claim that reached a wallet from a token's vesters.
//
// No event of the production vester names a claim. A claim's trace is the
// token's Transfer(vester -> recipient) in the withdraw's transaction, and
// the withdraw's input (its decodableArgs) names the allocation. So the
// history asks the node for Transfer logs in block ranges it accepts,
// reads each one's transaction and receipt, and keeps a claim only when
// they agree with the log: a node's answer that does not hold together is
// skipped with a warning, never shown as a row.
//
// D-ids in its comments (D8, D18, ...) are the entries of
// docs/deployment.md.
package history

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/internal/sanitize"
	"allot/wallet/vesting"
)

// Node is what the history reads from an EVM node: go-ethereum's
// ethclient.Client is one.
type Node interface {
	ethereum.ContractCaller
	CodeAt(ctx context.Context, account common.Address, block *big.Int) ([]byte, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	ChainID(ctx context.Context) (*big.Int, error)
	BlockNumber(ctx context.Context) (uint64, error)
	HeaderByHash(ctx context.Context, hash common.Hash) (*types.Header, error)
	TransactionByHash(ctx context.Context, hash common.Hash) (tx *types.Transaction, isPending bool, err error)
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
	BlockByHash(ctx context.Context, hash common.Hash) (*types.Block, error)
	BlockReceipts(ctx context.Context, block rpc.BlockNumberOrHash) ([]*types.Receipt, error)
}

// Kind is what an event of an allocation's life is.
type Kind string

// The kinds of events.
const (
	Claim    Kind = "claim"
	Cancel   Kind = "cancel"
	Revoke   Kind = "revoke"
	Transfer Kind = "transfer" // of the beneficiary: the withdrawal address changed
)

// Event is one thing that happened to an allocation, as the chain holds it.
type Event struct {
	Kind     Kind
	Time     time.Time // the block's, UTC
	Block    uint64
	TxIndex  uint
	LogIndex uint
	Tx       common.Hash
	// Sender is the account that sent the transaction: anyone may send a
	// withdraw; a cancel or a revoke comes from a benefactor.
	Sender     common.Address
	Vester     common.Address
	Allocation string // sanitized, as the withdraw's input or the event names it

	// A claim's: the token moved, what it moved in base units, where to,
	// whether through a post-claim handler (then Recipient is the handler
	// contract, not a wallet), the transaction's value in wei (the claim
	// fee paid) and what its gas cost the sender in wei (the receipt's
	// gasUsed times its effectiveGasPrice). Both are the Sender's costs,
	// not the Recipient's.
	Token     common.Address
	Symbol    string // the token's symbol() on chain, sanitized; empty when it has none
	Amount    *big.Int
	Recipient common.Address
	Handler   bool
	Fee       *big.Int
	Gas       *big.Int

	// A transfer's: the new withdrawal address.
	NewBeneficiary common.Address
}

// History is what a scan found.
type History struct {
	Events []Event // in chain order
	// FromBlock and ToBlock are the blocks scanned.
	FromBlock, ToBlock uint64
	// Warnings say what was skipped and why, sanitized, at most
	// maxWarnings; Skipped counts every one.
	Warnings []string
	Skipped  int
}

// Progress is how far a scan is: blocks scanned of the range, logs found,
// and of those, how many were checked against their transactions.
type Progress struct {
	Scanned, Blocks uint64
	Found, Checked  int
}

// Options configure a Reader.
type Options struct {
	// FromBlock and ToBlock bound the scan; ToBlock 0 is the head when the
	// scan starts. FromBlock 0 is the first block a vester has code at,
	// when the node can tell.
	FromBlock, ToBlock uint64
	// Span is the block range of the first log query (DefaultSpan if 0).
	Span uint64
	// Sleep waits between the questions to a node that said it was busy
	// (HTTP 429 or 5xx): a timer when nil; tests give their own.
	Sleep func(context.Context, time.Duration) error
	// Progress, when set, is called after each range scanned and every
	// few hundred logs checked, from one goroutine at a time (the checks
	// run on several).
	Progress func(Progress)
	// Births remembers the vesters' first blocks between scans (this
	// process's memory when nil; BirthFile keeps them between runs).
	Births Births
}

// Reader reads histories from a node.
type Reader struct {
	node Node
	opts Options
}

// New returns a reader of node.
func New(node Node, opts Options) *Reader { return &Reader{node: node, opts: opts} }

// maxWarnings bounds the warnings kept: a hostile node could make every
// log one.
const maxWarnings = 50

// maxRecipients bounds the addresses an allocation's claims are looked
// for at: its beneficiary, each new one and the handlers.
const maxRecipients = 100

// ErrNotVester: the contract does not answer token() as a vester does.
var ErrNotVester = errors.New("not a vester: it has no token()")

// Allocation reads the life of allocation a on vester, the contract that
// holds its root (wallet.FindVester): each claim, the cancel, the revoke,
// each transfer of beneficiary, in chain order.
func (r *Reader) Allocation(ctx context.Context, vester common.Address, a vesting.Allocation) (*History, error) {
	token, err := vesterToken(ctx, r.node, vester)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sanitize.Truncate(a.ID, 60), err)
	}
	handlers, err := postClaimHandlers(ctx, r.node, vester)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sanitize.Truncate(a.ID, 60), err)
	}
	s, err := r.start(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.fromBirth(ctx, []common.Address{vester}); err != nil {
		return nil, fmt.Errorf("history of %s: %w", sanitize.Truncate(a.ID, 60), err)
	}
	s.allocation = a.ID
	// Tokens reach the beneficiary, each address it was transferred to
	// from then on, or a handler: the Transfers to look at.
	recipients := []common.Hash{addressTopic(a.OriginalBeneficiary)}
	for _, h := range handlers {
		if h != (common.Address{}) { // 0 stands for the direct claim
			recipients = appendNew(recipients, addressTopic(h))
		}
	}
	vesterEvents := ethereum.FilterQuery{Addresses: []common.Address{vester}, Topics: [][]common.Hash{{topicCanceled, topicRevoked, topicTransferred}}}
	err = s.each(ctx, func(from, to uint64) error {
		// The vester's events first: a transfer of beneficiary adds the
		// address the claims after it go to.
		logs, err := s.scan.logs(ctx, vesterEvents, from, to)
		if err != nil {
			return err
		}
		for _, l := range logs {
			p, ok := s.vesterEvent(l, vester)
			if !ok || p.allocation != a.ID {
				continue
			}
			if p.kind == Transfer {
				if recipients = appendNew(recipients, addressTopic(p.newBeneficiary)); len(recipients) > maxRecipients {
					return fmt.Errorf("the allocation was transferred more than %d times", maxRecipients)
				}
			}
			if err := s.add(p); err != nil {
				return err
			}
		}
		claims := ethereum.FilterQuery{Addresses: []common.Address{token}, Topics: [][]common.Hash{{topicTransfer}, {addressTopic(vester)}, recipients}}
		if logs, err = s.scan.logs(ctx, claims, from, to); err != nil {
			return err
		}
		for _, l := range logs {
			if err := s.add(pending{log: l, kind: Claim, vester: vester, token: token}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sanitize.Truncate(a.ID, 60), err)
	}
	h, err := s.finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sanitize.Truncate(a.ID, 60), err)
	}
	return h, nil
}

// Wallet reads every claim whose tokens reached wallet from one of
// vesters, each with the allocation its withdraw names. Candidates that
// are not vesters (no token() answer) are passed over; none left is an
// error wrapping ErrNotVester.
func (r *Reader) Wallet(ctx context.Context, wallet common.Address, vesters []common.Address) (*History, error) {
	tokens := map[common.Address]common.Address{} // vester -> token
	var addresses []common.Address
	var from []common.Hash
	for _, v := range vesters {
		token, err := vesterToken(ctx, r.node, v)
		if errors.Is(err, ErrNotVester) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", wallet.Hex(), err)
		}
		if _, ok := tokens[v]; ok {
			continue
		}
		tokens[v] = token
		if !slices.Contains(addresses, token) {
			addresses = append(addresses, token)
		}
		from = append(from, addressTopic(v))
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("history of %s: none of the %d contracts asked is a vester: %w", wallet.Hex(), len(vesters), ErrNotVester)
	}
	s, err := r.start(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.fromBirth(ctx, slices.Collect(maps.Keys(tokens))); err != nil {
		return nil, fmt.Errorf("history of %s: %w", wallet.Hex(), err)
	}
	claims := ethereum.FilterQuery{Addresses: addresses, Topics: [][]common.Hash{{topicTransfer}, from, {addressTopic(wallet)}}}
	err = s.each(ctx, func(a, b uint64) error {
		logs, err := s.scan.logs(ctx, claims, a, b)
		if err != nil {
			return err
		}
		for _, l := range logs {
			vester, _ := topicAddress(l.Topics[1])
			if tokens[vester] != l.Address {
				s.warnf("skipped a transfer in transaction %s: contract %s is not the token of vester %s", l.TxHash.Hex(), l.Address.Hex(), vester.Hex())
				continue
			}
			if err := s.add(pending{log: l, kind: Claim, vester: vester, token: l.Address}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", wallet.Hex(), err)
	}
	h, err := s.finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", wallet.Hex(), err)
	}
	return h, nil
}

// scan is one reading: the range, the scanner, the logs found and what
// was skipped.
type scan struct {
	r        *Reader
	scan     *scanner
	from, to uint64
	// allocation, when set, is the one allocation whose claims are kept:
	// another's claim paid to the same address is not a warning.
	allocation string
	found      []pending
	progress   Progress

	mu       sync.Mutex // warnings come from the checking goroutines too
	warnings []string
	skipped  int
}

// start fixes the range: the head is read once, so that a scan ends.
func (r *Reader) start(ctx context.Context) (*scan, error) {
	s := &scan{r: r, from: r.opts.FromBlock, to: r.opts.ToBlock}
	if s.to == 0 {
		head, err := r.node.BlockNumber(ctx)
		if err != nil {
			return nil, fmt.Errorf("head block: %w", err)
		}
		s.to = head
	}
	if s.from > s.to {
		return nil, fmt.Errorf("from block %d is after block %d", s.from, s.to)
	}
	s.scan = newScanner(r.node, r.opts.Span, s.warnf, r.opts.Sleep)
	s.progress.Blocks = s.to - s.from + 1
	return s, nil
}

// each calls visit for consecutive windows of the range, reporting
// progress after each.
func (s *scan) each(ctx context.Context, visit func(from, to uint64) error) error {
	for a := s.from; ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := s.to
		if s.to-a >= s.scan.maxSpan {
			b = a + s.scan.maxSpan - 1
		}
		if err := visit(a, b); err != nil {
			return err
		}
		s.progress.Scanned = b - s.from + 1
		s.report()
		if b == s.to {
			return nil
		}
		a = b + 1
	}
}

func (s *scan) report() {
	if s.r.opts.Progress != nil {
		s.r.opts.Progress(s.progress)
	}
}

func (s *scan) add(p pending) error {
	if len(s.found) >= MaxFound {
		return fmt.Errorf("more than %d events between blocks %d and %d: ask for fewer blocks", MaxFound, s.from, s.to)
	}
	s.found = append(s.found, p)
	s.progress.Found = len(s.found)
	return nil
}

func (s *scan) warnf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped++
	if len(s.warnings) < maxWarnings {
		s.warnings = append(s.warnings, sanitize.Line(fmt.Sprintf(format, args...)))
	}
}

// finish checks what was found against the transactions and receipts,
// and returns the events in chain order.
func (s *scan) finish(ctx context.Context) (*History, error) {
	events, err := s.check(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(events, func(a, b Event) int {
		switch {
		case a.Block != b.Block:
			return cmpUint(a.Block, b.Block)
		case a.TxIndex != b.TxIndex:
			return cmpUint(uint64(a.TxIndex), uint64(b.TxIndex))
		}
		return cmpUint(uint64(a.LogIndex), uint64(b.LogIndex))
	})
	events = s.oneClaimEach(events)
	return &History{Events: events, FromBlock: s.from, ToBlock: s.to, Warnings: s.warnings, Skipped: s.skipped}, nil
}

// oneClaimEach drops, with a warning, the claims of a transaction that
// moved a vester's tokens more than once: a withdraw pays one recipient
// once, so which Transfer is the claim cannot be told.
func (s *scan) oneClaimEach(events []Event) []Event {
	type key struct {
		tx     common.Hash
		vester common.Address
	}
	count := map[key]int{}
	for _, e := range events {
		if e.Kind == Claim {
			count[key{e.Tx, e.Vester}]++
		}
	}
	return slices.DeleteFunc(events, func(e Event) bool {
		if e.Kind != Claim || count[key{e.Tx, e.Vester}] < 2 {
			return false
		}
		s.warnf("skipped transfer %d of transaction %s: the transaction moved vester %s's tokens more than once", e.LogIndex, e.Tx.Hex(), e.Vester.Hex())
		return true
	})
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func appendNew(list []common.Hash, h common.Hash) []common.Hash {
	if slices.Contains(list, h) {
		return list
	}
	return append(list, h)
}

func blockNumber(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
