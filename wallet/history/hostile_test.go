package history

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/api/sandbox/chain"
)

// proxy is a Node over a real one whose answers a test bends: it refuses
// log queries over more than maxSpan blocks, and rewrites logs,
// transactions, receipts and headers.
type proxy struct {
	Node
	maxSpan uint64 // 0: no limit
	refusal error  // what a refused query gets; a JSON-RPC error by default
	logs    func(from, to uint64, logs []types.Log) []types.Log
	tx      func(*types.Transaction) *types.Transaction
	receipt func(*types.Receipt) *types.Receipt
	header  func(*types.Header) *types.Header

	mu      sync.Mutex
	queries [][2]uint64
}

// limitError is a node's JSON-RPC answer to a range it does not serve,
// as public nodes word it.
type limitError struct{}

func (limitError) Error() string  { return "query returned more than 10000 results" }
func (limitError) ErrorCode() int { return -32005 }

var _ rpc.Error = limitError{}

func (p *proxy) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	from, to := q.FromBlock.Uint64(), q.ToBlock.Uint64()
	p.mu.Lock()
	p.queries = append(p.queries, [2]uint64{from, to})
	p.mu.Unlock()
	if p.maxSpan > 0 && to-from+1 > p.maxSpan {
		if p.refusal != nil {
			return nil, p.refusal
		}
		return nil, limitError{}
	}
	logs, err := p.Node.FilterLogs(ctx, q)
	if err == nil && p.logs != nil {
		logs = p.logs(from, to, logs)
	}
	return logs, err
}

func (p *proxy) TransactionByHash(ctx context.Context, h common.Hash) (*types.Transaction, bool, error) {
	tx, pending, err := p.Node.TransactionByHash(ctx, h)
	if err == nil && p.tx != nil {
		tx = p.tx(tx)
	}
	return tx, pending, err
}

func (p *proxy) TransactionReceipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	r, err := p.Node.TransactionReceipt(ctx, h)
	if err == nil && p.receipt != nil {
		r = p.receipt(r)
	}
	return r, err
}

func (p *proxy) HeaderByHash(ctx context.Context, h common.Hash) (*types.Header, error) {
	header, err := p.Node.HeaderByHash(ctx, h)
	if err == nil && p.header != nil {
		header = p.header(header)
	}
	return header, err
}

// spreadClaims mines claims of alice's first allocation over some forty
// blocks and returns their receipts.
func spreadClaims(t *testing.T, f *fixture) []*types.Receipt {
	t.Helper()
	var receipts []*types.Receipt
	for i := range 5 {
		receipts = append(receipts, f.claim(t, f.alice, aliceFirst, ether(int64(i+1))))
		f.emptyBlocks(7)
	}
	return receipts
}

func txHashes(events []Event) []common.Hash {
	var out []common.Hash
	for _, e := range events {
		out = append(out, e.Tx)
	}
	return out
}

func sameTxs(t *testing.T, got []Event, want []*types.Receipt) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i, r := range want {
		if got[i].Tx != r.TxHash {
			t.Errorf("event %d is transaction %s, want %s", i, got[i].Tx.Hex(), r.TxHash.Hex())
		}
	}
}

// TestRefusedRangesSplit: a node that serves at most 3 blocks a query,
// with a JSON-RPC error or a gateway's 413, gets every range in pieces it
// serves, and the history is whole.
func TestRefusedRangesSplit(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	for name, refusal := range map[string]error{
		"json-rpc error": nil,
		"http 413":       rpc.HTTPError{StatusCode: 413, Status: "413 Request Entity Too Large"},
	} {
		t.Run(name, func(t *testing.T) {
			p := &proxy{Node: f.node, maxSpan: 3, refusal: refusal}
			h, err := New(p, Options{}).Allocation(context.Background(), f.vester, f.allocs[aliceFirst].Allocation)
			if err != nil {
				t.Fatal(err)
			}
			sameTxs(t, h.Events, want)
			served := 0
			for _, q := range p.queries {
				if q[1]-q[0]+1 <= 3 {
					served++
				}
			}
			// Two queries (the vester's events, the transfers) for each
			// range of at most 3 blocks, and a few refused on the way.
			if blocks := int(h.ToBlock + 1); served > 2*blocks || len(p.queries) > 2*blocks {
				t.Errorf("%d queries (%d served) for %d blocks", len(p.queries), served, blocks)
			}
		})
	}
}

