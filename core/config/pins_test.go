package config

import (
	"strings"
	"testing"

	"allot/wallet"

	"github.com/ethereum/go-ethereum/common"
)

func TestSigningPins(t *testing.T) {
	const vester = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	cfg, err := Parse([]byte(`
[profiles.prod]
base_url = "https://api.example.com"
max_native_fee = "0.002"
[profiles.prod.pins]
vesters = ["` + vester + `", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"]
staking = ["0xDBF03B407C01E7CD3CBEA99509D93F8DDDC8C6FB"]
[profiles.plain]
base_url = "https://api.example.com"
`))
	if err != nil {
		t.Fatal(err)
	}
	pins, err := cfg.Profiles["prod"].SigningPins()
	if err != nil || len(pins.Vesters) != 2 || pins.Vesters[0] != common.HexToAddress(vester) || len(pins.Staking) != 1 || pins.Tokens != nil ||
		pins.MaxNativeFee.String() != "2000000000000000" {
		t.Errorf("pins %+v, %v", pins, err)
	}
	plain, err := cfg.Profiles["plain"].SigningPins()
	if err != nil || plain.MaxNativeFee != nil || plain.Vesters != nil {
		t.Errorf("a profile without pins: %+v, %v; want none, and the default fee ceiling", plain, err)
	}

	for name, tc := range map[string]struct{ toml, want string }{
		"bad checksum": {`[profiles.p.pins]
tokens = ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"]`, "pins.tokens[0]: \"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD\" has a wrong EIP-55 checksum: " + vester},
		"not an address": {`[profiles.p.pins]
vesters = ["vester"]`, "pins.vesters[0]"},
		"fee with an exponent": {`[profiles.p]
max_native_fee = "1e-2"`, "max_native_fee"},
		"fee with 19 decimals": {`[profiles.p]
max_native_fee = "0.0000000000000000001"`, "max_native_fee"},
		"unknown pin": {`[profiles.p.pins]
pools = []`, "unknown keys: profiles.p.pins.pools"},
	} {
		t.Run(name, func(t *testing.T) {
			var toml string
			if !strings.Contains(tc.toml, "[profiles.p]") {
				toml = "[profiles.p]\nbase_url = \"https://api.example.com\"\n" + tc.toml
			} else {
				toml = tc.toml + "\nbase_url = \"https://api.example.com\"\n"
			}
			_, err := Parse([]byte(toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse: %v, want an error with %q", err, tc.want)
			}
		})
	}
	if wallet.DefaultMaxNativeFee.String() != "10000000000000000" {
		t.Errorf("the default max_native_fee is %s wei, want 0.01 ether", wallet.DefaultMaxNativeFee)
	}
}
