package config

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
)

// TestPinAProxy: pinning a proxy records its implementation and that
// implementation's code hash in two tables keyed by the proxy, which the
// signing policy reads back; pinning it again as no proxy, or unpinning
// it, takes them out; a half-recorded implementation is an error.
func TestPinAProxy(t *testing.T) {
	const src = "[profiles.prod]\nbase_url = \"https://api.example.com\"\n"
	impl := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	edit := PinEdit{Profile: "prod", Kind: wallet.PinStaking, Address: pinA, CodeHash: hashOne, Implementation: impl, ImplementationHash: hashTwo}
	pinned, err := EditPins([]byte(src), edit)
	if err != nil {
		t.Fatal(err)
	}
	want := src + "\n[profiles.prod.pins]\nstaking = [\"" + pinA.Hex() + "\"]\n" +
		"\n[profiles.prod.pins.code_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashOne.Hex() + "\"\n" +
		"\n[profiles.prod.pins.implementations]\n\"" + pinA.Hex() + "\" = \"" + impl.Hex() + "\"\n" +
		"\n[profiles.prod.pins.implementation_hashes]\n\"" + pinA.Hex() + "\" = \"" + hashTwo.Hex() + "\"\n"
	if string(pinned) != want {
		t.Fatalf("pinned:\n%s\nwant:\n%s", pinned, want)
	}
	cfg, err := Parse(pinned)
	if err != nil {
		t.Fatal(err)
	}
	signing, err := cfg.Profiles["prod"].Pins.Signing()
	if err != nil {
		t.Fatal(err)
	}
	if got := signing.Implementations[pinA]; got != (wallet.Proxy{Implementation: impl, CodeHash: hashTwo}) {
		t.Errorf("the policy reads implementation %+v; want %s with %s", got, impl.Hex(), hashTwo.Hex())
	}

	for name, e := range map[string]PinEdit{
		"pinned again as no proxy": {Profile: "prod", Kind: wallet.PinStaking, Address: pinA, CodeHash: hashOne},
		"unpinned":                 {Profile: "prod", Kind: wallet.PinStaking, Address: pinA, Remove: true},
	} {
		out, err := EditPins(pinned, e)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg, err := Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		if p := cfg.Profiles["prod"].Pins; len(p.Implementations)+len(p.ImplementationHashes) != 0 {
			t.Errorf("%s: the implementation stays:\n%s", name, out)
		}
	}

	half := Pins{Staking: []string{pinA.Hex()}, Implementations: map[string]string{pinA.Hex(): impl.Hex()}}
	if _, err := half.Signing(); err == nil {
		t.Error("an implementation without its code hash was read")
	}
}