// TestRefusedEverything: a node that refuses even one block ends the scan
// with an error that says so, after a bounded number of tries; a node that
// cannot be reached ends it at once.
func TestRefusedEverything(t *testing.T) {
	f := newFixture(t)
	spreadClaims(t, f)
	all := &refuser{proxy: &proxy{Node: f.node}}
	_, err := New(all, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err == nil || !strings.Contains(err.Error(), "refuses even one block") {
		t.Fatalf("error %v, want the node's refusal of one block", err)
	}
	if n := len(all.queries); n > 20 {
		t.Errorf("%d queries before giving up", n)
	}

	down := &refuser{proxy: &proxy{Node: f.node}, err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}
	_, err = New(down, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || len(down.queries) != 1 {
		t.Fatalf("unreachable node: %v after %d queries, want its error after one", err, len(down.queries))
	}
}

// refuser fails every log query.
type refuser struct {
	*proxy
	err error // limitError{} when nil
}

func (r *refuser) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	r.mu.Lock()
	r.queries = append(r.queries, [2]uint64{q.FromBlock.Uint64(), q.ToBlock.Uint64()})
	r.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	return nil, limitError{}
}

// TestHugeAnswerSplit: an answer of more logs than allot reads is taken as
// a refusal: the range is split until the answers are small.
func TestHugeAnswerSplit(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	p := &proxy{Node: f.node}
	p.logs = func(from, to uint64, logs []types.Log) []types.Log {
		if to-from < 8 || len(logs) == 0 {
			return logs
		}
		huge := make([]types.Log, MaxLogsPerAnswer+1)
		for i := range huge {
			huge[i] = logs[0]
		}
		return huge
	}
	h, err := New(p, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err != nil {
		t.Fatal(err)
	}
	sameTxs(t, h.Events, want)
}

// TestLogsNotAsked: logs the node gives that do not answer the query
// (another contract, another event, another sender, outside the range,
// removed) are skipped with a warning each.
func TestLogsNotAsked(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	p := &proxy{Node: f.node}
	p.logs = func(from, to uint64, logs []types.Log) []types.Log {
		if len(logs) == 0 {
			return logs
		}
		real := logs[0]
		bend := func(change func(l *types.Log)) types.Log {
			l := real
			l.Topics = append([]common.Hash{}, real.Topics...)
			change(&l)
			return l
		}
		return append(logs,
			bend(func(l *types.Log) { l.Address = common.HexToAddress("0xbad") }),
			bend(func(l *types.Log) { l.Topics[0] = topicCanceled }),
			bend(func(l *types.Log) { l.Topics[1] = addressTopic(common.HexToAddress("0xbad")) }),
			bend(func(l *types.Log) { l.BlockNumber = to + 1 }),
			bend(func(l *types.Log) { l.Removed = true }),
		)
	}
	h, err := New(p, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err != nil {
		t.Fatal(err)
	}
	sameTxs(t, h.Events, want)
	if h.Skipped != 5 { // one answer holds every claim
		t.Errorf("%d skipped, want 5: %v", h.Skipped, h.Warnings)
	}
	if len(h.Warnings) == 0 || !strings.Contains(h.Warnings[0], "not what was asked") {
		t.Errorf("warnings %v", h.Warnings)
	}
}

// TestAnswersDisagree: a log whose transaction, receipt or block the node
// answers with something else is skipped with a warning, never a row;
// the other claims stay.
func TestAnswersDisagree(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	victim := want[2].TxHash
	other := func(t *testing.T) *types.Transaction {
		tx, _, err := f.node.TransactionByHash(context.Background(), want[0].TxHash)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}(t)
	forged := func(logs []types.Log) []types.Log {
		// A Transfer to alice the vester never made, pinned on a real
		// withdraw.
		for _, l := range logs {
			if l.TxHash == victim {
				fake := l
				fake.Index += 7
				fake.Data = common.LeftPadBytes(ether(1_000_000).Bytes(), 32)
				return append(logs, fake)
			}
		}
		return logs
	}
	receipt := func(change func(r *types.Receipt)) func(*types.Receipt) *types.Receipt {
		return func(r *types.Receipt) *types.Receipt {
			if r.TxHash != victim {
				return r
			}
			c := *r
			c.Logs = append([]*types.Log{}, r.Logs...)
			change(&c)
			return &c
		}
	}
	cases := []struct {
		name string
		bend func(p *proxy)
		why  string
	}{
		{"failed transaction", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) { r.Status = types.ReceiptStatusFailed })
		}, "failed"},
		{"receipt without the log", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) { r.Logs = nil })
		}, "holds no log"},
		{"another log in the receipt", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) {
				l := *r.Logs[len(r.Logs)-1]
				l.Data = common.LeftPadBytes(big.NewInt(1).Bytes(), 32)
				r.Logs[len(r.Logs)-1] = &l
			})
		}, "another one"},
		{"more gas used than the limit", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) { r.GasUsed = 1_000_001 })
		}, "more than its limit"},
		{"a gas price above the cap", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) { r.EffectiveGasPrice = big.NewInt(1e18) })
		}, "above the"},
		{"receipt of another block", func(p *proxy) {
			p.receipt = receipt(func(r *types.Receipt) { r.BlockHash = common.Hash{1} })
		}, "another block"},
		{"another transaction", func(p *proxy) {
			p.tx = func(tx *types.Transaction) *types.Transaction {
				if tx.Hash() == victim {
					return other
				}
				return tx
			}
		}, "another one"},
		{"another block's header", func(p *proxy) {
			p.header = func(h *types.Header) *types.Header {
				if h.Number.Uint64() == want[2].BlockNumber.Uint64() {
					c := types.CopyHeader(h)
					c.Number = big.NewInt(1)
					return c
				}
				return h
			}
		}, "is not block"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &proxy{Node: f.node}
			c.bend(p)
			h, err := New(p, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
			if err != nil {
				t.Fatal(err)
			}
			sameTxs(t, h.Events, append(append([]*types.Receipt{}, want[:2]...), want[3:]...))
			if h.Skipped != 1 || !strings.Contains(h.Warnings[0], c.why) || !strings.Contains(h.Warnings[0], victim.Hex()) {
				t.Errorf("warnings %v, want one naming %s: %s", h.Warnings, victim.Hex(), c.why)
			}
		})
	}
	t.Run("forged log", func(t *testing.T) {
		p := &proxy{Node: f.node, logs: func(_, _ uint64, logs []types.Log) []types.Log { return forged(logs) }}
		h, err := New(p, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
		if err != nil {
			t.Fatal(err)
		}
		sameTxs(t, h.Events, want)
		for _, e := range h.Events {
			if e.Amount.Cmp(ether(1_000_000)) == 0 {
				t.Errorf("the forged transfer is a row: %+v", e)
			}
		}
		if h.Skipped != 1 || !strings.Contains(h.Warnings[0], "holds no log") {
			t.Errorf("warnings %v", h.Warnings)
		}
	})
}

