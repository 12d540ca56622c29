package sessiontest

import (
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"

	"allot/wallet/safe/safetest"
)

// SafeDeployer sends safetest's transactions on the sandbox's chain from
// its last demo wallet (which the tests leave alone otherwise), each
// mined at once: how a test puts the real Safe contracts beside the
// sandbox's world. The test skips without the Safe contracts.
func (h *Hostile) SafeDeployer(t testing.TB) *safetest.Deployer {
	t.Helper()
	safetest.Dir(t, safetest.Contracts)
	fx := h.Session.Fixtures
	w := fx.Wallets[len(fx.Wallets)-1]
	keyJSON, err := os.ReadFile(w.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, w.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Sandbox.Chain
	return &safetest.Deployer{Client: c.Client(), Key: key.PrivateKey, Commit: func() { c.Commit() }}
}
