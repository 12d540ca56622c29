package wallet

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api/sandbox/chain"
	"allot/wallet/safe/safetest"
)

// TestHolderKindNamesASafe: a claim's review names a holder that is a
// Safe (the real Safe 1.4.1 contracts, from npm) as one, with how many of
// its owners sign for it; a proxy of anything else stays "a contract".
func TestHolderKindNamesASafe(t *testing.T) {
	safetest.Dir(t, safetest.Contracts) // skips before a chain starts
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	c, err := chain.New(chain.Options{Balances: map[common.Address]*big.Int{from: ether(100)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	d := &safetest.Deployer{Client: c.Client(), Key: key, Commit: func() { c.Commit() }}
	safes := safetest.DeploySafes(t, d)
	owners := []common.Address{{0x01}, {0x02}, {0x03}}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	notASafe := safes.Proxy(t, d, safes.MultiSendAddr, 2)
	ctx := context.Background()
	for addr, want := range map[common.Address]string{
		treasury: "a Safe (2 of its 3 owners sign for it)",
		notASafe: "a contract",
		from:     "a wallet",
	} {
		if got := holderKind(ctx, c.Client(), addr); got != want {
			t.Errorf("%s is %q, want %q", addr.Hex(), got, want)
		}
	}
}
