package cli

import (
	"context"
	"reflect"
	"testing"

	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/embedded"
)

// TestExampleProfilePinsTheSandbox: config.example.toml's sandbox profile,
// which the README has integrators use with `allot sandbox`, pins exactly
// what `allot sandbox` deploys on its in-process chain (the same addresses
// and code on every start), so that its claims and stakes are signed.
// When the sandbox's contracts change, paste what the failure prints.
func TestExampleProfilePinsTheSandbox(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := onchain.Start(context.Background(), onchain.Options{MineInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	want, err := embedded.Pins(context.Background(), sb)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Profiles["sandbox"].Pins; !reflect.DeepEqual(got, want) {
		t.Errorf("config.example.toml's sandbox profile pins\n%s\n`allot sandbox` deploys\n%s", got.TOML("sandbox"), want.TOML("sandbox"))
	}
}
