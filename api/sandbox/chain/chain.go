// Package chain runs an Ethereum chain in process for the sandbox: a real
// EVM (go-ethereum's simulated beacon driving a full eth service with an
// in-memory database) on which the sandbox deploys its token, vesters and
// staking pools (assets/contracts), so that claims and stakes are real
// transactions.
//
// The chain is assembled from the same parts as ethclient/simulated's
// Backend (node, eth service, filter API, simulated beacon). The Backend is
// not used directly because it keeps its node to itself, and the chain must
// serve its JSON-RPC over HTTP (RPCHandler).
//
// Block times. go-ethereum's simulated beacon stamps a block with the wall
// clock or its parent's time plus one second, whichever is later;
// AdvanceTime seals an empty block a given duration after the head. Chain
// time therefore never runs behind the wall clock, and runs ahead of it
// after AdvanceTime, after a burst of blocks within one second, or when
// Options.Start is in the future. eth_call and eth_estimateGas run at the
// head block's time. Whoever computes unlocks for this chain (the sandbox's
// "claimable now") must take its clock from Now, the head block's time: a
// transaction is mined at that time or later, and a schedule only ever
// unlocks more, so an amount claimable at Now stays claimable.
package chain

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// DefaultChainID is the chain id when Options.ChainID is zero: the one local
// development chains (Hardhat, Anvil) use, which wallets know.
const DefaultChainID = 31337

// deployerSeed derives the deployer's key. The key is public knowledge and
// the same on every start, so that contract addresses (sender and nonce) are
// the same on every start too. It must never hold anything of value.
const deployerSeed = "allot sandbox deployer"

func deployerKey() (*ecdsa.PrivateKey, error) {
	return crypto.ToECDSA(crypto.Keccak256([]byte(deployerSeed)))
}

// deployerBalance is the native coin the deployer starts with, in wei:
// enough gas money for any number of deployments.
var deployerBalance = new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))

// Options configure New.
type Options struct {
	// ChainID defaults to DefaultChainID.
	ChainID uint64
	// Balances gives accounts native coin (wei) in the genesis block. The
	// deployer is funded on its own.
	Balances map[common.Address]*big.Int
	// Start is the genesis block's time; zero means now. A Start in the
	// future makes every block exactly one second after its parent until the
	// wall clock catches up, which gives tests exact block times. The first
	// block after a Start in the past jumps to the wall clock.
	Start time.Time
}

// Chain is a running in-process chain. Its methods are safe for concurrent
// use. Close releases it.
type Chain struct {
	node     *node.Node
	beacon   *catalyst.SimulatedBeacon
	txPool   *txpool.TxPool
	rpc      *rpc.Server
	client   *ethclient.Client
	chainID  *big.Int
	signer   types.Signer
	deployer *ecdsa.PrivateKey

	sealMu   sync.Mutex // the simulated beacon seals one block at a time
	deployMu sync.Mutex // one batch of deployer transactions at a time

	miningMu sync.Mutex
	mining   *miner // nil while no mining loop runs

	serveMu sync.Mutex
	servers []*http.Server
	closed  bool

	closeOnce sync.Once
	closeErr  error
}

// New starts a chain with a genesis block funding the given accounts.
func New(opts Options) (*Chain, error) {
	chainID := opts.ChainID
	if chainID == 0 {
		chainID = DefaultChainID
	}
	start := opts.Start
	if start.IsZero() {
		start = time.Now()
	}
	if start.Unix() < 0 {
		return nil, fmt.Errorf("new chain: start %s is before 1970", start)
	}
	deployer, err := deployerKey()
	if err != nil {
		return nil, fmt.Errorf("new chain: deployer key: %w", err)
	}

	// The dev chain runs every fork from genesis, so the system contracts
	// those forks call must exist from the start.
	alloc := core.SystemContractAllocs()
	for addr, balance := range opts.Balances {
		if balance == nil || balance.Sign() < 0 {
			return nil, fmt.Errorf("new chain: balance of %s must be a non-negative amount", addr)
		}
		alloc[addr] = types.Account{Balance: new(big.Int).Set(balance)}
	}
	alloc[crypto.PubkeyToAddress(deployer.PublicKey)] = types.Account{Balance: deployerBalance}

	config := *params.AllDevChainProtocolChanges
	config.ChainID = new(big.Int).SetUint64(chainID)

	nodeConf := node.DefaultConfig
	nodeConf.DataDir = ""                        // in memory
	nodeConf.P2P = p2p.Config{NoDiscovery: true} // no listening, no peers
	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("new chain: node: %w", err)
	}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{
		Config:    &config,
		GasLimit:  ethconfig.Defaults.Miner.GasCeil,
		Alloc:     maps.Clone(alloc),
		Timestamp: uint64(start.Unix()),
	}
	ethConf.NetworkId = chainID
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	ethConf.LogNoHistory = true // no log index to build in the background
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("new chain: eth service: %w", err)
	}
	filterSystem := filters.NewFilterSystem(backend.APIBackend, filters.Config{})
	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, fmt.Errorf("new chain: start node: %w", err)
	}
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("new chain: beacon: %w", err)
	}
	if err := beacon.Fork(backend.BlockChain().GetCanonicalHash(0)); err != nil {
		beacon.Stop()
		stack.Close()
		return nil, fmt.Errorf("new chain: beacon: %w", err)
	}
	server, err := newRPCServer(backend, filterSystem)
	if err != nil {
		beacon.Stop()
		stack.Close()
		return nil, fmt.Errorf("new chain: %w", err)
	}
	return &Chain{
		node:     stack,
		beacon:   beacon,
		txPool:   backend.TxPool(),
		rpc:      server,
		client:   ethclient.NewClient(rpc.DialInProc(server)),
		chainID:  config.ChainID,
		signer:   types.LatestSignerForChainID(config.ChainID),
		deployer: deployer,
	}, nil
}

// Close stops mining and RPC serving and shuts the chain down; on an
// external node, it closes the connection. Calling it again returns the
// first call's result.
func (c *Chain) Close() error {
	c.closeOnce.Do(func() {
		c.StopMining()
		c.closeErr = c.stopServing()
		c.client.Close()
		if c.External() {
			return
		}
		c.rpc.Stop()
		c.closeErr = errors.Join(c.closeErr, c.beacon.Stop(), c.node.Close())
	})
	return c.closeErr
}

// Client returns a client of the chain's JSON-RPC, in process: the same
// methods RPCHandler serves over HTTP.
func (c *Chain) Client() *ethclient.Client { return c.client }

// ChainID returns the chain id transactions must be signed for.
func (c *Chain) ChainID() uint64 { return c.chainID.Uint64() }

// Deployer returns the account that deploys and administers the contracts.
func (c *Chain) Deployer() common.Address { return crypto.PubkeyToAddress(c.deployer.PublicKey) }
