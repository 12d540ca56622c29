package session

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestSeededNodeSaysWhyNot: a sandbox that could not deploy its world
// fails every chain call with why, and never reaches the node.
func TestSeededNodeSaysWhyNot(t *testing.T) {
	failed := errors.New("sandbox chain: deploy: out of gas")
	n := seededNode{node: nil, seeded: func(context.Context) error { return failed }}
	_, err := n.BlockNumber(context.Background())
	if !errors.Is(err, failed) || !strings.Contains(err.Error(), "embedded sandbox") {
		t.Errorf("BlockNumber: %v", err)
	}
	if err := n.SendTransaction(context.Background(), nil); !errors.Is(err, failed) {
		t.Errorf("SendTransaction: %v", err)
	}
}
