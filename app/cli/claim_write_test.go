package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"allot/api"
)

// TestClaimListIsInert: the type, a transaction id and a raw instruction
// of a claim are the service's text; the list prints none of their escapes.
func TestClaimListIsInert(t *testing.T) {
	t.Parallel()
	res := &api.ClaimResult{
		Type: "EVM\x1b]52;c;eA==\x07",
		Parameters: []api.ClaimGroup{{
			TransactionID: "tx\x1b[2J\u009b",
			Instructions:  []api.Instruction{{Raw: json.RawMessage("{\"k\":\"\u009b\u202e\x9b\"}")}},
		}},
	}
	var out bytes.Buffer
	writeClaim(&out, res)
	assertInert(t, "claim list", out.String())
	for _, want := range []string{"transaction group(s)", "transaction tx", "not an EVM call; shown raw"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("claim list lacks %q:\n%s", want, out.String())
		}
	}
}
