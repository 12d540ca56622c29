package api

import (
	"strings"
	"testing"
)

// TestCountryCode: only codes ISO 3166-1 assigns pass, upper-cased; the
// error names the value as typed (--country Germany was "GERMANY").
func TestCountryCode(t *testing.T) {
	for typed, want := range map[string]string{"DE": "DE", "de": "DE", " fr ": "FR", "GB": "GB"} {
		if got, err := CountryCode("userCountryCode", typed); err != nil || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", typed, got, err, want)
		}
	}
	for _, typed := range []string{"ZZ", "zz", "UK", "EU", "XX", "Germany", "D", "DEU", "1A"} {
		_, err := CountryCode("userCountryCode", typed)
		if err == nil || !strings.Contains(err.Error(), `"`+typed+`"`) {
			t.Errorf("CountryCode(%q): %v, want an error naming %q", typed, err, typed)
		}
	}
	if len(countries) != 249 {
		t.Errorf("%d codes, want ISO 3166-1's 249", len(countries))
	}
}

// TestClaimRefusesUnassignedCountry: a claim naming a code ISO 3166-1
// does not assign (ZZ) is refused before it is sent, as the service would.
func TestClaimRefusesUnassignedCountry(t *testing.T) {
	req := ClaimRequest{Sender: "0x52908400098527886E0F7030069857D2E4169EE7", UserCountryCode: "ZZ"}
	err := req.Validate("3f1a2b4c-0000-4000-8000-000000000001")
	if err == nil || !strings.Contains(err.Error(), "userCountryCode") {
		t.Errorf("a claim from ZZ: %v", err)
	}
	req.UserCountryCode = "DE"
	if err := req.Validate("3f1a2b4c-0000-4000-8000-000000000001"); err != nil {
		t.Errorf("a claim from DE: %v", err)
	}
}
