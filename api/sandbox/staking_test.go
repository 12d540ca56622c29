package sandbox

import (
	"encoding/json"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"allot/internal/isotime"
)

type poolItem struct {
	ID                    string `json:"id"`
	Name                  string `json:"name"`
	TokenID               string `json:"tokenId"`
	ContractID            string `json:"contractId"`
	Status                string `json:"status"`
	TotalStaked           string `json:"totalStaked"`
	TotalRewardsDeposited string `json:"totalRewardsDeposited"`
	PeriodFinish          string `json:"periodFinish"`
	MinimumStakeAmount    string `json:"minimumStakeAmount"`
	MinimumStakeLength    int64  `json:"minimumStakeLength"`
	StakeWithdrawalDelay  int64  `json:"stakeWithdrawalDelay"`
	RewardWithdrawalDelay int64  `json:"rewardWithdrawalDelay"`
	MaxAPY                string `json:"maxApy"`
	ClaimNativeTokenFee   string `json:"claimNativeTokenFee"`
	UnstakeNativeTokenFee string `json:"unstakeNativeTokenFee"`
}

type poolPage struct {
	Items []poolItem `json:"items"`
	Total int        `json:"total"`
}

type stakeItem struct {
	ID            string `json:"id"`
	Amount        string `json:"amount"`
	Status        string `json:"status"`
	CreatedAt     string `json:"createdAt"`
	WalletAddress string `json:"walletAddress"`
}

type stakeList struct {
	Items []stakeItem `json:"items"`
	Total int         `json:"total"`
}

func TestPoolPages(t *testing.T) {
	e := newEnv(t, Options{})
	token := e.fx.TokenIDs[0]
	var pages []poolPage
	cursor := ""
	for {
		var page poolPage
		body := obj{"tokenId": token}
		if cursor != "" {
			body["cursor"] = cursor
		}
		e.admin("POST", "staking/pools", body).result(t, &page)
		pages = append(pages, page)
		if len(page.Items) == 0 {
			break
		}
		cursor = page.Items[len(page.Items)-1].ID
		if len(pages) > 5 {
			t.Fatal("pages never end")
		}
	}
	if len(pages) != 3 || len(pages[0].Items) != PoolPageSize || len(pages[1].Items) != 14 || len(pages[2].Items) != 0 {
		t.Fatalf("page sizes %d, %d, ...; want 50, 14, 0", len(pages[0].Items), len(pages[1].Items))
	}
	seen := map[string]bool{}
	statuses := map[string]int{}
	var ids []string
	for _, page := range pages {
		if page.Total != 64 {
			t.Errorf("total %d, want 64", page.Total)
		}
		for _, p := range page.Items {
			if seen[p.ID] {
				t.Errorf("pool %s on two pages", p.ID)
			}
			seen[p.ID] = true
			ids = append(ids, p.ID)
			statuses[p.Status]++
			checkPool(t, p, token)
		}
	}
	if statuses[PoolActive] == 0 || statuses[PoolPaused] == 0 || statuses[PoolFinished] == 0 {
		t.Errorf("statuses %v: want ACTIVE, PAUSED and FINISHED", statuses)
	}
	if got := strings.Join(ids, ","); got != strings.Join(e.fx.PoolIDs[:64], ",") {
		t.Error("pages are not in the fixtures' pool order")
	}
	if pages[0].Items[0].ID != e.fx.PoolIDs[0] || pages[0].Items[0].Status != PoolActive {
		t.Errorf("first pool %+v: want the fixtures' first, ACTIVE", pages[0].Items[0])
	}

	var other poolPage
	e.admin("POST", "staking/pools", obj{"tokenId": e.fx.TokenIDs[1], "cursor": ""}).result(t, &other)
	if other.Total != 12 || len(other.Items) != 12 || other.Items[0].TokenID != e.fx.TokenIDs[1] {
		t.Errorf("second token: %d of %d pools", len(other.Items), other.Total)
	}

	e.admin("POST", "staking/pools", obj{"tokenId": token, "cursor": "next"}).wantAdminError(t, http.StatusBadRequest, kindValidation, "cursor")
	e.admin("POST", "staking/pools", obj{"tokenId": token, "cursor": other.Items[0].ID}).wantAdminError(t, http.StatusBadRequest, kindValidation, "cursor")
	e.admin("POST", "staking/pools", obj{"tokenId": token, "cursor": 50}).wantAdminError(t, http.StatusBadRequest, kindValidation, "cursor")
	e.admin("POST", "staking/pools", obj{}).wantAdminError(t, http.StatusBadRequest, kindValidation, "tokenId")
	e.admin("POST", "staking/pools", obj{"tokenId": e.fx.PoolIDs[0]}).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
}

