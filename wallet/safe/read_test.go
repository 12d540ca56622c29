package safe_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"allot/wallet/safe"
	"allot/wallet/safe/safetest"
)

// TestRead reads the 2-of-3 Safe 1.4.1 the real factory made.
func TestRead(t *testing.T) {
	w := newWorld(t)
	info, err := safe.Read(context.Background(), w.d.Client, w.safe)
	if err != nil {
		t.Fatal(err)
	}
	if info.Singleton != w.safes.Singleton || info.Kind != (safe.Singleton{Version: "1.4.1"}) || info.Version != "1.4.1" {
		t.Errorf("singleton %s %v %q, want %s Safe 1.4.1", info.Singleton.Hex(), info.Kind, info.Version, w.safes.Singleton.Hex())
	}
	if info.Threshold != 2 || info.Nonce.Sign() != 0 || len(info.Owners) != 3 {
		t.Errorf("threshold %d, nonce %s, owners %v", info.Threshold, info.Nonce, info.Owners)
	}
	for _, o := range w.owners {
		if !info.IsOwner(o) {
			t.Errorf("owner %s not read", o.Hex())
		}
	}
}

// TestReadRefusesWhatIsNoSafe: a proxy of the real factory whose
// singleton is not a Safe's code, the singleton itself (not a proxy), and
// an address without code are refused as no Safe.
func TestReadRefusesWhatIsNoSafe(t *testing.T) {
	w := newWorld(t)
	// The factory makes a proxy of any contract: here MultiSendCallOnly,
	// with no initializer.
	var zero common.Address
	fake := w.safes.Proxy(t, w.d, w.safes.MultiSendAddr, 9)
	for name, addr := range map[string]common.Address{"a proxy of another singleton": fake, "the singleton": w.safes.Singleton, "no code": zero} {
		info, err := safe.Read(context.Background(), w.d.Client, addr)
		if !errors.Is(err, safe.ErrNotSafe) {
			t.Errorf("%s: %v, want ErrNotSafe", name, err)
		}
		if info.Owners != nil {
			t.Errorf("%s: owners read from what is no Safe", name)
		}
	}
	info, _ := safe.Read(context.Background(), w.d.Client, fake)
	if info.Singleton != w.safes.MultiSendAddr {
		t.Errorf("the refused proxy's singleton %s, want %s named", info.Singleton.Hex(), w.safes.MultiSendAddr.Hex())
	}
}

// hostile is the real chain but for the answers to one view of the Safe.
type hostile struct {
	*ethclient.Client
	selector []byte
	answer   []byte
	slot0    []byte
}

func (h *hostile) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if h.selector != nil && bytes.HasPrefix(msg.Data, h.selector) {
		return h.answer, nil
	}
	return h.Client.CallContract(ctx, msg, block)
}

func (h *hostile) StorageAt(ctx context.Context, a common.Address, key common.Hash, block *big.Int) ([]byte, error) {
	if h.slot0 != nil {
		return h.slot0, nil
	}
	return h.Client.StorageAt(ctx, a, key, block)
}

// TestReadRefusesAHostileNode: a node's answer no Safe gives is refused,
// never shown as the Safe's.
func TestReadRefusesAHostileNode(t *testing.T) {
	w := newWorld(t)
	sel := func(sig string) []byte { return crypto.Keccak256([]byte(sig))[:4] }
	owners := func(n int, dup bool) []byte {
		list := make([]common.Address, n)
		for i := range list {
			list[i] = common.BigToAddress(big.NewInt(int64(0x100 + i)))
		}
		if dup {
			list[n-1] = list[0]
		}
		return pack(t, w, "getOwners", list)
	}
	cases := map[string]*hostile{
		"51 owners":             {selector: sel("getOwners()"), answer: owners(51, false)},
		"an owner twice":        {selector: sel("getOwners()"), answer: owners(3, true)},
		"no owner":              {selector: sel("getOwners()"), answer: owners(0, false)},
		"the sentinel":          {selector: sel("getOwners()"), answer: pack(t, w, "getOwners", []common.Address{common.HexToAddress("0x1")})},
		"threshold 0":           {selector: sel("getThreshold()"), answer: common.LeftPadBytes(nil, 32)},
		"threshold 4 of 3":      {selector: sel("getThreshold()"), answer: common.LeftPadBytes([]byte{4}, 32)},
		"another version":       {selector: sel("VERSION()"), answer: pack(t, w, "VERSION", "1.3.0")},
		"a truncated answer":    {selector: sel("nonce()"), answer: []byte{1}},
		"a huge answer":         {selector: sel("VERSION()"), answer: make([]byte, 1<<20)},
		"slot 0 not an address": {slot0: bytes.Repeat([]byte{0xff}, 32)},
	}
	for name, h := range cases {
		h.Client = w.d.Client
		_, err := safe.Read(context.Background(), h, w.safe)
		if !errors.Is(err, safe.ErrBadAnswer) {
			t.Errorf("%s: %v, want ErrBadAnswer", name, err)
		}
	}
}

