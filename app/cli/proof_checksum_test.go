package cli

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
)

// TestProofJSONChecksumsAddresses: 'allot proof --verify -o json' writes
// the recipient, the vester and the handlers as every screen does, EIP-55
// (they were lower case, common.Address's own JSON).
func TestProofJSONChecksumsAddresses(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	r := runCLI(t, s, nil, "proof", stateAllocation(t, s, sandbox.StateThroughHandler), "--verify", "-o", "json")
	var got struct {
		Vester, Recipient string
		PostClaimHandlers []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	for _, a := range append([]string{got.Vester, got.Recipient}, got.PostClaimHandlers...) {
		if !common.IsHexAddress(a) || common.HexToAddress(a).Hex() != a {
			t.Errorf("address %q is not checksummed:\n%s", a, r.stdout)
		}
	}
	if len(got.PostClaimHandlers) == 0 {
		t.Errorf("no handlers read:\n%s", r.stdout)
	}
}
