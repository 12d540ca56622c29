package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

func TestReadDeployerKey(t *testing.T) {
	t.Parallel()
	const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	write := func(t *testing.T, text string, mode os.FileMode) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "deployer.key")
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, text := range []string{key, "0x" + key + "\n", "  0X" + strings.ToUpper(key) + "\r\n"} {
		k, err := readDeployerKey(write(t, text, 0o600))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := crypto.PubkeyToAddress(k.PublicKey).Hex(); got != "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" {
			t.Errorf("%q: address %s", text, got)
		}
	}
	refusals := []struct {
		name, text string
		mode       os.FileMode
		want       string
	}{
		{"readable by others", key, 0o644, "chmod 600"},
		{"readable by the group", key, 0o640, "chmod 600"},
		{"short", key[:62], 0o600, "64 hexadecimal digits"},
		{"not hex", strings.Repeat("zz", 32), 0o600, "not a valid"},
		{"two keys", key + "\n" + key, 0o600, "64 hexadecimal digits"},
		{"too large", strings.Repeat(key, 40), 0o600, "larger than"},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			_, err := readDeployerKey(write(t, r.text, r.mode))
			if err == nil || !strings.Contains(err.Error(), r.want) {
				t.Fatalf("error %v, want %q", err, r.want)
			}
			if strings.Contains(err.Error(), key[10:30]) || strings.Contains(err.Error(), "zzzz") {
				t.Errorf("the error shows the file's text: %v", err)
			}
		})
	}
	if _, err := readDeployerKey(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

func TestSandboxChainFlags(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	for _, args := range [][]string{
		{"sandbox", "--chain-rpc", "http://127.0.0.1:1"},
		{"sandbox", "--deployer-key-file", "k"},
		{"sandbox", "--chain-rpc", "http://127.0.0.1:1", "--deployer-key-file", "k", "--rpc-addr", "127.0.0.1:0"},
	} {
		if r := runCLI(t, s, nil, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want a usage error\n%s", args, r.code, r.stderr)
		}
	}
}

func TestSandboxWhaleStakesBounds(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	for _, n := range []string{"0", "-1", "2000001", "many"} {
		r := runCLI(t, s, nil, "sandbox", "--whale-stakes", n)
		if r.code != 2 {
			t.Errorf("--whale-stakes %s: exit %d, want a usage error\n%s", n, r.code, r.stderr)
		}
		if n == "0" && !strings.Contains(r.stderr, "--whale-stakes 0: want 1 to 2000000") {
			t.Errorf("--whale-stakes 0: stderr %q does not say the bounds", r.stderr)
		}
	}
}
