// Package safetest deploys the real Safe contracts for tests: the
// artifacts of the npm packages @safe-global/safe-contracts 1.4.1 (and
// @gnosis.pm/safe-contracts 1.3.0, @safe-global/safe-deployments) that
// .ci/run installs into a prefix of their own and names in
// $ALLOT_SAFE_CONTRACTS. Their bytecode is read at test time and never
// kept in the repository. Without them a test skips, unless
// $ALLOT_REQUIRE_SAFE is set (as CI sets it), when it fails.
package safetest

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Package names the npm packages under the prefix.
const (
	Contracts   = "@safe-global/safe-contracts"
	Contracts13 = "@gnosis.pm/safe-contracts"
	Deployments = "@safe-global/safe-deployments"
)

// Dir is the directory of the npm package pkg under $ALLOT_SAFE_CONTRACTS,
// or skips the test (fails it under $ALLOT_REQUIRE_SAFE) when it is absent.
func Dir(t testing.TB, pkg string) string {
	t.Helper()
	prefix := os.Getenv("ALLOT_SAFE_CONTRACTS")
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); prefix == "" || err != nil {
		why := "the Safe contracts are not installed: set ALLOT_SAFE_CONTRACTS to the npm prefix .ci/run installs " + pkg + " into"
		if os.Getenv("ALLOT_REQUIRE_SAFE") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return dir
}

// Artifact is a compiled contract of an npm package.
type Artifact struct {
	ABI              abi.ABI
	Bytecode         []byte
	DeployedBytecode []byte
}

// Load reads the artifact at path (such as "Safe.sol/Safe.json") under
// pkg's build/artifacts/contracts.
func Load(t testing.TB, pkg, path string) Artifact {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(Dir(t, pkg), "build", "artifacts", "contracts", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		ABI              json.RawMessage `json:"abi"`
		Bytecode         string          `json:"bytecode"`
		DeployedBytecode string          `json:"deployedBytecode"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out Artifact
	if out.ABI, err = abi.JSON(strings.NewReader(string(a.ABI))); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if out.Bytecode, err = hexutil.Decode(a.Bytecode); err != nil {
		t.Fatalf("%s bytecode: %v", path, err)
	}
	if out.DeployedBytecode, err = hexutil.Decode(a.DeployedBytecode); err != nil {
		t.Fatalf("%s deployedBytecode: %v", path, err)
	}
	return out
}

// Deployer sends transactions from a funded key to a node.
type Deployer struct {
	Client *ethclient.Client
	Key    *ecdsa.PrivateKey
	// Commit seals a block, on a chain that does not mine by itself (the
	// sandbox's in-process chain); nil on one that does (anvil).
	Commit func()
}

// From is the deployer's address.
func (d *Deployer) From() common.Address { return crypto.PubkeyToAddress(d.Key.PublicKey) }

// Send sends a transaction and waits until it is mined, failing the test
// unless it succeeded. A nil to deploys data.
func (d *Deployer) Send(t testing.TB, to *common.Address, data []byte) *types.Receipt {
	t.Helper()
	return d.SendValue(t, to, data, nil)
}

// SendValue is Send with value wei.
func (d *Deployer) SendValue(t testing.TB, to *common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	ctx := context.Background()
	chainID, err := d.Client.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := d.Client.PendingNonceAt(ctx, d.From())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(d.Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, To: to, Data: data, Value: value, Gas: 10_000_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(20e9),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if d.Commit != nil {
		d.Commit()
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		r, err := d.Client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("transaction %s reverted", tx.Hash().Hex())
			}
			return r
		}
		select {
		case <-ctx.Done():
			t.Fatalf("transaction %s: %v", tx.Hash().Hex(), err)
		case <-time.After(20 * time.Millisecond): // polling a node, not waiting on time
		}
	}
}

// Deploy deploys a contract's creation code with args.
func (d *Deployer) Deploy(t testing.TB, a Artifact, args ...any) common.Address {
	t.Helper()
	packed, err := a.ABI.Pack("", args...)
	if err != nil {
		t.Fatal(err)
	}
	return d.Send(t, nil, append(append([]byte{}, a.Bytecode...), packed...)).ContractAddress
}

// Call sends a call of method on a contract at to.
func (d *Deployer) Call(t testing.TB, a Artifact, to common.Address, method string, args ...any) *types.Receipt {
	t.Helper()
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return d.Send(t, &to, data)
}

// View calls a view of a contract and returns its results.
func (d *Deployer) View(t testing.TB, a Artifact, to common.Address, method string, args ...any) []any {
	t.Helper()
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Client.CallContract(context.Background(), ethereum.CallMsg{From: d.From(), To: &to, Data: data}, nil)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	values, err := a.ABI.Unpack(method, out)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return values
}

// Safes are the Safe 1.4.1 contracts deployed on a chain.
type Safes struct {
	Safe, Factory, MultiSendCallOnly Artifact
	// Singleton and FactoryAddr are where they were deployed.
	Singleton, FactoryAddr, MultiSendAddr common.Address
}

// DeploySafes deploys the Safe 1.4.1 singleton, its proxy factory and
// MultiSendCallOnly.
func DeploySafes(t testing.TB, d *Deployer) *Safes {
	t.Helper()
	s := &Safes{
		Safe:              Load(t, Contracts, "Safe.sol/Safe.json"),
		Factory:           Load(t, Contracts, "proxies/SafeProxyFactory.sol/SafeProxyFactory.json"),
		MultiSendCallOnly: Load(t, Contracts, "libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json"),
	}
	s.Singleton = d.Deploy(t, s.Safe)
	s.FactoryAddr = d.Deploy(t, s.Factory)
	s.MultiSendAddr = d.Deploy(t, s.MultiSendCallOnly)
	return s
}

// Create creates a Safe proxy of singleton with owners and threshold
// through the factory (setup(...) by createProxyWithNonce), with no
// fallback handler, no module and no payment.
func (s *Safes) Create(t testing.TB, d *Deployer, singleton common.Address, owners []common.Address, threshold int64, salt int64) common.Address {
	t.Helper()
	var zero common.Address
	setup, err := s.Safe.ABI.Pack("setup", owners, big.NewInt(threshold), zero, []byte{}, zero, zero, big.NewInt(0), zero)
	if err != nil {
		t.Fatal(err)
	}
	args := []any{singleton, setup, big.NewInt(salt)}
	proxy := d.View(t, s.Factory, s.FactoryAddr, "createProxyWithNonce", args...)[0].(common.Address)
	d.Call(t, s.Factory, s.FactoryAddr, "createProxyWithNonce", args...)
	return proxy
}

// Proxy creates a bare proxy of singleton through the factory, with no
// initializer: how a proxy of something that is no Safe is made.
func (s *Safes) Proxy(t testing.TB, d *Deployer, singleton common.Address, salt int64) common.Address {
	t.Helper()
	args := []any{singleton, []byte{}, big.NewInt(salt)}
	proxy := d.View(t, s.Factory, s.FactoryAddr, "createProxyWithNonce", args...)[0].(common.Address)
	d.Call(t, s.Factory, s.FactoryAddr, "createProxyWithNonce", args...)
	return proxy
}
