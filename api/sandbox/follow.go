package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// stakedTopic is Staking's Staked(address indexed staker, uint256 indexed
// index, uint256 amount), the event the sandbox reads from its chain. Like
// the calls in calldata.go it is declared here, not taken from the
// compiled contracts, so that this package stays an independent reading of
// it. (A vester emits no event of its own on a claim, D18: the sandbox
// reads its schedules(id) instead.)
var stakedTopic = crypto.Keccak256Hash([]byte("Staked(address,uint256,uint256)"))

const (
	// logChunk is the most blocks one eth_getLogs asks for: public nodes
	// refuse larger ranges.
	logChunk = 2000
	// syncTimeout bounds one catch-up with the chain, every call included.
	syncTimeout = 15 * time.Second
	// maxChainStakes bounds the stakes read from the chain, as maxWrites
	// bounds the service's own writes: a sandbox is restarted long before.
	maxChainStakes = maxWrites
	// maxStakeAsks bounds the stake parameters remembered to tell which
	// pool a stake on a shared staking contract was for.
	maxStakeAsks = 1024
)

// chainStake is a stake the chain recorded (a Staked event).
type chainStake struct {
	id     string
	staker common.Address
	amount *big.Int
	at     time.Time
}

// stakeAsk is one answer of parameters/stake: the pool a stake of amount
// from wallet to contract was meant for.
type stakeAsk struct {
	contract, wallet common.Address
	amount           *big.Int
	poolID           string
	used             bool
}

// follower keeps what the sandbox read from its chain's events: the stakes
// made on it. The server catches up with
// the chain's head before every answer that depends on them (catchUp), so
// they follow the chain within the block that changed them. A reorg that
// removes a block read before starts over from the world's first block.
type follower struct {
	mu     sync.Mutex
	next   uint64                  // the next block to read
	hash   common.Hash             // the hash of block next-1, once a block was read
	stakes map[string][]chainStake // pool id -> stakes in chain order
	stakeN int
	asks   []stakeAsk // newest last

	// Set once, at the first catch-up.
	watch []common.Address
	pools map[common.Address][]*Pool // the pools staking into an address, in list order
}

// catchUp reads the events of the blocks the chain mined since the last
// call. Without a chain it does nothing.
func (s *Server) catchUp(ctx context.Context) error {
	if s.chain == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	f := &s.follow
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pools == nil {
		s.watchWorld()
		f.reset(s.chain.FirstBlock())
	}
	if len(f.watch) == 0 {
		return nil // a log filter without addresses would match every log
	}
	head, err := s.chain.HeaderByNumber(ctx, nil)
	if err != nil {
		return fmt.Errorf("follow the chain: head: %w", err)
	}
	if f.hash != (common.Hash{}) {
		// The last block read must still be on the chain; else blocks were
		// replaced, and what was read from them may be gone.
		last, err := s.chain.HeaderByNumber(ctx, new(big.Int).SetUint64(f.next-1))
		switch {
		case errors.Is(err, ethereum.NotFound):
			f.reset(s.chain.FirstBlock())
		case err != nil:
			return fmt.Errorf("follow the chain: block %d: %w", f.next-1, err)
		case last.Hash() != f.hash:
			f.reset(s.chain.FirstBlock())
		}
	}
	top := head.Number.Uint64()
	for f.next <= top {
		// Each chunk is applied whole or not at all, and the cursor moves
		// past it at once: a failure later reads on from there.
		to := min(f.next+logChunk-1, top)
		if err := s.readBlocks(ctx, f.next, to); err != nil {
			return err
		}
		hash := head.Hash()
		if to < top {
			h, err := s.chain.HeaderByNumber(ctx, new(big.Int).SetUint64(to))
			if err != nil {
				return fmt.Errorf("follow the chain: block %d: %w", to, err)
			}
			hash = h.Hash()
		}
		f.next, f.hash = to+1, hash
	}
	return nil
}

// watchWorld finds the addresses whose events count: every address stakes
// go to.
func (s *Server) watchWorld() {
	f := &s.follow
	f.pools = map[common.Address][]*Pool{}
	for _, p := range s.world.Pools {
		addr := s.poolAddress(p)
		if len(f.pools[addr]) == 0 {
			f.watch = append(f.watch, addr)
		}
		f.pools[addr] = append(f.pools[addr], p)
	}
}

