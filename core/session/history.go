package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/history"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// maxHistoryAnswer bounds one answer of a profile's node to the history's
// requests: a log query, a block, its receipts. A larger answer is cut
// off, and the history asks for a smaller range.
const maxHistoryAnswer = 32 << 20

// AllocationHistory reads the life of allocation id from the chain: its
// leaf from the service's proof, its vester the contract that holds the
// proof's root (wallet.FindVester, among the profile's pinned vesters or
// its tokens' contracts), then its claims, cancel, revoke and transfers
// (wallet/history). The service's proof must be of the allocation asked.
func (s *Session) AllocationHistory(ctx context.Context, id string, opts history.Options) (*history.History, error) {
	node, err := s.historyNode()
	if err != nil {
		return nil, err
	}
	vester, args, err := s.allocationVester(ctx, id)
	if err != nil {
		return nil, err
	}
	return history.New(node, s.withBirths(opts)).Allocation(ctx, vester, args.Allocation)
}

// WalletHistory reads every claim whose tokens reached wallet from the
// vesters of the profile's tokens, pinned or not.
func (s *Session) WalletHistory(ctx context.Context, wallet common.Address, opts history.Options) (*history.History, error) {
	node, err := s.historyNode()
	if err != nil {
		return nil, err
	}
	candidates, err := s.vesterCandidates(ctx, true)
	if err != nil {
		return nil, err
	}
	return history.New(node, s.withBirths(opts)).Wallet(ctx, wallet, candidates)
}

// births remembers contracts' deployment blocks between runs, in the
// state directory: the next history of the same vester, or the next pin
// question about the same contract, checks that block with two questions
// instead of searching the chain again. Without a state directory, this
// process remembers them.
func (s *Session) births() history.Births {
	if s.StateDir == "" {
		return nil
	}
	return history.BirthFile(filepath.Join(s.StateDir, "births.json"))
}

// withBirths is opts remembering first blocks in the state directory,
// unless the caller gave its own.
func (s *Session) withBirths(opts history.Options) history.Options {
	if opts.Births == nil {
		opts.Births = s.births()
	}
	return opts
}

// allocationVester establishes where allocation id lives on chain.
func (s *Session) allocationVester(ctx context.Context, id string) (common.Address, vesting.Args, error) {
	proof, args, err := s.allocationProof(ctx, id)
	if err != nil {
		return common.Address{}, vesting.Args{}, err
	}
	vester, err := s.vesterOf(ctx, proof)
	return vester, args, err
}

// allocationProof is the service's proof of allocation id and its leaf's
// arguments; a proof of another allocation is refused.
func (s *Session) allocationProof(ctx context.Context, id string) (*wallet.Proof, vesting.Args, error) {
	res, err := s.API.MerkleProof(ctx, id)
	if err != nil {
		return nil, vesting.Args{}, err
	}
	proof, err := wallet.ProofFromAPI(res)
	if err != nil {
		return nil, vesting.Args{}, err
	}
	args, err := vesting.Decode(proof.DecodableArgs)
	if err != nil {
		return nil, vesting.Args{}, fmt.Errorf("the allocation's leaf: %w", err)
	}
	if args.Allocation.ID != id {
		return nil, vesting.Args{}, fmt.Errorf("the service's proof is of allocation %q, not of %s", sanitize.Truncate(args.Allocation.ID, 60), id)
	}
	return proof, args, nil
}

// vesterOf is the contract that holds the root of proof on the chain:
// among the pinned vesters first, else among every listed one.
func (s *Session) vesterOf(ctx context.Context, proof *wallet.Proof) (common.Address, error) {
	root := merkle.ProcessProof(merkle.Leaf(proof.DecodableArgs), proof.Siblings)
	var check wallet.VesterCheck
	var err error
	for _, everyListed := range []bool{false, true} {
		var candidates []common.Address
		if candidates, err = s.vesterCandidates(ctx, everyListed); err != nil {
			return common.Address{}, err
		}
		if check, err = wallet.FindVester(ctx, s.Chain, candidates, proof.RootIndex, root); !errors.Is(err, wallet.ErrNoVester) {
			break
		}
	}
	if err != nil {
		return common.Address{}, fmt.Errorf("the allocation's vester: %w", err)
	}
	return check.Vester, nil
}

