// Package embeddedtest shares one embedded sandbox among the tests of a
// test binary that only read it, as httptest serves HTTP in tests: a
// chain and a seeded world cost a tenth of a second of CPU each, and most
// tests of the dashboard and the commands only look.
package embeddedtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
	"allot/core/embedded"
	"allot/core/session"
)

// Shared is an embedded sandbox started on first use and running until
// Close, which the test binary's TestMain calls after its tests.
type Shared struct {
	now     func() time.Time
	start   func() (*onchain.Sandbox, error)
	started atomic.Bool
}

// NewShared is the sandbox opts describe (its clock is the sessions'
// too), not started yet.
func NewShared(opts sandbox.Options) *Shared {
	if opts.PublicURL == "" {
		opts.PublicURL = sandbox.DefaultPublicURL
	}
	s := &Shared{now: opts.Clock}
	s.start = sync.OnceValues(func() (*onchain.Sandbox, error) {
		s.started.Store(true)
		sb, err := onchain.Start(context.Background(), onchain.Options{Sandbox: opts})
		if err != nil {
			return nil, err
		}
		return sb, sb.Seeded(context.Background())
	})
	return s
}

// Close stops the sandbox, if a test started it, and removes the demo
// keystore it wrote.
func (s *Shared) Close() {
	if !s.started.Load() {
		return
	}
	if sb, _ := s.start(); sb != nil {
		sb.Close()
	}
}

// Session is a session of the test's own (its state, journal and request
// log) on the shared sandbox, for a test that only reads (ReadOnly).
func (s *Shared) Session(t testing.TB) *session.Session {
	t.Helper()
	sb, err := s.start()
	if err != nil {
		t.Fatal(err)
	}
	return ReadOnly(t, sb, s.now)
}

// ReadOnly opens a session on sb, whose clock is now, for a test that
// fails if, while it ran, sb applied a write, a demo wallet sent a
// transaction or the demo keystore changed: a test that writes needs a
// sandbox of its own (embedded.Sandbox), or it changes what the tests
// beside it see.
func ReadOnly(t testing.TB, sb *onchain.Sandbox, now func() time.Time) *session.Session {
	t.Helper()
	writes, nonces, keys := sb.Server.JournalLen(), demoNonces(t, sb), keystoreFiles(t, sb)
	s, err := embedded.Attach(sb, now, t.TempDir(), func() {})
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
