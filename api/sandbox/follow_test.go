package sandbox

import (
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/internal/isotime"
)

// stakedLog is a Staked event of the staking contract at addr.
func stakedLog(addr, staker common.Address, index int64, amount *big.Int) types.Log {
	return types.Log{
		Address: addr,
		Topics:  []common.Hash{stakedTopic, common.BytesToHash(staker.Bytes()), common.BigToHash(big.NewInt(index))},
		Data:    common.BigToHash(amount).Bytes(),
	}
}

func (e *env) stakes(poolID string, wallet ...string) stakeList {
	e.t.Helper()
	body := obj{"stakingPoolId": poolID}
	if len(wallet) > 0 {
		body["walletAddress"] = wallet[0]
	}
	var l stakeList
	r := e.admin("POST", "staking/stakes", body)
	r.result(e.t, &l)
	// The total comes first, and counts the items (the chain's too).
	if head := fmt.Sprintf(`{"isProcessed":true,"result":{"total":%d,"items":[`, len(l.Items)); !strings.HasPrefix(string(r.body), head) {
		e.t.Errorf("a listing of %d stakes begins %.80q, want %q", len(l.Items), r.body, head)
	}
	return l
}

func (e *env) poolTotal(p *Pool) string {
	e.t.Helper()
	var cursor string
	for range 10 {
		body := obj{"tokenId": p.TokenID}
		if cursor != "" {
			body["cursor"] = cursor
		}
		var page poolPage
		e.admin("POST", "staking/pools", body).result(e.t, &page)
		for _, item := range page.Items {
			if item.ID == p.ID {
				return item.TotalStaked
			}
		}
		if len(page.Items) == 0 {
			break
		}
		cursor = page.Items[len(page.Items)-1].ID
	}
	e.t.Fatalf("pool %s not listed", p.ID)
	return ""
}

// sharedStaking finds a staking contract with two active pools, which a
// stake on it cannot tell apart.
func sharedStaking(t *testing.T, w *World) (*Contract, *Pool, *Pool) {
	t.Helper()
	for _, c := range w.Contracts {
		if c.Type != ContractStaking {
			continue
		}
		var active []*Pool
		for _, p := range w.Pools {
			if p.ContractID == c.ID && p.Status == PoolActive {
				active = append(active, p)
			}
		}
		if len(active) >= 2 {
			return c, active[0], active[1]
		}
	}
	t.Fatal("no staking contract with two active pools")
	return nil, nil, nil
}

func TestStakesFollowTheChain(t *testing.T) {
	w := sharedWorld()
	contract, first, second := sharedStaking(t, w)
	stakingAddr := common.HexToAddress("0x5000")
	chain := &fakeChain{id: 1337, now: testStart, first: 7,
		addresses: map[string]common.Address{contract.ID: stakingAddr}}
	e := newEnv(t, Options{Chain: chain})
	w0 := common.HexToAddress(e.fx.Wallets[0].Address)
	seeded := e.stakes(second.ID)
	seededTotal := e.poolTotal(second)

	// The service gave parameters for the second pool; the stake names no
	// pool, but it is the one asked for.
	r := e.do("GET", "/api/"+e.fx.PortalID+"/parameters/stake?amount=1234.5&stakingPoolId="+second.ID,
		map[string]string{"Authorization": "Bearer " + e.token(0)}, nil)
	if r.status != http.StatusOK {
		t.Fatalf("stake parameters: %d %s", r.status, r.body)
	}
	amount := units(1234, 5, 1)
	block := chain.mine(0, stakedLog(stakingAddr, w0, 0, amount))

	got := e.stakes(second.ID)
	if got.Total != seeded.Total+1 || len(got.Items) != seeded.Total+1 {
		t.Fatalf("after the stake: total %d, %d items; want %d", got.Total, len(got.Items), seeded.Total+1)
	}
	last := got.Items[len(got.Items)-1]
	wantAt := isotime.Format(time.Unix(int64(chain.blocks[block-chain.first].Time), 0))
	if last.Amount != "1234.5" || last.WalletAddress != w0.Hex() || last.Status != StakeStaked || last.CreatedAt != wantAt || !isUUID(last.ID) {
		t.Errorf("the chain's stake listed as %+v", last)
	}
	if total := e.poolTotal(second); total != formatUnits(new(big.Int).Add(parseUnits(t, seededTotal), amount)) {
		t.Errorf("pool total %s after staking %s on %s", total, formatUnits(amount), seededTotal)
	}
	if mine := e.stakes(second.ID, w0.Hex()); len(mine.Items) == 0 || mine.Items[len(mine.Items)-1] != last {
		t.Errorf("the wallet's stakes %+v lack %+v", mine.Items, last)
	}
	if other := e.stakes(first.ID); other.Total != len(first.stakes) {
		t.Errorf("the other pool of the contract took the stake: %d stakes", other.Total)
	}

	// A stake nobody asked parameters for goes to the contract's first
	// active pool; a wallet with no seeded stake lists it alone.
	stranger := common.HexToAddress("0x00000000000000000000000000000000000ca5e0")
	chain.mine(0, stakedLog(stakingAddr, stranger, 1, units(100, 0, 0)))
	if l := e.stakes(first.ID, stranger.Hex()); l.Total != 1 || l.Items[0].Amount != "100" || l.Items[0].WalletAddress != stranger.Hex() {
		t.Errorf("an unasked stake: %+v", l)
	}

	// A reorg that replaces the stake's block takes it away again.
	chain.mine(2)
	if l := e.stakes(second.ID); l.Total != seeded.Total {
		t.Errorf("after a reorg: %d stakes, want the seeded %d", l.Total, seeded.Total)
	}
	if total := e.poolTotal(second); total != seededTotal {
		t.Errorf("pool total %s after a reorg, want %s", total, seededTotal)
	}
}