// historyNode is the node the history reads: the embedded sandbox's chain
// in process, or the profile's rpc_url through a connection of the
// history's own whose answers are bounded (maxHistoryAnswer).
func (s *Session) historyNode() (history.Node, error) {
	switch n := s.Chain.(type) {
	case seededNode:
		return n, nil
	case nil:
		return nil, fmt.Errorf("profile %q has no rpc_url to read the history from", s.Name)
	}
	if s.historyChain != nil {
		return history.Client(s.historyChain), nil
	}
	// A session made otherwise (tests) reads through its chain client.
	switch n := s.Chain.(type) {
	case *ethclient.Client:
		return history.Client(n), nil
	case history.Node:
		return n, nil
	}
	return nil, fmt.Errorf("profile %q: its chain client reads no logs", s.Name)
}

// dialHistory connects to rawURL for the history (dialing HTTP connects
// on first use).
func dialHistory(rawURL string) (*ethclient.Client, error) {
	client, err := rpc.DialOptions(context.Background(), rawURL, rpc.WithHTTPClient(&http.Client{
		Transport: boundedAnswers{next: http.DefaultTransport, limit: maxHistoryAnswer},
	}))
	if err != nil {
		return nil, err
	}
	return ethclient.NewClient(client), nil
}

// boundedAnswers cuts an answer off after limit bytes, with an error
// wrapping history.ErrAnswerTooLarge.
type boundedAnswers struct {
	next  http.RoundTripper
	limit int64
}

func (b boundedAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &boundedBody{body: resp.Body, left: b.limit}
	return resp, nil
}

type boundedBody struct {
	body io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("%w (more than %d MiB)", history.ErrAnswerTooLarge, maxHistoryAnswer>>20)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.body.Close() }

// The embedded sandbox's chain serves the history too: its client is an
// ethclient.Client.

var (
	_ history.Node    = seededNode{}
	_ history.Batcher = seededNode{}
)

// logNode is what the in-process client is besides a wallet.Node.
type logNode interface {
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	HeaderByHash(ctx context.Context, hash common.Hash) (*types.Header, error)
	BlockByHash(ctx context.Context, hash common.Hash) (*types.Block, error)
	BlockReceipts(ctx context.Context, block rpc.BlockNumberOrHash) ([]*types.Receipt, error)
	Client() *rpc.Client
}

var errNoLogs = errors.New("the embedded sandbox's chain client reads no logs")

func (n seededNode) logs(ctx context.Context) (logNode, error) {
	node, err := n.wait(ctx)
	if err != nil {
		return nil, err
	}
	l, ok := node.(logNode)
	if !ok {
		return nil, errNoLogs
	}
	return l, nil
}

func (n seededNode) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	l, err := n.logs(ctx)
	if err != nil {
		return nil, err
	}
	return l.FilterLogs(ctx, q)
}

func (n seededNode) HeaderByHash(ctx context.Context, hash common.Hash) (*types.Header, error) {
	l, err := n.logs(ctx)
	if err != nil {
		return nil, err
	}
	return l.HeaderByHash(ctx, hash)
}

func (n seededNode) BlockByHash(ctx context.Context, hash common.Hash) (*types.Block, error) {
	l, err := n.logs(ctx)
	if err != nil {
		return nil, err
	}
	return l.BlockByHash(ctx, hash)
}

func (n seededNode) BlockReceipts(ctx context.Context, block rpc.BlockNumberOrHash) ([]*types.Receipt, error) {
	l, err := n.logs(ctx)
	if err != nil {
		return nil, err
	}
	return l.BlockReceipts(ctx, block)
}

func (n seededNode) BatchCallContext(ctx context.Context, batch []rpc.BatchElem) error {
	l, err := n.logs(ctx)
	if err != nil {
		return err
	}
	return l.Client().BatchCallContext(ctx, batch)
}
