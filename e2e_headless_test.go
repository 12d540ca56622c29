package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fixtures is the part of `allot sandbox --fixtures` that these tests use.
type fixtures struct {
	BaseURL        string   `json:"baseUrl"`
	PortalURL      string   `json:"portalUrl"`
	PortalID       string   `json:"portalId"`
	APIKey         string   `json:"apiKey"`
	ReadOnlyAPIKey string   `json:"readOnlyApiKey"`
	TokenIDs       []string `json:"tokenIds"`
	ContractIDs    []string `json:"contractIds"`
	AdminWalletIDs []string `json:"adminWalletIds"`
	PoolIDs        []string `json:"poolIds"`
	BigPoolID      string   `json:"bigPoolId"`
	AllocationIDs  []string `json:"allocationIds"`
	SigninDomain   string   `json:"signinDomain"`
	ChainID        uint64   `json:"chainId"`
	// RPCURL is where the sandbox serves its chain's JSON-RPC: a port the
	// system chose, so that tests side by side never race for one.
	RPCURL string `json:"rpcUrl"`
	// Pins are the deployment's contracts, which the profile must pin for
	// a claim or a stake to be signed.
	Pins struct {
		Vesters    []string          `json:"vesters"`
		Staking    []string          `json:"staking"`
		Tokens     []string          `json:"tokens"`
		Handlers   []string          `json:"handlers"`
		CodeHashes map[string]string `json:"codeHashes"`
	} `json:"pins"`
	// LifeAllocationIDs are the allocations in a state of their own, the
	// one claimed through a handler last.
	LifeAllocationIDs []string `json:"lifeAllocationIds"`
	Wallets           []struct {
		Address    string `json:"address"`
		KeyFile    string `json:"keyFile"`
		Passphrase string `json:"passphrase"`
	} `json:"wallets"`
}

// startSandbox runs `allot sandbox` on a free loopback port, as an
// integrator would, and returns its fixtures.
func startSandbox(t *testing.T, env []string, extra ...string) fixtures {
	t.Helper()
	fx, _ := startSandboxOn(t, env, t.TempDir(), extra...)
	return fx
}