func pack(t *testing.T, w *world, method string, v any) []byte {
	t.Helper()
	out, err := w.safes.Safe.ABI.Methods[method].Outputs.Pack(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCanonicalHashesFromArtifacts recomputes the code hashes allot
// accepts from the npm packages: each is the keccak256 of an artifact's
// deployedBytecode, and safe-deployments lists the singletons' for their
// canonical deployments.
func TestCanonicalHashesFromArtifacts(t *testing.T) {
	singletons := []struct {
		pkg, artifact, deployment string
		want                      safe.Singleton
	}{
		{safetest.Contracts13, "GnosisSafe.sol/GnosisSafe.json", "v1.3.0/gnosis_safe.json", safe.Singleton{Version: "1.3.0"}},
		{safetest.Contracts13, "GnosisSafeL2.sol/GnosisSafeL2.json", "v1.3.0/gnosis_safe_l2.json", safe.Singleton{Version: "1.3.0", L2: true}},
		{safetest.Contracts, "Safe.sol/Safe.json", "v1.4.1/safe.json", safe.Singleton{Version: "1.4.1"}},
		{safetest.Contracts, "SafeL2.sol/SafeL2.json", "v1.4.1/safe_l2.json", safe.Singleton{Version: "1.4.1", L2: true}},
	}
	deployments := safetest.Dir(t, safetest.Deployments)
	for _, s := range singletons {
		hash := crypto.Keccak256Hash(safetest.Load(t, s.pkg, s.artifact).DeployedBytecode)
		if got, ok := safe.CanonicalSingleton(hash); !ok || got != s.want {
			t.Errorf("%s: code hash %s is not %v's", s.artifact, hash.Hex(), s.want)
		}
		if listed := deploymentHashes(t, filepath.Join(deployments, "dist", "assets", filepath.FromSlash(s.deployment))); !slices.Contains(listed, hash) {
			t.Errorf("%s: code hash %s not among safe-deployments' %v", s.deployment, hash.Hex(), listed)
		}
	}
	for _, p := range []struct{ pkg, artifact string }{
		{safetest.Contracts13, "proxies/GnosisSafeProxy.sol/GnosisSafeProxy.json"},
		{safetest.Contracts, "proxies/SafeProxy.sol/SafeProxy.json"},
	} {
		if hash := crypto.Keccak256Hash(safetest.Load(t, p.pkg, p.artifact).DeployedBytecode); !safe.CanonicalProxy(hash) {
			t.Errorf("%s: code hash %s is not a canonical proxy's", p.artifact, hash.Hex())
		}
	}
}

// deploymentHashes are the code hashes a safe-deployments asset lists for
// its canonical and eip155 deployments.
func deploymentHashes(t *testing.T, path string) []common.Hash {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var asset struct {
		Deployments map[string]struct {
			CodeHash common.Hash `json:"codeHash"`
		} `json:"deployments"`
	}
	if err := json.Unmarshal(raw, &asset); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []common.Hash
	for _, kind := range []string{"canonical", "eip155"} {
		if d, ok := asset.Deployments[kind]; ok {
			out = append(out, d.CodeHash)
		}
	}
	return out
}
