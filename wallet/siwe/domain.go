package siwe

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrURI: the message names another URI than the one it is sent to.
var ErrURI = errors.New("sign-in message is for another URI")

// defaultPorts are the ports a domain leaves out.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// DomainOf is the domain a sign-in message sent to uri must name
// (EIP-4361: the authority of the site asking): uri's host, and its port
// when it is not the scheme's default. uri must be an absolute http(s)
// URL; its user and password are never part of the domain.
func DomainOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", errors.New("the portal URL is not a URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", u.Redacted())
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" || port == defaultPorts[u.Scheme] {
		if strings.Contains(host, ":") {
			return "[" + host + "]", nil // an IPv6 address
		}
		return host, nil
	}
	return net.JoinHostPort(host, port), nil
}

// CheckDestination refuses m unless it is bound to uri, where it is to be
// sent: its domain must be DomainOf(uri) and its URI exactly uri. The
// error names both sides. It wraps ErrDomain or ErrURI.
func (m *Message) CheckDestination(uri string) error {
	domain, err := DomainOf(uri)
	if err != nil {
		return err
	}
	if !strings.EqualFold(m.Domain, domain) {
		return fmt.Errorf("%w: it names %q, and is to be sent to %q, whose domain is %q", ErrDomain, m.Domain, uri, domain)
	}
	if m.URI != uri {
		return fmt.Errorf("%w: it names %q, and is to be sent to %q", ErrURI, m.URI, uri)
	}
	return nil
}
