package chain

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// RPCTimeout bounds every call to an external node: one JSON-RPC request
// and its answer.
const RPCTimeout = 30 * time.Second

// mineTimeout bounds how long Transact waits for an external node to mine
// a batch.
const mineTimeout = 2 * time.Minute

// receiptPoll is how often Transact asks an external node for receipts.
const receiptPoll = 100 * time.Millisecond

// ErrExternal is the error of what only the in-process chain does
// (AdvanceTime, StartMining, ServeRPC) asked of an external node.
var ErrExternal = errors.New("not on an external node: it runs on its own")

// Dial connects to an external EVM node (anvil, hardhat, a devnet) at
// rawURL, http or https, whose account deployer pays for and administers
// the contracts the sandbox deploys there. The node mines by itself: Commit
// does nothing, and Transact waits for the node to mine its transactions.
// Every request is bounded by RPCTimeout, and by ctx.
func Dial(ctx context.Context, rawURL string, deployer *ecdsa.PrivateKey) (*Chain, error) {
	if deployer == nil {
		return nil, errors.New("dial chain: no deployer key")
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("dial chain: %q is not an http(s) URL", Redact(rawURL))
	}
	client, err := rpc.DialOptions(ctx, rawURL, rpc.WithHTTPClient(&http.Client{Timeout: RPCTimeout}))
	if err != nil {
		return nil, fmt.Errorf("dial chain %s: %w", Redact(rawURL), err)
	}
	c := &Chain{client: ethclient.NewClient(client), deployer: deployer}
	ctx, cancel := context.WithTimeout(ctx, RPCTimeout)
	defer cancel()
	if c.chainID, err = c.client.ChainID(ctx); err != nil {
		c.client.Close()
		return nil, fmt.Errorf("dial chain %s: chain id: %w", Redact(rawURL), err)
	}
	if !c.chainID.IsUint64() || c.chainID.Sign() == 0 {
		c.client.Close()
		return nil, fmt.Errorf("dial chain %s: chain id %s out of range", Redact(rawURL), c.chainID)
	}
	c.signer = types.LatestSignerForChainID(c.chainID)
	return c, nil
}

// External reports whether the chain is an external node (Dial), not the
// in-process one (New).
func (c *Chain) External() bool { return c.beacon == nil }

// DeployerBalance returns the deployer's native coin, in wei.
func (c *Chain) DeployerBalance(ctx context.Context) (*big.Int, error) {
	b, err := c.client.BalanceAt(ctx, c.Deployer(), nil)
	if err != nil {
		return nil, fmt.Errorf("balance of the deployer %s: %w", c.Deployer().Hex(), err)
	}
	return b, nil
}

// Redact returns rawURL without a password or a query (where node
// providers put API keys), for messages.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(an unreadable URL)"
	}
	if u.RawQuery != "" {
		u.RawQuery = "REDACTED"
	}
	return u.Redacted()
}

// ParseKey reads a private key written as 64 hexadecimal digits, with or
// without 0x, surrounded by white space at most. Its error never holds the
// text.
func ParseKey(text []byte) (*ecdsa.PrivateKey, error) {
	s := string(bytes.TrimSpace(text))
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if len(s) != 64 {
		return nil, errors.New("a private key is 64 hexadecimal digits, with or without 0x")
	}
	key, err := crypto.HexToECDSA(s)
	if err != nil {
		return nil, errors.New("not a valid secp256k1 private key in hexadecimal")
	}
	return key, nil
}
