package session

import (
	"context"
	"os"
	"strings"
	"testing"

	"allot/core/config"

	"github.com/ethereum/go-ethereum/common"
)

func TestInsecureURLs(t *testing.T) {
	tests := []struct {
		name    string
		profile config.Profile
		want    []string
	}{
		{"https everywhere", config.Profile{Name: "p", BaseURL: "https://svc.example", PortalURL: "https://portal.example", RPCURL: "https://rpc.example"}, nil},
		{"loopback", config.Profile{Name: "p", BaseURL: "http://127.0.0.1:8080", PortalURL: "http://localhost:3000", RPCURL: "http://[::1]:8545"}, nil},
		{"plain base, same portal", config.Profile{Name: "p", BaseURL: "http://user:hunter2@svc.example/x", PortalURL: "http://user:hunter2@svc.example/x"},
			[]string{`profile "p": base_url and portal_url are http:// to svc.example: the API key and the portal access token travel in clear; use https://`}},
		{"each", config.Profile{Name: "p", BaseURL: "http://svc.example", PortalURL: "HTTP://portal.example", RPCURL: "http://10.0.0.5:8545/KEY"},
			[]string{
				`profile "p": base_url is http:// to svc.example: the API key travels in clear; use https://`,
				`profile "p": portal_url is http:// to portal.example: the portal access token travels in clear; use https://`,
				`profile "p": rpc_url is http:// to 10.0.0.5: every signed transaction travels in clear; use https://`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := InsecureURLs(tt.profile)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestOpenWarnsOfPlainHTTP: opening a profile whose URLs are plain http://
// to another host gives the warning through Notice, the path every
// configuration warning takes (stderr for a command, the status line for
// the dashboard), once.
func TestOpenWarnsOfPlainHTTP(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path := writeConfig(t, `[profiles.remote]
base_url = "http://svc.example"
api_key_env = "TEST_KEY"
tokens = ["db51faa7-2858-5523-b01a-79ecc813ed11"]
`)
	var notices []string
	s, err := Open(context.Background(), Options{ConfigPath: path, Getenv: func(k string) string {
		if k == "TEST_KEY" {
			return "k-123"
		}
		return os.Getenv(k)
	}, Notice: func(n string) { notices = append(notices, n) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(notices) != 1 || !strings.HasPrefix(notices[0], `warning: profile "remote": base_url and portal_url are http:// to svc.example`) {
		t.Errorf("notices %q", notices)
	}
}

// TestSignInMessageHasNoURLPassword: a password in portal_url (or in
// base_url, its default) is not in the sign-in message, which is shown,
// signed, sent and journaled.
func TestSignInMessageHasNoURLPassword(t *testing.T) {
	s := &Session{Name: "p", Profile: config.Profile{PortalURL: "https://ops:hunter2@portal.example/app", SigninDomain: "portal.example", ChainID: 1}}
	portal, err := s.Portal()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := portal.Prepare(common.HexToAddress("0x00000000000000000000000000000000000000aa"))
	if err != nil {
		t.Fatal(err)
	}
	if text := msg.String(); strings.Contains(text, "hunter2") || strings.Contains(text, "ops") || !strings.Contains(text, "URI: https://portal.example/app") {
		t.Errorf("message:\n%s", text)
	}
}
