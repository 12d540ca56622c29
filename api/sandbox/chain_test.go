package sandbox

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// fakeChain has some of the world on it.
type fakeChain struct {
	id        uint64
	addresses map[string]common.Address
	balances  map[[2]common.Address]*big.Int
	now       time.Time
	fail      bool
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

func TestChainSeam(t *testing.T) {
	w := sharedWorld()
	token, vester := w.Tokens[0], w.Contracts[0]
	pool := w.Pools[0]
	tokenAddr, vesterAddr, poolAddr := common.HexToAddress("0x1001"), common.HexToAddress("0x1002"), common.HexToAddress("0x1003")
	chain := &fakeChain{
		id:        1337,
		addresses: map[string]common.Address{token.ID: tokenAddr, vester.ID: vesterAddr, pool.ID: poolAddr},
		balances:  map[[2]common.Address]*big.Int{{tokenAddr, vesterAddr}: units(42, 5, 1)},
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
	if c := list.Items[0]; c.Address != vesterAddr.Hex() || c.Balance != "42.5" {
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