func TestChainEventsFromElsewhereAreIgnored(t *testing.T) {
	w := sharedWorld()
	contract, first, _ := sharedStaking(t, w)
	stakingAddr := common.HexToAddress("0x5000")
	chain := &fakeChain{id: 1337, now: testStart, addresses: map[string]common.Address{contract.ID: stakingAddr}}
	e := newEnv(t, Options{Chain: chain})
	w0 := common.HexToAddress(e.fx.Wallets[0].Address)
	removed := stakedLog(stakingAddr, w0, 0, units(5, 0, 0))
	removed.Removed = true
	short := stakedLog(stakingAddr, w0, 0, units(5, 0, 0))
	short.Data = short.Data[:31]
	// A hostile node answers logs nobody asked for: another address, a
	// block outside the range, a removed log, a malformed one.
	elsewhere := stakedLog(common.HexToAddress("0x6666"), w0, 0, units(5, 0, 0))
	future := stakedLog(stakingAddr, w0, 0, units(5, 0, 0))
	future.BlockNumber = 1 << 40
	chain.extra = []types.Log{elsewhere, future}
	chain.mine(0, removed, short)
	if l := e.stakes(first.ID); l.Total != len(first.stakes) {
		t.Errorf("%d stakes listed, want the seeded %d", l.Total, len(first.stakes))
	}
}

func parseUnits(t *testing.T, s string) *big.Int {
	t.Helper()
	whole, frac, _ := strings.Cut(s, ".")
	v, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", 18-len(frac)), 10)
	if !ok {
		t.Fatalf("not an amount: %q", s)
	}
	return v
}

func TestChainFollowedInChunksReadsEachOnce(t *testing.T) {
	w := sharedWorld()
	contract, first, _ := sharedStaking(t, w)
	stakingAddr := common.HexToAddress("0x5000")
	chain := &fakeChain{id: 1337, now: testStart, addresses: map[string]common.Address{contract.ID: stakingAddr}}
	e := newEnv(t, Options{Chain: chain})
	stranger := common.HexToAddress("0x00000000000000000000000000000000000ca5e0")
	chain.mine(0, stakedLog(stakingAddr, stranger, 0, units(100, 0, 0)))
	for range logChunk + 10 {
		chain.mine(0)
	}
	chain.mine(0, stakedLog(stakingAddr, stranger, 1, units(200, 0, 0)))
	// The node fails on the second chunk: the first is read, the answer
	// is an error.
	chain.mu.Lock()
	chain.failLogsFrom = logChunk + 1
	chain.mu.Unlock()
	e.admin("POST", "staking/stakes", obj{"stakingPoolId": first.ID}).wantAdminError(t, http.StatusInternalServerError, kindInternal, "")
	chain.mu.Lock()
	chain.failLogsFrom = 0
	chain.mu.Unlock()
	l := e.stakes(first.ID, stranger.Hex())
	if l.Total != 2 || l.Items[0].Amount != "100" || l.Items[1].Amount != "200" {
		t.Errorf("after a failed and a good catch-up: %+v, want the two stakes once each", l)
	}
}