// reset forgets what was read, to read again from block first.
func (f *follower) reset(first uint64) {
	f.next, f.hash = first, common.Hash{}
	f.stakes, f.stakeN = map[string][]chainStake{}, 0
	for i := range f.asks {
		f.asks[i].used = false
	}
}

// readBlocks applies the events of blocks from..to, all or none.
func (s *Server) readBlocks(ctx context.Context, from, to uint64) error {
	f := &s.follow
	logs, err := s.chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from),
		ToBlock:   new(big.Int).SetUint64(to),
		Addresses: f.watch,
		Topics:    [][]common.Hash{{stakedTopic}},
	})
	if err != nil {
		return fmt.Errorf("follow the chain: logs of blocks %d to %d: %w", from, to, err)
	}
	// The node is not trusted to have filtered: check every log.
	logs = slices.DeleteFunc(logs, func(l types.Log) bool {
		return l.Removed || l.BlockNumber < from || l.BlockNumber > to || len(l.Topics) == 0
	})
	// A stake is dated by its block: read every time first, so that a
	// failure applies nothing.
	times := map[uint64]time.Time{}
	for _, l := range logs {
		if _, ok := times[l.BlockNumber]; ok || l.Topics[0] != stakedTopic {
			continue
		}
		h, err := s.chain.HeaderByNumber(ctx, new(big.Int).SetUint64(l.BlockNumber))
		if err != nil {
			return fmt.Errorf("follow the chain: block %d: %w", l.BlockNumber, err)
		}
		times[l.BlockNumber] = time.Unix(int64(h.Time), 0).UTC()
	}
	for _, l := range logs {
		if l.Topics[0] == stakedTopic {
			f.staked(l, times[l.BlockNumber])
		}
	}
	return nil
}

// staked records a Staked event. A stake names no pool (D11): on an address
// that several pools stake into, it goes to the pool the service last gave
// parameters for with this wallet, contract and amount, else to the first
// active pool of the address.
func (f *follower) staked(l types.Log, at time.Time) {
	pools := f.pools[l.Address]
	if len(pools) == 0 || len(l.Topics) != 3 || len(l.Data) != 32 || f.stakeN >= maxChainStakes {
		return
	}
	st := chainStake{
		id:     seedID("chain-stake", fmt.Sprintf("%d/%s/%d", l.BlockNumber, l.TxHash.Hex(), l.Index)),
		staker: common.BytesToAddress(l.Topics[1].Bytes()),
		amount: new(big.Int).SetBytes(l.Data),
		at:     at,
	}
	pool := pools[0]
	if len(pools) > 1 {
		pool = firstActive(pools)
		for i := len(f.asks) - 1; i >= 0; i-- {
			a := &f.asks[i]
			if !a.used && a.contract == l.Address && a.wallet == st.staker && a.amount.Cmp(st.amount) == 0 {
				a.used = true
				for _, p := range pools {
					if p.ID == a.poolID {
						pool = p
					}
				}
				break
			}
		}
	}
	f.stakes[pool.ID] = append(f.stakes[pool.ID], st)
	f.stakeN++
}

func firstActive(pools []*Pool) *Pool {
	for _, p := range pools {
		if p.Status == PoolActive {
			return p
		}
	}
	return pools[0]
}

// askedStake remembers the parameters given for a stake, newest last.
func (s *Server) askedStake(p *Pool, wallet common.Address, amount *big.Int) {
	if s.chain == nil {
		return
	}
	f := &s.follow
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.asks) == maxStakeAsks {
		f.asks = append(f.asks[:0], f.asks[1:]...)
	}
	f.asks = append(f.asks, stakeAsk{contract: s.poolAddress(p), wallet: wallet, amount: new(big.Int).Set(amount), poolID: p.ID})
}

// chainStakes returns the stakes the chain recorded for a pool.
func (s *Server) chainStakes(poolID string) []chainStake {
	f := &s.follow
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]chainStake(nil), f.stakes[poolID]...)
}

// totalStaked is what a pool holds: its seeded stakes and the chain's.
func (s *Server) totalStaked(p *Pool) *big.Int {
	total := new(big.Int).Set(p.TotalStaked)
	for _, st := range s.chainStakes(p.ID) {
		total.Add(total, st.amount)
	}
	return total
}
