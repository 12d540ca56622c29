package sandbox

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// fakeChain has some of the world on it.
type fakeChain struct {
	id        uint64
	addresses map[string]common.Address
	balances  map[[2]common.Address]*big.Int
	now       time.Time
	fail      bool

	mu     sync.Mutex
	blocks []*types.Header // blocks[i] is block number first+i
	first  uint64
	logs   map[uint64][]types.Log // by block number
	extra  []types.Log            // returned by every FilterLogs: a hostile node's
	// failLogsFrom > 0 fails FilterLogs from that block on.
	failLogsFrom uint64
	// schedules answers a vester's schedules(id), by allocation id; an
	// allocation not in it reads all zero, as on a vester.
	schedules map[string]vesterState
}

func (c *fakeChain) ChainID() uint64 { return c.id }

func (c *fakeChain) Address(id string) (common.Address, bool) {
	a, ok := c.addresses[id]
	return a, ok
}

func (c *fakeChain) BalanceOf(_ context.Context, token, owner common.Address) (*big.Int, error) {
	if c.fail {
		return nil, errors.New("node unreachable")
	}
	return c.balances[[2]common.Address{token, owner}], nil
}

func (c *fakeChain) Now(context.Context) (time.Time, error) {
	if c.fail {
		return time.Time{}, errors.New("node unreachable")
	}
	return c.now, nil
}

func (c *fakeChain) FirstBlock() uint64 { return c.first }

func (c *fakeChain) HeaderByNumber(_ context.Context, number *big.Int) (*types.Header, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return nil, errors.New("node unreachable")
	}
	if len(c.blocks) == 0 {
		c.blocks = []*types.Header{{Number: new(big.Int).SetUint64(c.first), Time: uint64(c.now.Unix())}}
	}
	if number == nil {
		return c.blocks[len(c.blocks)-1], nil
	}
	n := number.Uint64()
	if n < c.first || n-c.first >= uint64(len(c.blocks)) {
		return nil, ethereum.NotFound
	}
	return c.blocks[n-c.first], nil
}

func (c *fakeChain) FilterLogs(_ context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return nil, errors.New("node unreachable")
	}
	if c.failLogsFrom > 0 && q.ToBlock.Uint64() >= c.failLogsFrom {
		return nil, errors.New("node unreachable")
	}
	out := append([]types.Log(nil), c.extra...)
	for n := q.FromBlock.Uint64(); n <= q.ToBlock.Uint64(); n++ {
		for _, l := range c.logs[n] {
			if slices.Contains(q.Addresses, l.Address) && slices.Contains(q.Topics[0], l.Topics[0]) {
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// CallContract answers schedules(string) of any address.
func (c *fakeChain) CallContract(_ context.Context, call ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return nil, errors.New("node unreachable")
	}
	if len(call.Data) < 4 || string(call.Data[:4]) != string(schedulesMethod.ID) {
		return nil, errors.New("execution reverted")
	}
	args, err := schedulesMethod.Inputs.Unpack(call.Data[4:])
	if err != nil {
		return nil, err
	}
	v := c.schedules[args[0].(string)]
	if v.withdrawn == nil {
		v.withdrawn = new(big.Int)
	}
	zero := new(big.Int)
	return schedulesMethod.Outputs.Pack(v.withdrawalAddress, v.terminated, v.withdrawn, zero, zero, zero)
}

// mine adds a block holding logs, a second after its parent; replace > 0
// first drops that many blocks from the head, as a reorg does.
func (c *fakeChain) mine(replace int, logs ...types.Log) uint64 {
	c.HeaderByNumber(context.Background(), nil) // the genesis, if none yet
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocks = c.blocks[:len(c.blocks)-replace]
	parent := c.blocks[len(c.blocks)-1]
	h := &types.Header{ParentHash: parent.Hash(), Number: new(big.Int).Add(parent.Number, big.NewInt(1)), Time: parent.Time + 1, Extra: []byte{byte(replace)}}
	c.blocks = append(c.blocks, h)
	n := h.Number.Uint64()
	if c.logs == nil {
		c.logs = map[uint64][]types.Log{}
	}
	for i := range logs {
		logs[i].BlockNumber, logs[i].Index = n, uint(i)
		logs[i].TxHash = common.BigToHash(big.NewInt(int64(n*1000 + uint64(i))))
	}
	c.logs[n] = logs
	return n
}

func TestChainSeam(t *testing.T) {
	w := sharedWorld()
	token, vester := w.Tokens[0], w.Contracts[0]
	pool := w.Pools[0]
	tokenAddr, vesterAddr, poolAddr := common.HexToAddress("0x1001"), common.HexToAddress("0x1002"), common.HexToAddress("0x1003")
	chain := &fakeChain{
		id:        1337,
		addresses: map[string]common.Address{token.ID: tokenAddr, vester.ID: vesterAddr, pool.ID: poolAddr},
		balances:  map[[2]common.Address]*big.Int{{tokenAddr, vesterAddr}: units(42_000_000, 5, 1)},
		// A chain whose head is a month ahead of the clock.
		now: testStart.Add(30 * 24 * time.Hour),
	}
	e := newEnv(t, Options{Chain: chain})
	if e.fx.ChainID != 1337 {
		t.Errorf("fixtures chain id %d", e.fx.ChainID)
	}
	var list struct {
		Items []struct {
			ID      string `json:"id"`
			Address string `json:"address"`
			Balance string `json:"balance"`
		} `json:"items"`
	}
	e.admin("POST", "contracts", obj{"tokenId": token.ID}).result(t, &list)
	if c := list.Items[0]; c.Address != vesterAddr.Hex() || c.Balance != "42000000.5" {
		t.Errorf("vester on chain: %+v", c)
	}
	// A contract the chain does not have keeps its synthetic address and
	// seed balance.
	if c := list.Items[1]; c.Address != w.Contracts[1].Address.Hex() || c.Balance != formatUnits(w.Contracts[1].Balance) {
		t.Errorf("contract off chain: %+v", c)
	}

	a, _ := w.Allocation(e.fx.AllocationIDs[0])
	var claim claimBody
	e.claim(a.ID, obj{"sender": e.fx.Wallets[0].Address}).result(t, &claim)
	in := claim.Parameters[0].Instructions[0]
	if in.ChainID != 1337 || in.To != vesterAddr.Hex() {
		t.Errorf("claim instruction %+v", in)
	}
	// Unlocks at the chain's time: 40%, not the clock's 35%.
	if got := decodeWithdraw(t, in.Data).Amount; got.Cmp(ppmOf(a.Args.Allocation.TotalAllocation, 400_000)) != 0 {
		t.Errorf("claims %s at chain time", got)
	}

	token0 := e.token(0)
	r := e.do("GET", "/api/"+e.fx.PortalID+"/parameters/stake?amount=100&stakingPoolId="+pool.ID, map[string]string{"Authorization": "Bearer " + token0}, nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"to":"`+poolAddr.Hex()+`"`) {
		t.Errorf("stake into the pool's own contract: %s", r.body)
	}

	chain.fail = true
	e.admin("POST", "contracts", obj{"tokenId": token.ID}).wantAdminError(t, http.StatusInternalServerError, kindInternal, "")
	e.claim(a.ID, obj{"sender": e.fx.Wallets[0].Address}).wantAdminError(t, http.StatusInternalServerError, kindInternal, "")
}