// writeConfig writes a configuration whose only profile points at fx, with
// the API key taken from the environment as config.example.toml shows,
// and the deployment's contracts pinned as `allot sandbox` prints them.
func writeConfig(t testing.TB, fx fixtures) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	quoted := make([]string, len(fx.TokenIDs))
	for i, id := range fx.TokenIDs {
		quoted[i] = fmt.Sprintf("%q", id)
	}
	cfg := fmt.Sprintf(`default_profile = "sandbox"

[profiles.sandbox]
base_url = %q
portal_url = %q
portal_id = %q
api_key_env = "ALLOT_API_KEY"
tokens = [%s]
chain_id = %d
signin_domain = %q
`, fx.BaseURL, fx.PortalURL, fx.PortalID, strings.Join(quoted, ", "), fx.ChainID, fx.SigninDomain)
	list := func(addrs []string) string {
		q := make([]string, len(addrs))
		for i, a := range addrs {
			q[i] = fmt.Sprintf("%q", a)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	// Dotted keys, not a [pins] table: appendConfig adds keys to the
	// profile at the end of the file.
	cfg += fmt.Sprintf("pins.vesters = %s\npins.staking = %s\npins.tokens = %s\npins.handlers = %s\n",
		list(fx.Pins.Vesters), list(fx.Pins.Staking), list(fx.Pins.Tokens), list(fx.Pins.Handlers))
	for addr, hash := range fx.Pins.CodeHashes {
		cfg += fmt.Sprintf("pins.code_hashes.%q = %q\n", addr, hash)
	}
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHeadlessCommandsAgainstSandbox(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	env := userEnv(t)
	fx := startSandbox(t, env)
	config := writeConfig(t, fx)
	env = append(env, "ALLOT_API_KEY="+fx.APIKey)
	base := []string{"--config", config}

	jsonOf := func(args ...string) map[string]any {
		t.Helper()
		stdout, stderr, code := run(t, env, append(append([]string{}, base...), append(args, "-o", "json")...)...)
		if code != 0 {
			t.Fatalf("allot %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatalf("allot %s -o json printed more than JSON: %v\n%s", strings.Join(args, " "), err, stdout)
		}
		return v
	}

	t.Run("contracts", func(t *testing.T) {
		v := jsonOf("contracts")
		if items, _ := v["items"].([]any); len(items) == 0 {
			t.Errorf("no contracts: %v", v)
		}
	})
	t.Run("pools merges every page", func(t *testing.T) {
		v := jsonOf("pools")
		items, _ := v["items"].([]any)
		if total, _ := v["total"].(float64); len(items) < 60 || float64(len(items)) != total {
			t.Errorf("pools: %d items, total %v", len(items), v["total"])
		}
	})
	t.Run("stakes of the whale pool", func(t *testing.T) {
		v := jsonOf("stakes", "--pool", fx.BigPoolID)
		if items, _ := v["items"].([]any); len(items) != 100_000 {
			t.Errorf("whale pool: %d stakes", len(items))
		}
	})
	t.Run("stakes of one wallet", func(t *testing.T) {
		v := jsonOf("stakes", "--pool", fx.BigPoolID, "--wallet", fx.Wallets[0].Address)
		for _, it := range v["items"].([]any) {
			if !strings.EqualFold(it.(map[string]any)["walletAddress"].(string), fx.Wallets[0].Address) {
				t.Fatalf("stake of another wallet: %v", it)
			}
		}
	})
	t.Run("proof", func(t *testing.T) {
		v := jsonOf("proof", fx.AllocationIDs[0])
		if v["id"] != fx.AllocationIDs[0] || len(v["proof"].([]any)) == 0 {
			t.Errorf("proof: %v", v)
		}
	})
	t.Run("claim", func(t *testing.T) {
		v := jsonOf("claim", fx.AllocationIDs[0], "--sender", fx.Wallets[0].Address)
		if params, _ := v["parameters"].([]any); len(params) == 0 {
			t.Errorf("claim: %v", v)
		}
	})
	t.Run("humanity", func(t *testing.T) {
		v := jsonOf("humanity", fx.Wallets[0].Address)
		if _, ok := v["verified"].(bool); !ok {
			t.Errorf("humanity: %v", v)
		}
	})
	t.Run("tx initialize, start, fund", func(t *testing.T) {
		for _, args := range [][]string{
			{"tx", "initialize", "--contract", fx.ContractIDs[0], "--admin-wallet", fx.AdminWalletIDs[0]},
			{"tx", "start", "--contract", fx.ContractIDs[0], "--token", fx.TokenIDs[0], "--allocation", fx.AllocationIDs[0] + "," + fx.AllocationIDs[1]},
			{"tx", "fund", "--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=10.5", "--item", fx.AllocationIDs[1] + "=1"},
		} {
			v := jsonOf(args...)
			txs, _ := v["transactions"].([]any)
			if len(txs) == 0 || txs[0].(map[string]any)["status"] != "PENDING" {
				t.Errorf("%v: %v", args, v)
			}
		}
	})
	t.Run("schedule create", func(t *testing.T) {
		body := filepath.Join(t.TempDir(), "schedule.json")
		os.WriteFile(body, []byte(fmt.Sprintf(`{"tokenId": %q, "name": "Team", "description": "4 years, 1 year cliff",
			"unlockAtStart": 0, "cliff": {"value": 0.25, "duration": 12}, "roundingMode": "FLOOR",
			"pieces": [{"name": "monthly", "portion": 0.75, "startDelay": {"value": 12},
			  "periodicPieceConfiguration": {"length": {"value": 36}, "frequency": {"value": 1}, "dayOfMonth": 1}}]}`, fx.TokenIDs[0])), 0o600)
		v := jsonOf("schedule", "create", "--body", body)
		if key, _ := v["key"].(string); !regexp.MustCompile(`^S-[A-Z0-9]{8}$`).MatchString(key) {
			t.Errorf("schedule key %q", v["key"])
		}
	})
	t.Run("creative upload", func(t *testing.T) {
		png := filepath.Join(t.TempDir(), "banner.png")
		os.WriteFile(png, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...), 0o600)
		v := jsonOf("creative", "upload", png, "--portal", "demo-portal")
		// Stored under a unique name: banner-<content hash>.png.
		if url, _ := v["publicUrl"].(string); !regexp.MustCompile(`/banner-[0-9a-f]{8}\.png$`).MatchString(url) {
			t.Errorf("creative: %v", v)
		}
	})
}

func TestHeadlessErrors(t *testing.T) {
	env := userEnv(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"tx without action", []string{"tx"}, 2, "tx needs one of: fund, initialize, start"},
		{"malformed allocation id", []string{"proof", "not-a-uuid"}, 2, `allocation id: "not-a-uuid" is not a UUID`},
		{"missing pool", []string{"stakes"}, 2, "--pool is required"},
		{"zero amount", []string{"tx", "fund", "--token", "7c9e6679-7425-40de-944b-e07fc1f90ae7", "--item", "7c9e6679-7425-40de-944b-e07fc1f90ae7=0"}, 2, "--item 1's amount must be greater than 0"},
		{"missing config", []string{"--config", "/nonexistent/allot.toml", "contracts"}, 1, "read config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, env, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout not empty on error: %q", stdout)
			}
		})
	}
}
