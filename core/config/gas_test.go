package config

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"allot/wallet"
)

// TestSigninDomainMustBeThePortalHost: a profile whose signin_domain is
// not the host of its portal_url is a configuration error at load, that
// names both and the fix; one that matches, or leaves it out, loads.
func TestSigninDomainMustBeThePortalHost(t *testing.T) {
	profile := func(portal, domain string) string {
		s := "[profiles.a]\nbase_url = \"https://api.example.com\"\nportal_url = \"" + portal + "\"\n"
		if domain != "" {
			s += "signin_domain = \"" + domain + "\"\n"
		}
		return s
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(profile("https://portal.example.com", "evil.example")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	for _, want := range []string{`profile "a"`, `signin_domain "evil.example" is not the host of portal_url, "portal.example.com"`, `set signin_domain = "portal.example.com" or leave it out`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load: %v; want it to say %q", err, want)
		}
	}
	for _, tc := range []struct{ portal, domain, want string }{
		{"https://portal.example.com", "", "portal.example.com"},
		{"https://portal.example.com:443/claims", "", "portal.example.com"},
		{"https://portal.example.com", "Portal.Example.com", "Portal.Example.com"},
		{"http://127.0.0.1:8787", "127.0.0.1:8787", "127.0.0.1:8787"},
	} {
		cfg, err := Parse([]byte(profile(tc.portal, tc.domain)))
		if err != nil {
			t.Errorf("portal %s, signin_domain %q: %v", tc.portal, tc.domain, err)
			continue
		}
		if got := cfg.Profiles["a"].SigninDomain; got != tc.want {
			t.Errorf("portal %s, signin_domain %q: the domain is %q, want %q", tc.portal, tc.domain, got, tc.want)
		}
	}
	if _, err := Parse([]byte(profile("http://127.0.0.1:8787", "127.0.0.1"))); err == nil || !strings.Contains(err.Error(), `not the host of portal_url, "127.0.0.1:8787"`) {
		t.Errorf("a domain without the portal's port: %v", err)
	}
}

func TestMaxGasFee(t *testing.T) {
	p := Profile{}
	if got, err := p.GasCeiling(); err != nil || got.Cmp(wallet.DefaultMaxGasFee) != 0 {
		t.Errorf("default: %s, %v; want %s", got, err, wallet.DefaultMaxGasFee)
	}
	p.MaxGasFee = "0.002"
	if got, err := p.GasCeiling(); err != nil || got.Cmp(big.NewInt(2_000_000_000_000_000)) != 0 {
		t.Errorf("0.002: %s, %v", got, err)
	}
	_, err := Parse([]byte("[profiles.a]\nbase_url = \"https://a.example\"\nmax_gas_fee = \"lots\"\n"))
	if err == nil || !strings.Contains(err.Error(), `max_gas_fee: invalid amount: "lots" is not a decimal amount (ether, e.g. "0.05")`) {
		t.Errorf("a bad max_gas_fee: %v", err)
	}
}
