package embedded

import (
	"context"
	"testing"
	"time"

	"allot/api/sandbox"
)

// TestEmbeddedSandboxChainWaitsForTheDeployment reads the embedded
// sandbox's chain as soon as the session is open, while the world is
// still being deployed in the background: the read waits for the
// deployment instead of answering from an empty chain.
func TestEmbeddedSandboxChainWaitsForTheDeployment(t *testing.T) {
	s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	head, err := s.Chain.BlockNumber(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if head == 0 {
		t.Error("the chain was read before the world was deployed on it")
	}
	if err := s.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestChainCallEndsTheHold opens the sandbox as allot's start does, its
// background work held back for longer than any test runs: the contracts
// are listed all the same, and a chain call begins the work and is
// answered from the deployed world.
func TestChainCallEndsTheHold(t *testing.T) {
	s, err := open(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.API.Contracts(context.Background(), s.TokenIDs[0]); err != nil {
		t.Fatal(err)
	}
	head, err := s.Chain.BlockNumber(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if head == 0 {
		t.Error("the chain was read before the world was deployed on it")
	}
}
