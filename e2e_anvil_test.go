package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/shopspring/decimal"

	"allot/api/sandbox/chain"
	"allot/api/sandbox/chain/anviltest"
)

// TestSandboxOnAnvil runs `allot sandbox --chain-rpc` on foundry's anvil,
// as an integrator would, and claims and stakes through the real binary
// with a profile whose rpc_url is anvil: the transactions are mined there,
// and the service's lists follow them.
func TestSandboxOnAnvil(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	url := anviltest.Start(t, "--block-time", "1")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "deployer.key")
	if err := os.WriteFile(keyFile, []byte(anviltest.Keys[0]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := userEnv(t)
	fx, stderr := startSandboxOn(t, env, dir, "--chain-rpc", url, "--deployer-key-file", keyFile)
	if fx.ChainID != 31337 {
		t.Errorf("fixtures name chain %d, anvil's is 31337", fx.ChainID)
	}
	for _, want := range []string{"deployed on chain 31337 by 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "token               Meridian (MRD)", "VESTING", "STAKING"} {
		if !strings.Contains(stderr(), want) {
			t.Errorf("allot sandbox did not print %q:\n%s", want, stderr())
		}
	}
	if strings.Contains(stderr(), strings.TrimPrefix(anviltest.Keys[0], "0x")[:16]) {
		t.Error("allot sandbox printed the deployer's key")
	}

	w := fx.Wallets[3]
	config := writeConfig(t, fx)
	appendConfig(t, config, fmt.Sprintf("keystore = %q\nrpc_url = %q\n", filepath.Dir(w.KeyFile), url))
	env = slices.Concat(env, []string{"ALLOT_API_KEY=" + fx.APIKey, "ALLOT_PASSPHRASE=" + w.Passphrase})
	allot := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := run(t, env, append([]string{"--config", config}, args...)...)
		if code != 0 {
			t.Fatalf("allot %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		return stdout
	}
	send := []string{"--send", "--wait", "-o", "json"}
	if help, _, _ := run(t, env, "help", "claim"); strings.Contains(help, "-yes") {
		send = append(send, "--yes")
	}
	mined := func(out string) {
		t.Helper()
		var sent struct {
			Transactions []struct {
				Status        string `json:"status"`
				Confirmations uint64 `json:"confirmations"`
			} `json:"transactions"`
		}
		if err := json.Unmarshal([]byte(out), &sent); err != nil || len(sent.Transactions) == 0 {
			t.Fatalf("sent: %v\n%s", err, out)
		}
		for _, tx := range sent.Transactions {
			if tx.Status != "success" || tx.Confirmations < 1 {
				t.Fatalf("sent %+v, want each mined", sent.Transactions)
			}
		}
	}

	var allocation string
	for _, id := range fx.AllocationIDs {
		var proof struct{ WalletAddress string }
		out, _, code := run(t, env, "--config", config, "proof", id, "-o", "json")
		if code == 0 && json.Unmarshal([]byte(out), &proof) == nil && strings.EqualFold(proof.WalletAddress, w.Address) {
			allocation = id
			break
		}
	}
	if allocation == "" {
		t.Fatalf("no allocation of %s", w.Address)
	}
	claimable := func() *big.Int {
		t.Helper()
		var res struct {
			Parameters []struct {
				Instructions []struct{ Data string } `json:"instructions"`
			} `json:"parameters"`
		}
		out := allot("claim", allocation, "--sender", w.Address, "-o", "json")
		if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Parameters) != 1 || len(res.Parameters[0].Instructions) != 1 {
			t.Fatalf("claim: %v\n%s", err, out)
		}
		data, err := hexutil.Decode(res.Parameters[0].Instructions[0].Data)
		if err != nil || len(data) < 4 {
			t.Fatalf("claim calldata: %v", err)
		}
		args, err := chain.Vester.ABI.Methods["withdraw"].Inputs.Unpack(data[4:])
		if err != nil {
			t.Fatal(err)
		}
		return args[0].(*big.Int)
	}
	before := claimable()
	mined(allot(append([]string{"claim", allocation, "--amount", "1", "--sign", "--account", w.Address}, send...)...))
	if dropped := new(big.Int).Sub(before, claimable()); dropped.Cmp(big.NewInt(1e18)) != 0 {
		t.Errorf("claimable dropped by %s wei after claiming 1 token", dropped)
	}

	var pools struct {
		Items []struct {
			ID, Status, TotalStaked, MinimumStakeAmount string
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(allot("pools", "-o", "json")), &pools); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(pools.Items, func(p struct{ ID, Status, TotalStaked, MinimumStakeAmount string }) bool { return p.Status == "ACTIVE" })
	if i < 0 {
		t.Fatal("no active pool")
	}
	pool := pools.Items[i]
	mined(allot(append([]string{"stake", "--pool", pool.ID, "--amount", pool.MinimumStakeAmount, "--account", w.Address}, send...)...))
	var stakes struct {
		Items []struct{ Amount, WalletAddress, Status string } `json:"items"`
	}
	if err := json.Unmarshal([]byte(allot("stakes", "--pool", pool.ID, "--wallet", w.Address, "-o", "json")), &stakes); err != nil {
		t.Fatal(err)
	}
	n := len(stakes.Items)
	if n == 0 || !decimal.RequireFromString(stakes.Items[n-1].Amount).Equal(decimal.RequireFromString(pool.MinimumStakeAmount)) ||
		common.HexToAddress(stakes.Items[n-1].WalletAddress) != common.HexToAddress(w.Address) {
		t.Errorf("the stake of %s %s is not listed: %+v", pool.MinimumStakeAmount, w.Address, stakes.Items)
	}

	// A node, or an upgrade, swaps the vesters' code for other code (here
	// their own with a byte appended, which runs alike: the service still
	// builds the claim): the pins recorded the old code, and the claim is
	// refused before anything is signed.
	var contracts struct {
		Items []struct{ Type, Address string } `json:"items"`
	}
	if err := json.Unmarshal([]byte(allot("contracts", "-o", "json")), &contracts); err != nil {
		t.Fatal(err)
	}
	node, err := rpc.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	swap := func(addr string) {
		t.Helper()
		var code hexutil.Bytes
		if err := node.Call(&code, "eth_getCode", addr, "latest"); err != nil {
			t.Fatalf("eth_getCode %s: %v", addr, err)
		}
		if err := node.Call(nil, "anvil_setCode", addr, hexutil.Bytes(append(code, 0))); err != nil {
			t.Fatalf("anvil_setCode %s: %v", addr, err)
		}
	}

	// The same for the post-claim handler an allocation's claim goes
	// through: pinned, then its code swapped, it is refused.
	handled := fx.LifeAllocationIDs[len(fx.LifeAllocationIDs)-1]
	var holder struct{ WalletAddress string }
	if err := json.Unmarshal([]byte(allot("proof", handled, "-o", "json")), &holder); err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, w := range fx.Wallets {
		if strings.EqualFold(w.Address, holder.WalletAddress) {
			k = i
		}
	}
	if k < 0 || len(fx.Pins.Handlers) != 1 {
		t.Fatalf("the handled allocation's holder %s has no demo key, or %d handlers pinned", holder.WalletAddress, len(fx.Pins.Handlers))
	}
	handlerEnv := slices.Concat(env, []string{"ALLOT_PASSPHRASE=" + fx.Wallets[k].Passphrase})
	claimHandled := append([]string{"--config", config, "claim", handled, "--amount", "1", "--sign", "--account", fx.Wallets[k].Address}, send...)
	swap(fx.Pins.Handlers[0])
	_, refusal, code := run(t, handlerEnv, claimHandled...)
	if code == 0 || !strings.Contains(refusal, "handler "+fx.Pins.Handlers[0]) || !strings.Contains(refusal, "changed since it was pinned") {
		t.Errorf("a claim through a handler whose code was swapped: exit %d\n%s", code, refusal)
	}

	for _, c := range contracts.Items {
		if c.Type == "VESTING" || c.Type == "AIRDROP" {
			swap(c.Address)
		}
	}
	_, refusal, code2 := run(t, env, append([]string{"--config", config, "claim", allocation, "--amount", "1", "--sign", "--account", w.Address}, send...)...)
	if code2 == 0 || !strings.Contains(refusal, "changed since it was pinned") || !strings.Contains(refusal, "pinned again by hand") {
		t.Errorf("a claim from a vester whose code was swapped: exit %d\n%s", code2, refusal)
	}
}

// startSandboxOn runs `allot sandbox` with args on a free loopback port and
// returns its fixtures and what it printed on stderr so far. Deploying on
// an external node takes a few blocks: it may take up to a minute.
func startSandboxOn(t testing.TB, env []string, dir string, extra ...string) (fixtures, func() string) {
	t.Helper()
	fixturesPath := filepath.Join(dir, "fixtures.json")
	args := append([]string{"sandbox", "--addr", "127.0.0.1:0", "--fixtures", fixturesPath, "--keystore-dir", filepath.Join(dir, "keystore")}, extra...)
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var printed strings.Builder
	stderr := func() string { mu.Lock(); defer mu.Unlock(); return printed.String() }
	ready, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended) // its stderr closed: the sandbox has exited
		sc := bufio.NewScanner(pipe)
		once := sync.OnceFunc(func() { close(ready) })
		for sc.Scan() {
			mu.Lock()
			printed.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if regexp.MustCompile(`listening on http://\S+`).MatchString(sc.Text()) {
				once()
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("allot sandbox did not stop on SIGINT")
		}
	})
	select {
	case <-ready:
	case <-ended:
		select {
		case <-ready: // it said so, then ended: the test finds out why
		default:
			t.Fatalf("allot sandbox ended before it said it was listening:\n%s", stderr())
		}
	case <-time.After(time.Minute):
		t.Fatalf("allot sandbox did not say it was listening:\n%s", stderr())
	}
	data, err := os.ReadFile(fixturesPath)
	if err != nil {
		t.Fatal(err)
	}
	var fx fixtures
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatalf("fixtures: %v", err)
	}
	return fx, stderr
}
