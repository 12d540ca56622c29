package safe_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet/safe"
	"allot/wallet/safe/safetest"
)

// TestMultiSendHashesFromArtifacts recomputes the MultiSendCallOnly code
// hashes allot delegatecalls from the npm packages' deployedBytecode, and
// finds each among safe-deployments' for its version, with the canonical
// address allot batches through by default; the Safe singleton is no
// MultiSendCallOnly.
func TestMultiSendHashesFromArtifacts(t *testing.T) {
	deployments := safetest.Dir(t, safetest.Deployments)
	for _, m := range []struct{ pkg, artifact, deployment, version string }{
		{safetest.Contracts13, "libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json", "v1.3.0/multi_send_call_only.json", "1.3.0"},
		{safetest.Contracts, "libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json", "v1.4.1/multi_send_call_only.json", "1.4.1"},
	} {
		hash := crypto.Keccak256Hash(safetest.Load(t, m.pkg, m.artifact).DeployedBytecode)
		if got, ok := safe.CanonicalMultiSendCallOnly(hash); !ok || got != m.version {
			t.Errorf("%s %s: code hash %s is not the canonical MultiSendCallOnly %s's", m.pkg, m.artifact, hash.Hex(), m.version)
		}
		asset := filepath.Join(deployments, "dist", "assets", filepath.FromSlash(m.deployment))
		if listed := deploymentHashes(t, asset); !slices.Contains(listed, hash) {
			t.Errorf("%s: code hash %s not among safe-deployments' %v", m.deployment, hash.Hex(), listed)
		}
		if want := canonicalAddress(t, asset); safe.MultiSendCallOnlyOf(m.version) != want {
			t.Errorf("the MultiSendCallOnly of a Safe %s is %s, safe-deployments' canonical one %s", m.version, safe.MultiSendCallOnlyOf(m.version).Hex(), want.Hex())
		}
	}
	singleton := crypto.Keccak256Hash(safetest.Load(t, safetest.Contracts, "Safe.sol/Safe.json").DeployedBytecode)
	if _, ok := safe.CanonicalMultiSendCallOnly(singleton); ok {
		t.Error("the Safe singleton's code is taken for a MultiSendCallOnly")
	}
}

// canonicalAddress is the address a safe-deployments asset lists for its
// canonical deployment.
func canonicalAddress(t *testing.T, path string) common.Address {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var asset struct {
		Deployments struct {
			Canonical struct {
				Address common.Address `json:"address"`
			} `json:"canonical"`
		} `json:"deployments"`
	}
	if err := json.Unmarshal(raw, &asset); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return asset.Deployments.Canonical.Address
}
