package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestUnpinnedElsewhereRefusedInTmux: the dashboard is open on a profile
// that pins the sandbox's deployment; a second allot takes the vesters out
// of the same file (`allot pin rm vester ADDR`); then C on an allocation
// of that vester is refused in the open dashboard, which says where it
// read the pins, and nothing is signed.
func TestUnpinnedElsewhereRefusedInTmux(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	env := userEnv(t)
	fx := startSandbox(t, env)
	w0 := fx.Wallets[0]
	config := writeConfig(t, fx)
	appendConfig(t, config, fmt.Sprintf("keystore = %q\nrpc_url = %q\n", filepath.Dir(w0.KeyFile), fx.RPCURL))
	env = slices.Concat(env, []string{"ALLOT_API_KEY=" + fx.APIKey})

	var allocation string
	for _, id := range fx.AllocationIDs {
		out, _, code := run(t, env, "--config", config, "proof", id, "-o", "json")
		var proof struct{ WalletAddress string }
		if code == 0 && json.Unmarshal([]byte(out), &proof) == nil && strings.EqualFold(proof.WalletAddress, w0.Address) {
			allocation = id
			break
		}
	}
	if allocation == "" {
		t.Fatalf("no allocation of %s", w0.Address)
	}

	tm := startTmux(t, env, 120, 36, "--config", config)
	const wait = 30 * time.Second
	tm.waitFor(wait, "profile sandbox")
	tm.send("u")
	tm.waitFor(wait, "Unlock an account")
	tm.send("Enter")
	tm.waitFor(wait, "Passphrase:")
	tm.typeText(w0.Passphrase)
	tm.send("Enter")
	tm.waitFor(wait, "unlocked "+w0.Address)
	tm.send("3")
	tm.waitFor(wait, "Allocation:")
	tm.send("/")
	tm.typeText(allocation)
	tm.send("Enter")
	tm.waitFor(wait, "C claim")

	// Another allot, on the same profile file, while the dashboard is open.
	for _, v := range fx.Pins.Vesters {
		if _, stderr, code := run(t, env, "--config", config, "pin", "rm", "vester", v); code != 0 {
			t.Fatalf("pin rm vester %s: exit %d\n%s", v, code, stderr)
		}
	}

	tm.send("C")
	tm.waitFor(wait, "Claim allocation")
	tm.send("Enter")
	tm.waitFor(wait, "Send this claim request")
	tm.send("y")
	review := tm.waitFor(wait, "REFUSED by the signing policy", "is not pinned in the profile")
	if flat := strings.Join(strings.Fields(review), ""); !strings.Contains(flat, "pinsreadatthisreviewfrom"+config) {
		t.Errorf("the review does not say it read the pins from %s:\n%s", config, review)
	}
	if strings.Contains(review, "Sign and send") {
		t.Errorf("the open dashboard asked to sign for an unpinned vester:\n%s", review)
	}
	tm.send("q")
}
