package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWalletCommands signs in, claims and stakes with the demo keystore as
// a user would: the passphrase from the environment, a profile that names
// the keystore and the sandbox's chain, or the embedded sandbox with no
// configuration at all.
func TestWalletCommands(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	env := userEnv(t)
	fx := startSandbox(t, env)
	w0, w1 := fx.Wallets[0], fx.Wallets[1]
	noChain := writeConfig(t, fx)
	appendConfig(t, noChain, fmt.Sprintf("keystore = %q\n", filepath.Dir(w0.KeyFile)))
	config := filepath.Join(t.TempDir(), "config.toml")
	copyFile(t, noChain, config)
	appendConfig(t, config, fmt.Sprintf("rpc_url = %q\n", fx.RPCURL))
	profileEnv := slices.Concat(env, []string{"ALLOT_API_KEY=" + fx.APIKey, "ALLOT_PASSPHRASE=" + w0.Passphrase})

	stdout, stderr, code := run(t, profileEnv, "--config", config, "signin", "--account", w0.Address, "-o", "json")
	if code != 0 {
		t.Fatalf("signin: exit %d\n%s", code, stderr)
	}
	var signin map[string]string
	if err := json.Unmarshal([]byte(stdout), &signin); err != nil {
		t.Fatalf("signin -o json: %v\n%s", err, stdout)
	}
	if signin["wallet"] != w0.Address || signin["expiration"] == "" || len(signin) != 2 {
		t.Errorf("signin printed %v, want exactly the wallet and the expiration", signin)
	}
	if !strings.Contains(stderr, "wants you to sign in with your Ethereum account:") {
		t.Errorf("the sign-in message was not shown on stderr:\n%s", stderr)
	}

	// No configuration: the embedded sandbox and its own copy of the demo
	// keystore, seeded alike.
	stdout, stderr, code = run(t, slices.Concat(env, []string{"ALLOT_PASSPHRASE=" + w1.Passphrase}), "submission", "--account", w1.Address, "-o", "json")
	if code != 0 {
		t.Fatalf("submission: exit %d\n%s", code, stderr)
	}
	var submission struct {
		ClaimWallet *string
		Accounts    []struct{ Value string }
	}
	if err := json.Unmarshal([]byte(stdout), &submission); err != nil {
		t.Fatalf("submission -o json: %v\n%s", err, stdout)
	}
	if submission.ClaimWallet == nil || *submission.ClaimWallet != w1.Address || len(submission.Accounts) != 1 {
		t.Errorf("submission of %s: %s", w1.Address, stdout)
	}

	// A profile without rpc_url: signing a claim is refused before the
	// claim is even asked for.
	_, stderr, code = run(t, profileEnv, "--config", noChain, "claim", fx.AllocationIDs[0], "--sign", "--account", w0.Address)
	if code != 1 || !strings.Contains(stderr, `set rpc_url in profile "sandbox"`) {
		t.Errorf("claim --sign without rpc_url: exit %d\n%s", code, stderr)
	}

	// With the sandbox's chain over JSON-RPC: claim wallet 0's allocation
	// and follow it to its receipt.
	var allocation string
	for _, id := range fx.AllocationIDs {
		out, _, code := run(t, profileEnv, "--config", config, "proof", id, "-o", "json")
		var proof struct{ WalletAddress string }
		if code == 0 && json.Unmarshal([]byte(out), &proof) == nil && strings.EqualFold(proof.WalletAddress, w0.Address) {
			allocation = id
			break
		}
	}
	if allocation == "" {
		t.Fatalf("no allocation of %s", w0.Address)
	}
	stdout, stderr, code = run(t, profileEnv, "--config", config, "claim", allocation, "--sign", "--account", w0.Address, "--send", "--yes", "--wait", "-o", "json")
	if code != 0 {
		t.Fatalf("claim --send --wait: exit %d\n%s", code, stderr)
	}
	var sent struct {
		Transactions []map[string]any `json:"transactions"`
	}
	if err := json.Unmarshal([]byte(stdout), &sent); err != nil || len(sent.Transactions) != 1 {
		t.Fatalf("claim -o json: %v\n%s", err, stdout)
	}
	tx := sent.Transactions[0]
	if tx["status"] != "success" || tx["block"].(float64) < 1 || tx["confirmations"].(float64) < 1 || len(tx) != 6 {
		t.Errorf("claim receipt %v: want success, mined, confirmed, in exactly six fields", tx)
	}
	for _, want := range []string{"vester withdraw", "withdrawalAmount"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the decoded claim was not shown: no %q on stderr:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "WARNING") {
		t.Errorf("the sandbox's own claim carries warnings:\n%s", stderr)
	}

	// Claiming again sends nothing: either the service already knows that
	// everything unlocked was claimed, or (when its view of the chain lags)
	// the claim it builds reverts in the gas estimate and is refused before
	// it is signed.
	stdout, stderr, code = run(t, profileEnv, "--config", config, "claim", allocation, "--sign", "--account", w0.Address, "--send", "--yes")
	if code != 1 || stdout != "" {
		t.Errorf("a second claim of everything: exit %d, want 1 with nothing sent\n%s", code, stderr)
	}
}

func appendConfig(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
