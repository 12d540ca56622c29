package safe_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"allot/api/sandbox/chain"
	"allot/api/sandbox/chain/anviltest"
	"allot/wallet/safe/safetest"
)

// world is the Safe 1.4.1 contracts on a chain (the sandbox's in-process
// one, or anvil) and a 2-of-3 Safe of three owners.
type world struct {
	chainID *big.Int
	d       *safetest.Deployer
	safes   *safetest.Safes
	owners  []common.Address
	safe    common.Address
}

func newWorld(t *testing.T) *world {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before a chain starts
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	c, err := chain.New(chain.Options{Balances: map[common.Address]*big.Int{from: new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	w := &world{chainID: new(big.Int).SetUint64(c.ChainID()), d: &safetest.Deployer{Client: c.Client(), Key: key, Commit: func() { c.Commit() }}}
	w.build(t)
	return w
}

// newAnvilWorld is the world on anvil, through JSON-RPC.
func newAnvilWorld(t *testing.T) *world {
	t.Helper()
	safetest.Dir(t, safetest.Contracts)
	url := anviltest.Start(t)
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	key, err := crypto.HexToECDSA(strings.TrimPrefix(anviltest.Keys[0], "0x"))
	if err != nil {
		t.Fatal(err)
	}
	id, err := client.ChainID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{chainID: id, d: &safetest.Deployer{Client: client, Key: key}}
	w.build(t)
	return w
}

// build deploys the Safe contracts and the 2-of-3 Safe.
func (w *world) build(t *testing.T) {
	t.Helper()
	w.safes = safetest.DeploySafes(t, w.d)
	for i := 0; i < 3; i++ {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		w.owners = append(w.owners, crypto.PubkeyToAddress(k.PublicKey))
	}
	w.safe = w.safes.Create(t, w.d, w.safes.Singleton, w.owners, 2, 1)
}
