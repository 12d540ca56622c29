package session

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"allot/core/config"
	"allot/internal/sanitize"
)

// InsecureURLs returns a warning for each of the profile's URLs that is
// plain http:// to a host other than loopback: what goes there (the API
// key, the portal token, signed transactions, a key in an RPC URL) can be
// read and changed on the way. Loopback stays quiet: a local node or a
// tunnel's end is no one else's network.
func InsecureURLs(p config.Profile) []string {
	// One warning per URL: portal_url is base_url unless set.
	type target struct{ keys, carries []string }
	var order []string
	targets := map[string]*target{}
	add := func(key, raw, carries string) {
		if raw == "" {
			return
		}
		t, ok := targets[raw]
		if !ok {
			t = &target{}
			targets[raw] = t
			order = append(order, raw)
		}
		t.keys = append(t.keys, key)
		t.carries = append(t.carries, carries)
	}
	add("base_url", p.BaseURL, "the API key")
	add("portal_url", p.PortalURL, "the portal access token")
	add("rpc_url", p.RPCURL, "every signed transaction")
	var warnings []string
	for _, raw := range order {
		u, err := url.Parse(raw)
		if err != nil || !strings.EqualFold(u.Scheme, "http") || isLoopback(u.Hostname()) {
			continue
		}
		t := targets[raw]
		is, travels := "is", "travels"
		if len(t.keys) > 1 {
			is, travels = "are", "travel"
		}
		warnings = append(warnings, fmt.Sprintf("profile %q: %s %s http:// to %s: %s %s in clear; use https://",
			p.Name, strings.Join(t.keys, " and "), is, sanitize.Truncate(u.Hostname(), 80), strings.Join(t.carries, " and "), travels))
	}
	return warnings
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	host = strings.ToLower(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