// TestGasWithoutEffectivePrice: a node that states no effectiveGasPrice
// in its receipts (older ones) has the gas cost computed from the
// transaction's fee caps and the block's base fee, the same as the
// chain's own receipts say.
func TestGasWithoutEffectivePrice(t *testing.T) {
	f := newFixture(t)
	want := spreadClaims(t, f)
	p := &proxy{Node: f.node, receipt: func(r *types.Receipt) *types.Receipt {
		c := *r
		c.EffectiveGasPrice = nil
		return &c
	}}
	h, err := New(p, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err != nil {
		t.Fatal(err)
	}
	sameTxs(t, h.Events, want)
	for i, e := range h.Events {
		if e.Gas.Cmp(gasCost(want[i])) != 0 {
			t.Errorf("claim %d: gas %s wei, want %s", i, e.Gas, gasCost(want[i]))
		}
	}
}

// rawProxy is a node that takes batches, whose raw transactions a test
// bends; refuse answers every batch with method not found.
type rawProxy struct {
	Node
	client  *rpc.Client
	refuse  bool
	bend    func(batch []rpc.BatchElem)
	batches int
}

type noMethod struct{}

func (noMethod) Error() string  { return "the method does not exist" }
func (noMethod) ErrorCode() int { return methodNotFound }

func (p *rawProxy) BatchCallContext(ctx context.Context, batch []rpc.BatchElem) error {
	p.batches++
	if p.refuse {
		for i := range batch {
			batch[i].Error = noMethod{}
		}
		return nil
	}
	err := p.client.BatchCallContext(ctx, batch)
	if err == nil && p.bend != nil {
		p.bend(batch)
	}
	return err
}

// TestBlockOfManyClaims: a block of many claims is read whole (its
// receipts, and its claims' transactions raw in a batch where the node
// takes batches, else the block), with the same result either way; a raw
// transaction that is another one is skipped with a warning.
func TestBlockOfManyClaims(t *testing.T) {
	f := newFixture(t)
	f.benefactor(t, func(b *chain.Batch) {
		for range 6 {
			b.Withdraw(f.vester, f.leaf(t, aliceFirst), ether(1), claimFee)
		}
		b.Withdraw(f.vester, f.leaf(t, bobs), ether(1), claimFee)
	})
	read := func(node Node) *History {
		t.Helper()
		h, err := New(node, Options{}).Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	whole := read(f.node) // no batches: the block, decoded
	if len(whole.Events) != 6 || whole.Skipped != 0 || whole.Events[0].Block != whole.Events[5].Block {
		t.Fatalf("%d claims in one block (%v), want 6", len(whole.Events), whole.Warnings)
	}
	raw := &rawProxy{Node: f.node, client: f.chain.Client().Client()}
	got := read(raw)
	if raw.batches != 1 || !slices.Equal(txHashes(got.Events), txHashes(whole.Events)) || got.Events[0].Sender != f.chain.Deployer() {
		t.Errorf("raw: %d batches, %d events", raw.batches, len(got.Events))
	}
	if got := read(Client(f.chain.Client())); !slices.Equal(txHashes(got.Events), txHashes(whole.Events)) {
		t.Errorf("Client: %d events", len(got.Events))
	}
	if got := read(&rawProxy{Node: f.node, refuse: true}); !slices.Equal(txHashes(got.Events), txHashes(whole.Events)) {
		t.Errorf("no raw transactions: %d events", len(got.Events))
	}

	swapped := &rawProxy{Node: f.node, client: f.chain.Client().Client(), bend: func(batch []rpc.BatchElem) {
		*batch[2].Result.(*hexutil.Bytes) = *batch[3].Result.(*hexutil.Bytes)
	}}
	got = read(swapped)
	if len(got.Events) != 5 || got.Skipped != 1 || !strings.Contains(got.Warnings[0], "another one") {
		t.Errorf("a raw transaction swapped: %d events, warnings %v", len(got.Events), got.Warnings)
	}
}
