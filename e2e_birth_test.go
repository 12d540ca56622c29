package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"allot/api/sandbox/chain/anviltest"
)

// twoMillion is the blocks before the vester's deployment.
const twoMillion = 2_000_000

// seededAnvil is `allot sandbox` seeded on anvil, and a profile for it.
type seededAnvil struct {
	archive *anviltest.Archive // nil on a fresh chain
	rpcURL  string
	env     []string
	config  string
	revoked string // a revoked allocation's id: a claim, then the revoke
}

// startAfterTwoMillion seeds anvil forked at block 2,000,000 of an
// archive of empty blocks: every block before the vester's deployment is
// there to be read, and every question about one reaches the archive,
// which counts them.
func startAfterTwoMillion(t testing.TB) *seededAnvil {
	t.Helper()
	archive := anviltest.NewArchive(t, twoMillion)
	w := seededOn(t, anviltest.StartForked(t, archive, "--block-time", "1"))
	w.archive = archive
	return w
}

// seededOn seeds `allot sandbox` on the anvil at url.
func seededOn(t testing.TB, url string) *seededAnvil {
	t.Helper()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "deployer.key")
	if err := os.WriteFile(keyFile, []byte(anviltest.Keys[0]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := userEnv(t)
	fx, _ := startSandboxOn(t, env, dir, "--chain-rpc", url, "--deployer-key-file", keyFile)
	var seeded struct {
		AllocationStates map[string]string `json:"allocationStates"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err != nil || json.Unmarshal(data, &seeded) != nil {
		t.Fatalf("fixtures: %v", err)
	}
	w := &seededAnvil{rpcURL: url, env: slices.Concat(env, []string{"ALLOT_API_KEY=" + fx.APIKey})}
	for id, state := range seeded.AllocationStates {
		if state == "revoked" {
			w.revoked = id
		}
	}
	w.config = writeConfig(t, fx)
	appendConfig(t, w.config, fmt.Sprintf("rpc_url = %q\n", url))
	return w
}

// history runs `allot history ID -o json` with args and returns what it
// said.
func (w *seededAnvil) history(t testing.TB, args ...string) historyAnswer {
	t.Helper()
	all := append([]string{"--config", w.config, "history", w.revoked, "-o", "json"}, args...)
	stdout, stderr, code := run(t, w.env, all...)
	if code != 0 {
		t.Fatalf("allot history: exit %d\n%s", code, stderr)
	}
	var h historyAnswer
	if err := json.Unmarshal([]byte(stdout), &h); err != nil {
		t.Fatalf("history JSON: %v\n%s", err, stdout)
	}
	return h
}

type historyAnswer struct {
	FromBlock uint64 `json:"fromBlock"`
	Events    []struct {
		Kind   string `json:"kind"`
		Vester string `json:"vester"`
	} `json:"events"`
}

func (h historyAnswer) kinds() string {
	var kinds []string
	for _, e := range h.Events {
		kinds = append(kinds, e.Kind)
	}
	return strings.Join(kinds, " ")
}

// TestHistoryAfterTwoMillionBlocks: on a chain whose vester was deployed
// after 2,000,000 empty blocks, an allocation's history asks for no log of
// a block before the deployment (a scan from block 0 asked for every
// range of them): it finds the deployment with about 21 questions about
// code, and the next run (another process) checks the block it
// remembered with at most two.
func TestHistoryAfterTwoMillionBlocks(t *testing.T) {
	t.Parallel() // its own anvil, sandbox and home; it waits on them
	w := startAfterTwoMillion(t)
	w.archive.Reset()
	h := w.history(t)
	if got := h.kinds(); got != "claim revoke" {
		t.Errorf("events %q, want a claim and the revoke", got)
	}
	if h.FromBlock <= twoMillion {
		t.Errorf("scanned from block %d, before the deployment", h.FromBlock)
	}
	if n := w.archive.Asked("eth_getLogs"); n != 0 {
		t.Errorf("%d log queries reached the blocks before the deployment", n)
	}
	if n := w.archive.Asked("eth_getCode"); n == 0 || n > 24 {
		t.Errorf("%d code questions reached the archive, want the search's (about 21)", n)
	}

	w.archive.Reset()
	if again := w.history(t); again.kinds() != h.kinds() || again.FromBlock != h.FromBlock {
		t.Errorf("the next run: %q from block %d, want %q from %d", again.kinds(), again.FromBlock, h.kinds(), h.FromBlock)
	}
	if n := w.archive.Asked("eth_getCode"); n > 2 {
		t.Errorf("the next run asked the archive %d code questions: the first block was not remembered", n)
	}
	if n := w.archive.Asked("eth_getLogs"); n != 0 {
		t.Errorf("the next run: %d log queries before the deployment", n)
	}
}

// BenchmarkHistoryAfterTwoMillionBlocks: an allocation's history on the
// chain of TestHistoryAfterTwoMillionBlocks (each run a new process, the
// deployment block remembered in its state directory), beside the same
// on a fresh anvil seeded alike, a scan of the forked chain from block 1
// (what the history did before it looked for the deployment) and
// foundry's `cast logs` of the vester over the whole chain. Run with
// -bench HistoryAfterTwoMillion; it needs anvil and cast.
func BenchmarkHistoryAfterTwoMillionBlocks(b *testing.B) {
	cast, err := exec.LookPath("cast")
	if err != nil {
		b.Skip("cast is not on PATH: npm install -g @foundry-rs/cast@" + anviltest.Version)
	}
	w := startAfterTwoMillion(b)
	vester := w.history(b).Events[0].Vester
	fresh := seededOn(b, anviltest.Start(b, "--block-time", "1"))
	fresh.history(b) // its deployment block found, as w's was
	b.Run("allot history", func(b *testing.B) {
		for b.Loop() {
			w.history(b)
		}
	})
	b.Run("allot history, fresh chain", func(b *testing.B) {
		for b.Loop() {
			fresh.history(b)
		}
	})
	b.Run("allot history --from-block 1", func(b *testing.B) {
		for b.Loop() {
			w.history(b, "--from-block", "1")
		}
	})
	b.Run("cast logs", func(b *testing.B) {
		for b.Loop() {
			out, err := exec.Command(cast, "logs", "--rpc-url", w.rpcURL, "--from-block", "0", "--to-block", "latest", "--address", vester).CombinedOutput()
			if err != nil {
				b.Fatalf("cast logs: %v\n%s", err, out)
			}
		}
	})
}