func checkPool(t *testing.T, p poolItem, token string) {
	t.Helper()
	if p.TokenID != token || !isUUID(p.ID) || !isUUID(p.ContractID) || p.Name == "" {
		t.Errorf("pool %+v", p)
	}
	for _, amount := range []string{p.TotalStaked, p.TotalRewardsDeposited, p.MinimumStakeAmount, p.MaxAPY, p.ClaimNativeTokenFee, p.UnstakeNativeTokenFee} {
		if _, err := parseDecimal(amount); err != nil {
			t.Errorf("pool %s: %q is not a decimal", p.Name, amount)
		}
	}
	if _, err := time.Parse(isotime.Layout, p.PeriodFinish); err != nil {
		t.Errorf("pool %s: periodFinish %q", p.Name, p.PeriodFinish)
	}
	if p.MinimumStakeLength < 30*secondsPerDay || p.StakeWithdrawalDelay <= 0 {
		t.Errorf("pool %s: durations %d, %d are not seconds", p.Name, p.MinimumStakeLength, p.StakeWithdrawalDelay)
	}
}

func TestStakes(t *testing.T) {
	e := newEnv(t, Options{})
	for _, id := range e.fx.PoolIDs {
		pool, _ := e.srv.World().Pool(id)
		var list stakeList
		e.admin("POST", "staking/stakes", obj{"stakingPoolId": id}).result(t, &list)
		if list.Total != len(list.Items) || list.Total == 0 || list.Total != pool.StakeCount() {
			t.Fatalf("pool %s: %d stakes, total %d", pool.Name, len(list.Items), list.Total)
		}
		// totalStaked is the sum of what is still in the pool.
		sum := new(big.Int)
		for _, s := range list.Items {
			amount, err := parsePositiveAmount(s.Amount)
			if err != nil {
				t.Fatalf("stake %+v: %v", s, err)
			}
			if s.Status != StakeWithdrawn {
				sum.Add(sum, amount)
			}
		}
		if sum.Cmp(pool.TotalStaked) != 0 {
			t.Errorf("pool %s: stakes add up to %s, totalStaked %s", pool.Name, formatUnits(sum), formatUnits(pool.TotalStaked))
		}
	}

	wallet := e.fx.Wallets[0].Address
	for _, form := range []string{wallet, strings.ToLower(wallet), "0x" + strings.ToUpper(wallet[2:])} {
		var list stakeList
		e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.PoolIDs[0], "walletAddress": form}).result(t, &list)
		if list.Total != 1 || len(list.Items) != 1 || list.Items[0].WalletAddress != wallet || list.Items[0].Amount != "2500" {
			t.Errorf("filter %s: %+v", form, list)
		}
	}
	var none stakeList
	e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.PoolIDs[0], "walletAddress": "0x000000000000000000000000000000000000dEaD"}).result(t, &none)
	if none.Total != 0 || none.Items == nil || len(none.Items) != 0 {
		t.Errorf("a wallet without stakes: %+v", none)
	}

	e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.PoolIDs[0], "walletAddress": "0x1234"}).
		wantAdminError(t, http.StatusBadRequest, kindValidation, "walletAddress")
	e.admin("POST", "staking/stakes", obj{}).wantAdminError(t, http.StatusBadRequest, kindValidation, "stakingPoolId")
	e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.TokenIDs[0]}).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
}

func TestWhalePool(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.BigPoolID})
	var list stakeList
	r.result(t, &list)
	if list.Total != WhaleStakes || len(list.Items) != WhaleStakes {
		t.Fatalf("whale pool: %d stakes, total %d", len(list.Items), list.Total)
	}
	ids := make(map[string]bool, len(list.Items))
	last := ""
	for _, s := range list.Items {
		if ids[s.ID] || !isUUID(s.ID) {
			t.Fatalf("stake id %q repeated or malformed", s.ID)
		}
		ids[s.ID] = true
		if s.CreatedAt < last {
			t.Fatalf("stakes out of time order at %s", s.ID)
		}
		last = s.CreatedAt
	}
	// The same bytes again, from the rendered listing.
	if again := e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.BigPoolID}); string(again.body) != string(r.body) {
		t.Error("second listing differs")
	}
	var mine stakeList
	e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.BigPoolID, "walletAddress": e.fx.Wallets[1].Address}).result(t, &mine)
	if mine.Total != 1 || mine.Items[0].Amount != "4200" || mine.Items[0].ID != list.Items[1].ID {
		t.Errorf("wallet 1 in the whale pool: %+v", mine)
	}
	var page poolPage
	e.admin("POST", "staking/pools", obj{"tokenId": e.fx.TokenIDs[0]}).result(t, &page)
	name := ""
	for _, item := range page.Items {
		if item.ID == e.fx.BigPoolID {
			name = item.Name
		}
	}
	if name != "Whale pool" {
		t.Errorf("big pool named %q on the first page", name)
	}
}

