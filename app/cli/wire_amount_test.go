package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAmountsGoOutDigitForDigit: every command that sends an amount sends
// it as the service takes it (docs/deployment.md D7: a JSON number), with the digits typed,
// never rounded through float64 nor written with an exponent: 38 integer
// digits and 18 decimals, from a flag or from a --body file (where an
// exponent is written out in full).
func TestAmountsGoOutDigitForDigit(t *testing.T) {
	t.Parallel()
	const digits = "12345678901234567890123456789012345678.123456789012345678"
	s := sandboxSession(t)
	fx := s.Fixtures
	body := filepath.Join(t.TempDir(), "fund.json")
	if err := os.WriteFile(body, []byte(`{"tokenId":"`+fx.TokenIDs[0]+`","data":[{"allocationId":"`+fx.AllocationIDs[1]+`","amount":1.2345678901234567890123456789012345678e37}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		op   string
		want string
	}{
		{[]string{"tx", "fund", "--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=" + digits}, "/transactions/create", `"amount":` + digits + `}`},
		{[]string{"tx", "fund", "--body", body}, "/transactions/create", `"amount":12345678901234567890123456789012345678}`},
		{[]string{"claim", fx.AllocationIDs[0], "--sender", fx.Wallets[0].Address, "--amount", digits}, "/claim", `"amount":` + digits + `}`},
	} {
		before := len(s.Requests.All())
		// A claim of more than is claimable is refused before it is sent
		// where the chain can be read: without it, the body goes out.
		chain := s.Chain
		if c.args[0] == "claim" {
			s.Chain = nil
		}
		r := runCLI(t, s, nil, c.args...)
		s.Chain = chain
		var sent []string
		for _, x := range s.Requests.All()[before:] {
			if strings.HasSuffix(x.URL, c.op) && x.Method == "POST" {
				sent = append(sent, string(x.RequestBody))
			}
		}
		if len(sent) != 1 || !strings.Contains(sent[0], c.want) {
			t.Errorf("%s: sent %q (exit %d, stderr %s), want one body holding %s", strings.Join(c.args[:2], " "), sent, r.code, r.stderr, c.want)
		}
	}
}
