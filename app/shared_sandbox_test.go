package app

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
	"allot/core/embedded"
	"allot/core/session"
)

// sharedSandbox is one embedded sandbox on the screens' clock, started
// on first use and left to the end of the test binary: tests that only
// read the service and the chain open their sessions on it (readSession)
// instead of a chain and a world each.
var sharedSandbox = sync.OnceValues(func() (*onchain.Sandbox, error) {
	sb, err := onchain.Start(context.Background(), onchain.Options{Sandbox: sandbox.Options{Clock: func() time.Time { return clock }, PublicURL: sandbox.DefaultPublicURL}})
	if err != nil {
		return nil, err
	}
	return sb, sb.Seeded(context.Background())
})

// readSession is the session of a test that only reads: a session of its
// own (its state, journal and request log) on the shared sandbox
// (readOnly).
func readSession(t testing.TB) *session.Session {
	t.Helper()
	sb, err := sharedSandbox()
	if err != nil {
		t.Fatal(err)
	}
	return readOnly(t, sb)
}

// readOnly opens a session on sb for a test that fails if, while it ran,
// sb applied a write, a demo wallet sent a transaction or the demo
// keystore changed: a test that writes needs a sandbox of its own
// (embedded.Sandbox), or it changes what the tests beside it see.
func readOnly(t testing.TB, sb *onchain.Sandbox) *session.Session {
	t.Helper()
	writes, nonces, keys := sb.Server.JournalLen(), demoNonces(t, sb), keystoreFiles(t, sb)
	s, err := embedded.Attach(sb, func() time.Time { return clock }, t.TempDir(), func() {})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if applied := sb.Server.JournalFrom(writes); len(applied) > 0 {
			t.Errorf("a test on the shared sandbox applied %d writes (%s first): it needs a sandbox of its own", len(applied), applied[0].Operation)
		}
		for addr, n := range demoNonces(t, sb) {
			if n != nonces[addr] {
				t.Errorf("demo wallet %s sent a transaction on the shared sandbox: the test needs a sandbox of its own", addr.Hex())
			}
		}
		if now := keystoreFiles(t, sb); !slices.Equal(now, keys) {
			t.Errorf("the shared sandbox's keystore went from %v to %v: the test needs a sandbox of its own", keys, now)
		}
	})
	return s
}

// demoNonces are the demo wallets' nonces, the pending transactions
// counted.
func demoNonces(t testing.TB, sb *onchain.Sandbox) map[common.Address]uint64 {
	t.Helper()
	out := map[common.Address]uint64{}
	for _, w := range sb.Server.Fixtures().Wallets {
		addr := common.HexToAddress(w.Address)
		n, err := sb.Chain.Client().PendingNonceAt(context.Background(), addr)
		if err != nil {
			t.Fatalf("nonce of %s: %v", addr.Hex(), err)
		}
		out[addr] = n
	}
	return out
}

// keystoreFiles are the names and sizes of the files in the sandbox's
// keystore directory.
func keystoreFiles(t testing.TB, sb *onchain.Sandbox) []string {
	t.Helper()
	entries, err := os.ReadDir(sb.Server.Fixtures().KeystoreDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s (%d bytes)", e.Name(), info.Size()))
	}
	return out
}