func TestContracts(t *testing.T) {
	e := newEnv(t, Options{})
	var list struct {
		Items []struct {
			ID        string `json:"id"`
			Name      string `json:"name"`
			Type      string `json:"type"`
			Address   string `json:"address"`
			Balance   string `json:"balance"`
			CreatedAt string `json:"createdAt"`
		} `json:"items"`
		Total int `json:"total"`
	}
	r := e.admin("POST", "contracts", obj{"tokenId": e.fx.TokenIDs[0]})
	r.result(t, &list)
	types := map[string]bool{}
	for _, c := range list.Items {
		types[c.Type] = true
		addr, ok := parseAddress(c.Address)
		if !ok || addr.Hex() != c.Address {
			t.Errorf("contract %s: address %q not EIP-55", c.Name, c.Address)
		}
		if b, err := parsePositiveAmount(c.Balance); err != nil || b.Sign() <= 0 {
			t.Errorf("contract %s: balance %q", c.Name, c.Balance)
		}
	}
	if list.Total != len(list.Items) || list.Total < 3 || !types[ContractVesting] || !types[ContractStaking] || !types[ContractAirdrop] {
		t.Fatalf("contracts %s", r.body)
	}
	if list.Items[0].ID != e.fx.ContractIDs[0] {
		t.Error("the first contract is not the fixtures' first")
	}
	if strings.Contains(string(r.body), `\u0026`) {
		t.Error("names are HTML-escaped")
	}
	var other struct {
		Items []json.RawMessage `json:"items"`
	}
	e.admin("POST", "contracts", obj{"tokenId": e.fx.TokenIDs[1]}).result(t, &other)
	if len(other.Items) < 2 {
		t.Errorf("second token has %d contracts", len(other.Items))
	}
	e.admin("POST", "contracts", obj{"tokenId": e.fx.ContractIDs[0]}).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
}

func TestStakeIDsAreSeedIDs(t *testing.T) {
	p := sharedWorld().BigPool
	ids := newStakeIDs(p)
	for _, i := range []int{0, 1, 9, 10, 99_999} {
		want := seedID(p.ID, "stake/"+strconv.Itoa(i))
		if got := string(ids.append(nil, i)); got != want {
			t.Errorf("stake %d: %s, want %s", i, got, want)
		}
	}
}

func TestWhalePoolSized(t *testing.T) {
	for _, n := range []int{-1, MaxWhaleStakes + 1} {
		if _, err := SeedSized(testStart, n); err == nil {
			t.Errorf("SeedSized(%d): no error", n)
		}
	}
	const n = 1234
	w, err := SeedSized(testStart, n)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{World: w})
	r := e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.BigPoolID})
	var list stakeList
	r.result(t, &list)
	if list.Total != n || len(list.Items) != n {
		t.Fatalf("whale pool of %d: %d stakes, total %d", n, len(list.Items), list.Total)
	}
	if got := r.header.Get("Content-Length"); got != strconv.Itoa(len(r.body)) {
		t.Errorf("Content-Length %s, body of %d bytes", got, len(r.body))
	}
}

func TestOptionsWhaleStakes(t *testing.T) {
	srv, err := New(Options{WhaleStakes: 7, KeystoreDir: t.TempDir(), Clock: func() time.Time { return testStart }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if got := srv.world.BigPool.StakeCount(); got != 7 {
		t.Errorf("Options{WhaleStakes: 7}: the whale pool holds %d stakes", got)
	}
}

// TestStakesListingTotalFirst: every listing of stakes writes its total
// before its items (e.stakes checks the head): the whole pool, a wallet's
// stakes, a wallet with none.
func TestStakesListingTotalFirst(t *testing.T) {
	e := newEnv(t, Options{})
	if l := e.stakes(e.fx.PoolIDs[0]); l.Total == 0 || l.Total != len(l.Items) {
		t.Errorf("pool: total %d, %d items", l.Total, len(l.Items))
	}
	if l := e.stakes(e.fx.BigPoolID, e.fx.Wallets[1].Address); l.Total != 1 {
		t.Errorf("wallet 1 in the whale pool: total %d", l.Total)
	}
	if l := e.stakes(e.fx.BigPoolID, "0x000000000000000000000000000000000000dEaD"); l.Total != 0 || l.Items == nil {
		t.Errorf("a wallet with no stake: %+v", l)
	}
}
