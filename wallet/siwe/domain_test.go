package siwe

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

func TestDomainOf(t *testing.T) {
	for uri, want := range map[string]string{
		"https://portal.example.com":         "portal.example.com",
		"https://Portal.Example.com:443/x":   "portal.example.com",
		"http://portal.example.com:80":       "portal.example.com",
		"https://portal.example.com:8443":    "portal.example.com:8443",
		"http://127.0.0.1:8787":              "127.0.0.1:8787",
		"https://user:secret@portal.example": "portal.example",
		"http://[::1]:8787/portal":           "[::1]:8787",
		"https://[::1]":                      "[::1]",
	} {
		if got, err := DomainOf(uri); err != nil || got != want {
			t.Errorf("DomainOf(%q) = %q, %v; want %q", uri, got, err, want)
		}
	}
	for _, uri := range []string{"", "portal.example.com", "ftp://portal.example.com", "https://", "%zz"} {
		if got, err := DomainOf(uri); err == nil {
			t.Errorf("DomainOf(%q) = %q, want an error", uri, got)
		}
	}
}

// TestCheckDestination: a message is signed only for where it is sent:
// its domain the portal URL's host, its URI the portal URL; the refusal
// names both.
func TestCheckDestination(t *testing.T) {
	const portal = "https://portal.example.com:8443/claims"
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	msg := func(domain, uri string) *Message {
		m, err := New(domain, common.HexToAddress("0x1"), uri, 1, "", now)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if err := msg("portal.example.com:8443", portal).CheckDestination(portal); err != nil {
		t.Errorf("a bound message: %v", err)
	}
	for _, tc := range []struct {
		name     string
		m        *Message
		want     error
		mustName []string
	}{
		{"another host", msg("evil.example", portal), ErrDomain, []string{`"evil.example"`, `"portal.example.com:8443"`, portal}},
		{"the host without its port", msg("portal.example.com", portal), ErrDomain, []string{`"portal.example.com"`, `"portal.example.com:8443"`}},
		{"another URI", msg("portal.example.com:8443", "https://evil.example/claims"), ErrURI, []string{`"https://evil.example/claims"`, portal}},
	} {
		err := tc.m.CheckDestination(portal)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			continue
		}
		for _, s := range tc.mustName {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not name %s", tc.name, err, s)
			}
		}
	}
}
