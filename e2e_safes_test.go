package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"allot/wallet/safe/safetest"
)

// TestSafeAccountsInTmux: a served sandbox whose chain holds a real Safe
// 1.4.1 (the npm contracts; skipped without them), 2 of 3 of the demo
// wallets 0 and 1 and an outsider. `allot safe add` lists it in the
// user's configuration file, the rest of it kept; `allot safe list`
// shows it; the dashboard's accounts page (u) shows it among the
// accounts, with the owners whose keys are in the keystore marked.
func TestSafeAccountsInTmux(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	safetest.Dir(t, safetest.Contracts)
	env := userEnv(t)
	fx := startSandbox(t, env)
	config := writeConfig(t, fx)
	appendConfig(t, config, fmt.Sprintf("keystore = %q\nrpc_url = %q\n", filepath.Dir(fx.Wallets[0].KeyFile), fx.RPCURL))
	env = append(env, "ALLOT_API_KEY="+fx.APIKey)

	client, err := ethclient.Dial(fx.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	payer := fx.Wallets[len(fx.Wallets)-1]
	keyJSON, err := os.ReadFile(payer.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, payer.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	d := &safetest.Deployer{Client: client, Key: key.PrivateKey} // the served chain mines by itself
	safes := safetest.DeploySafes(t, d)
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address),
		common.HexToAddress("0x00000000000000000000000000000000000b0b01")}
	treasury := safes.Create(t, d, safes.Singleton, owners, 2, 1)

	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, env, "--config", config, "safe", "add", treasury.Hex())
	if code != 0 || !strings.Contains(out, "listed the Safe "+treasury.Hex()) {
		t.Fatalf("safe add: exit %d\n%s%s", code, out, stderr)
	}
	after, err := os.ReadFile(config)
	if err != nil || len(after) != len(before)+len("safes = [\"\"]\n")+len(treasury.Hex()) || !strings.Contains(string(after), "safes = [\""+treasury.Hex()+"\"]\n") {
		t.Errorf("the configuration after safe add: %v\n%s", err, after)
	}
	out, stderr, code = run(t, env, "--config", config, "safe", "list")
	if code != 0 || !strings.Contains(out, "2 of 3 owners sign a transaction") || !strings.Contains(out, "2 of the owners' keys are in the keystore") {
		t.Errorf("safe list: exit %d\n%s%s", code, out, stderr)
	}

	tm := startTmux(t, env, 120, 36, "--config", config)
	const wait = 30 * time.Second
	tm.waitFor(wait, "profile sandbox")
	tm.send("u")
	tm.waitFor(wait, "Safes of the profile", "2 of 3 owners sign · nonce 0", "✓ "+owners[0].Hex(), "✓ "+owners[1].Hex())
	tm.send("q")
}
