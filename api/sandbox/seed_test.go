package sandbox

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/accounts/keystore"
)

func TestSeedShape(t *testing.T) {
	w := sharedWorld()
	if len(w.Tokens) < 2 {
		t.Fatalf("%d tokens", len(w.Tokens))
	}
	for _, token := range w.Tokens {
		types := map[string]bool{}
		for _, c := range w.TokenContracts(token.ID) {
			types[c.Type] = true
			if c.Balance.Sign() <= 0 {
				t.Errorf("contract %s holds nothing", c.Name)
			}
		}
		if len(types) < 2 {
			t.Errorf("token %s has contracts of %d types", token.Symbol, len(types))
		}
		staked := new(big.Int)
		for _, p := range w.TokenPools(token.ID) {
			if p.StakeCount() == 0 {
				t.Errorf("pool %s has no stakes", p.Name)
			}
			staked.Add(staked, p.TotalStaked)
		}
		allocated := new(big.Int)
		for _, d := range w.Distributions {
			if d.TokenID == token.ID {
				c, _ := w.Contract(d.ContractID)
				allocated.Add(allocated, c.Balance)
			}
		}
		if staked.Add(staked, allocated).Cmp(token.Supply) > 0 {
			t.Errorf("token %s: more staked and allocated than its supply", token.Symbol)
		}
	}
	if n := len(w.TokenPools(w.Tokens[0].ID)); n < 60 {
		t.Errorf("first token has %d pools", n)
	}
	if w.BigPool.Name != "Whale pool" || w.BigPool.StakeCount() != 100_000 {
		t.Errorf("big pool %s with %d stakes", w.BigPool.Name, w.BigPool.StakeCount())
	}
	kinds := map[string]int{}
	for _, a := range w.Allocations {
		kinds[a.Args.Schedule.Kind]++
		if err := a.Args.Schedule.Validate(); err != nil {
			t.Fatalf("allocation %s: %v", a.ID, err)
		}
		// The production vester must be able to pay every seeded leaf out
		// at any time (D16): no piece it divides by zero on.
		for _, p := range a.Args.Schedule.Pieces {
			if until, blocked := a.Args.Schedule.Unclaimable(time.Unix(int64(p.StartDate), 0)); blocked {
				t.Fatalf("allocation %s cannot be claimed on the production vester until %s", a.ID, until)
			}
		}
	}
	if kinds[vesting.Calendar] == 0 || kinds[vesting.Interval] == 0 {
		t.Errorf("schedule kinds %v", kinds)
	}
	if len(w.Portal.Submissions) < 5 || len(w.AdminWallets) < 1 || len(w.Wallets) != DemoWallets {
		t.Errorf("portal submissions %d, admin wallets %d, wallets %d", len(w.Portal.Submissions), len(w.AdminWallets), len(w.Wallets))
	}
}

// TestFirstIDsBelongTogether checks the fixtures' promise: the first two
// allocations are in the first contract's distribution of the first token,
// belong to wallets 0 and 1, and are partly unlocked at the start.
func TestFirstIDsBelongTogether(t *testing.T) {
	e := newEnv(t, Options{})
	w := e.srv.World()
	first, _ := w.Contract(e.fx.ContractIDs[0])
	if first.TokenID != e.fx.TokenIDs[0] || first.Distribution == nil {
		t.Fatalf("first contract %+v", first)
	}
	kinds := map[string]bool{}
	for i, id := range e.fx.AllocationIDs[:2] {
		a, _ := w.Allocation(id)
		if a.DistributionID != first.Distribution.ID || a.Beneficiary().Hex() != e.fx.Wallets[i].Address {
			t.Errorf("allocation %d: %+v", i, a)
		}
		unlocked := a.Args.Unlocked(testStart)
		if unlocked.Sign() <= 0 || unlocked.Cmp(a.Args.Allocation.TotalAllocation) >= 0 {
			t.Errorf("allocation %d: %s of %s unlocked", i, unlocked, a.Args.Allocation.TotalAllocation)
		}
		kinds[a.Args.Schedule.Kind] = true
	}
	if !kinds[vesting.Calendar] || !kinds[vesting.Interval] {
		t.Error("the first two allocations are not one calendar and one interval")
	}
	admin, _ := w.AdminWallet(e.fx.AdminWalletIDs[0])
	pool, _ := w.Pool(e.fx.PoolIDs[0])
	if admin == nil || pool.TokenID != e.fx.TokenIDs[0] || pool.Status != PoolActive {
		t.Error("the first admin wallet or pool does not go with the first token")
	}
	for _, fw := range e.fx.Wallets {
		if !isUUID(e.fx.PortalID) || fw.Passphrase == "" {
			t.Error("fixtures incomplete")
		}
	}
}

