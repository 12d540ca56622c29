package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session/sessiontest"
	"allot/wallet/safe/safetest"
)

// TestAccountsListTheProfilesSafes: in the dashboard, u opens the
// accounts with the profile's Safe among them, a real Safe 1.4.1 on the
// sandbox's chain: "2 of 3 owners sign", and the two owners whose keys
// are in the keystore marked; unlocking one of them unlocks a key, as
// before, not the Safe.
func TestAccountsListTheProfilesSafes(t *testing.T) {
	t.Parallel()
	safetest.Dir(t, safetest.Contracts) // skips before the sandbox starts
	h := sessiontest.NewHostile(t, t.TempDir())
	d := h.SafeDeployer(t)
	safes := safetest.DeploySafes(t, d)
	fx := h.Session.Fixtures
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address),
		common.HexToAddress("0x00000000000000000000000000000000000b0b01")}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	h.Session.Profile.Safes = []string{treasury.Hex()}

	f := newFlowOn(t, h.Session)
	f.runes("u").wait("Safes of the profile").wait("2 of 3 owners sign · nonce 0 · 2 owners' keys are in the keystore")
	f.wait("✓ " + owners[0].Hex()).wait("✓ " + owners[1].Hex())
	f.key(tea.KeyEnter).wait("Passphrase").typ("allot-demo-0").key(tea.KeyEnter).wait("unlocked " + owners[0].Hex())
	f.quit()
}
