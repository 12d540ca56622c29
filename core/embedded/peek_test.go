package embedded

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"allot/api/sandbox"
	"allot/core/session"
)

// TestPeekSandbox: without a configuration, Peek is the embedded sandbox
// as Open starts it (the journal's deployment but for its world), its
// tokens and pool names from the seed, and nothing is started or written.
func TestPeekSandbox(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", state)
	p, err := session.PeekAt(session.Options{Getenv: os.Getenv, Embedded: Start{}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := s.Deployment()
	want.World = ""
	if p.Name != session.SandboxProfile || p.Deployment != want {
		t.Errorf("peek %q %+v, want %q %+v", p.Name, p.Deployment, session.SandboxProfile, want)
	}
	tokens, err := p.Tokens()
	if err != nil || len(tokens) != len(s.Fixtures.Tokens) || tokens[1].Symbol != s.Fixtures.Tokens[1].Symbol {
		t.Errorf("tokens %+v (%v), want the fixtures' %+v", tokens, err, s.Fixtures.Tokens)
	}
	names, err := p.PoolNames(context.Background(), tokens[0].Symbol)
	if err != nil || !slices.Contains(names, "Whale pool") {
		t.Errorf("pool names of %s: %q (%v), want the whale pool among them", tokens[0].Symbol, names, err)
	}
	if _, err := p.PoolNames(context.Background(), "nope"); err == nil {
		t.Error("the pools of a token the sandbox does not have")
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("peeking made the state folder: %v", err)
	}
}