func TestFixturesJSON(t *testing.T) {
	e := newEnv(t, Options{})
	data, err := json.Marshal(e.fx)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	for _, key := range []string{"baseUrl", "portalUrl", "portalId", "apiKey", "readOnlyApiKey", "tokenIds", "contractIds",
		"adminWalletIds", "poolIds", "bigPoolId", "allocationIds", "signinDomain", "chainId", "wallets"} {
		if m[key] == nil {
			t.Errorf("fixtures lack %s", key)
		}
	}
	if e.fx.BaseURL != e.url || e.fx.SigninDomain != e.url[len("http://"):] || e.fx.ChainID != DefaultChainID {
		t.Errorf("fixtures %s %s %d", e.fx.BaseURL, e.fx.SigninDomain, e.fx.ChainID)
	}
}

func TestKeystoreFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	srv, err := New(Options{World: sharedWorld(), KeystoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fx := srv.Fixtures()
	for _, fw := range fx.Wallets {
		data, err := os.ReadFile(fw.KeyFile)
		if err != nil {
			t.Fatal(err)
		}
		if info, _ := os.Stat(fw.KeyFile); info.Mode().Perm() != 0o600 || filepath.Dir(fw.KeyFile) != dir {
			t.Errorf("%s: mode %v", fw.KeyFile, info.Mode())
		}
		key, err := keystore.DecryptKey(data, fw.Passphrase)
		if err != nil || key.Address.Hex() != fw.Address {
			t.Fatalf("%s: %v", fw.KeyFile, err)
		}
		var v3 struct {
			Crypto struct {
				KDFParams struct {
					N int `json:"n"`
				} `json:"kdfparams"`
			} `json:"crypto"`
		}
		json.Unmarshal(data, &v3)
		if v3.Crypto.KDFParams.N != keystore.LightScryptN {
			t.Errorf("scrypt N %d, want light", v3.Crypto.KDFParams.N)
		}
	}
	// A given directory is the user's: Close leaves it, and a second start
	// overwrites the same files rather than adding more.
	srv.Close()
	again, err := New(Options{World: sharedWorld(), KeystoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	entries, _ := os.ReadDir(dir)
	if len(entries) != DemoWallets {
		t.Errorf("%d files after two starts, want %d", len(entries), DemoWallets)
	}

	// A temporary directory is the sandbox's: Close removes it.
	tmp, err := New(Options{World: sharedWorld()})
	if err != nil {
		t.Fatal(err)
	}
	tmpDir := tmp.Fixtures().KeystoreDir
	if _, err := os.Stat(tmpDir); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmpDir); !os.IsNotExist(err) {
		t.Errorf("temporary keystore %s still there", tmpDir)
	}
}

// TestDeterministic starts two sandboxes from scratch: same fixtures, same
// bytes.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	var fixtures [2][]byte
	var bodies [2][][]byte
	for i := range 2 {
		world, err := Seed(testStart)
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, Options{World: world, KeystoreDir: dir})
		e.fx.BaseURL, e.fx.PortalURL, e.fx.SigninDomain = "", "", "" // the listening port differs
		fixtures[i], _ = json.Marshal(e.fx)
		for _, r := range []response{
			e.admin("POST", "staking/pools", obj{"tokenId": e.fx.TokenIDs[0]}),
			e.admin("POST", "contracts", obj{"tokenId": e.fx.TokenIDs[1]}),
			e.admin("POST", "staking/stakes", obj{"stakingPoolId": e.fx.PoolIDs[5]}),
			e.admin("GET", "allocations/"+e.fx.AllocationIDs[3]+"/merkle-proof", nil),
		} {
			bodies[i] = append(bodies[i], r.body)
		}
	}
	if !bytes.Equal(fixtures[0], fixtures[1]) {
		t.Errorf("fixtures differ:\n%s\n%s", fixtures[0], fixtures[1])
	}
	for j := range bodies[0] {
		if !bytes.Equal(bodies[0][j], bodies[1][j]) {
			t.Errorf("response %d differs", j)
		}
	}
	// Another day moves the dates, not the ids.
	later, err := Seed(testStart.AddDate(0, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	w := sharedWorld()
	if later.Allocations[0].ID != w.Allocations[0].ID || later.Pools[7].ID != w.Pools[7].ID || later.Start.Equal(w.Start) {
		t.Error("a later start changed ids or kept the dates")
	}
}
