package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"allot/api/sandbox/chain/anviltest"
)

// TestHistoryOnServedChains runs `allot history` through a profile whose
// rpc_url is the chain of `allot sandbox`: its own in-process chain served
// over HTTP, and foundry's anvil (--chain-rpc), where the seed's claims,
// cancel, revoke and transfer are real transactions.
func TestHistoryOnServedChains(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	t.Run("allot sandbox", func(t *testing.T) {
		historyOn(t, "")
	})
	t.Run("anvil", func(t *testing.T) {
		url := anviltest.Start(t, "--block-time", "1")
		keyFile := filepath.Join(t.TempDir(), "deployer.key")
		if err := os.WriteFile(keyFile, []byte(anviltest.Keys[0]+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		historyOn(t, url, "--chain-rpc", url, "--deployer-key-file", keyFile)
	})
}

// historyOn runs the history on the sandbox started with sandboxArgs, its
// chain at rpcURL ("": the one the sandbox serves).
func historyOn(t *testing.T, rpcURL string, sandboxArgs ...string) {
	t.Helper()
	env := userEnv(t)
	dir := t.TempDir()
	fx, _ := startSandboxOn(t, env, dir, sandboxArgs...)
	var states struct {
		AllocationStates map[string]string `json:"allocationStates"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err != nil || json.Unmarshal(data, &states) != nil {
		t.Fatalf("fixtures: %v", err)
	}
	byState := map[string]string{}
	for id, state := range states.AllocationStates {
		byState[state] = id
	}
	if rpcURL == "" {
		rpcURL = fx.RPCURL
	}
	config := writeConfig(t, fx)
	appendConfig(t, config, fmt.Sprintf("rpc_url = %q\n", rpcURL))
	env = slices.Concat(env, []string{"ALLOT_API_KEY=" + fx.APIKey})
	allot := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := run(t, env, append([]string{"--config", config}, args...)...)
		if code != 0 {
			t.Fatalf("allot %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		return stdout
	}

	var wallet string
	for state, want := range map[string]string{"revoked": "claim revoke", "cancelled": "cancel", "transferred": "transfer"} {
		var out struct {
			Events []struct{ Kind, Recipient string }
		}
		if err := json.Unmarshal([]byte(allot("history", byState[state], "-o", "json")), &out); err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, e := range out.Events {
			kinds = append(kinds, e.Kind)
			if e.Kind == "claim" {
				wallet = e.Recipient
			}
		}
		if got := strings.Join(kinds, " "); got != want {
			t.Errorf("%s: events %q, want %q", state, got, want)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(allot("history", "--wallet", wallet, "-o", "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rows, func(row []string) bool { return len(row) == 8 && row[3] == byState["revoked"] }) {
		t.Errorf("the claim of the revoked allocation is not among %s's:\n%v", wallet, rows)
	}
}
