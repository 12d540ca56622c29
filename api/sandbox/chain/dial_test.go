package chain

import (
	"context"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8545":                   "http://127.0.0.1:8545",
		"https://user:secret@node.example/v3":     "https://user:xxxxx@node.example/v3",
		"https://node.example/rpc?apikey=secret1": "https://node.example/rpc?REDACTED",
	} {
		if got := Redact(in); got != want || strings.Contains(got, "secret") {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDialRefusesWhatIsNotHTTP(t *testing.T) {
	key, _ := ParseKey([]byte("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"))
	for _, url := range []string{"ws://127.0.0.1:8545", "/tmp/geth.ipc", "http://"} {
		if _, err := Dial(context.Background(), url, key); err == nil || !strings.Contains(err.Error(), "not an http(s) URL") {
			t.Errorf("Dial(%q): %v", url, err)
		}
	}
	if _, err := Dial(context.Background(), "http://127.0.0.1:8545", nil); err == nil {
		t.Error("Dial without a key")
	}
}
