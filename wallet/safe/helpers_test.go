package safe_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"allot/api/sandbox/chain"
	"allot/wallet/safe/safetest"
)

// world is the Safe 1.4.1 contracts on the sandbox's in-process chain and
// a 2-of-3 Safe of three owners.
type world struct {
	chain  *chain.Chain
	d      *safetest.Deployer
	safes  *safetest.Safes
	owners []common.Address
	safe   common.Address
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
	w := &world{chain: c, d: &safetest.Deployer{Client: c.Client(), Key: key, Commit: func() { c.Commit() }}}
	w.safes = safetest.DeploySafes(t, w.d)
	for i := 0; i < 3; i++ {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		w.owners = append(w.owners, crypto.PubkeyToAddress(k.PublicKey))
	}
	w.safe = w.safes.Create(t, w.d, w.safes.Singleton, w.owners, 2, 1)
	return w
}
