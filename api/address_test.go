package api

import (
	"strings"
	"testing"
)

// TestCheckAddressChecksum: all lower or all upper case is taken as typed;
// mixed case must be the EIP-55 checksum, and a wrong one is refused with
// the right spelling shown.
func TestCheckAddressChecksum(t *testing.T) {
	const good = "0x52908400098527886E0F7030069857D2E4169EE7" // EIP-55's own example
	for _, v := range []string{good, strings.ToLower(good), "0x" + strings.ToUpper(good[2:]), "0xde709f2102306220921060314715629080e2fb77"} {
		if err := CheckAddress("wallet", v); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
	bad := "0x52908400098527886E0F7030069857D2E4169Ee7" // one letter's case changed
	err := CheckAddress("--sender", bad)
	if err == nil || !strings.Contains(err.Error(), "checksum") || !strings.Contains(err.Error(), good) || !strings.Contains(err.Error(), "--sender") {
		t.Errorf("%s: %v", bad, err)
	}
	if err := (ClaimRequest{Sender: bad}).Validate("3f1a2b4c-0000-4000-8000-000000000004"); err == nil {
		t.Error("a claim's sender with a wrong checksum passed")
	}
	if err := (StakesRequest{StakingPoolID: "3f1a2b4c-0000-4000-8000-000000000004", WalletAddress: bad}).Validate(); err == nil {
		t.Error("a stakes filter with a wrong checksum passed")
	}
}
