package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/internal/isotime"
	"allot/wallet/siwe"
)

func TestSigninPrintsExpirationNotToken(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[0]
	pass := map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}

	r := runCLI(t, s, pass, "signin", "--account", w.Address, "-o", "json")
	if r.code != 0 {
		t.Fatalf("signin: exit %d\n%s", r.code, r.stderr)
	}
	var out struct {
		Wallet     string `json:"wallet"`
		Expiration string `json:"expiration"`
	}
	decodeJSON(t, r, &out) // an accessToken field would fail: unknown field
	if out.Wallet != w.Address {
		t.Errorf("wallet %q, want %q", out.Wallet, w.Address)
	}
	expires, err := time.Parse(isotime.Layout, out.Expiration)
	if err != nil || !expires.After(time.Now()) {
		t.Errorf("expiration %q: want a future time in the format of docs/deployment.md D15 (%v)", out.Expiration, err)
	}

	// The exact message was shown before it was signed, and journaled.
	start := strings.Index(r.stderr, "-----\n")
	end := strings.LastIndex(r.stderr, "\n-----")
	if start < 0 || end <= start {
		t.Fatalf("stderr does not show the sign-in message:\n%s", r.stderr)
	}
	shown := r.stderr[start+len("-----\n") : end]
	msg, err := siwe.Parse(shown)
	if err != nil {
		t.Fatalf("the message shown does not parse: %v\n%s", err, shown)
	}
	if msg.Address.Hex() != w.Address || msg.Domain != s.Profile.SigninDomain || msg.ChainID != s.Profile.ChainID {
		t.Errorf("message names %s, %s, chain %d; want the account and the profile's domain and chain", msg.Address.Hex(), msg.Domain, msg.ChainID)
	}
	sigs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "signin")
	if len(sigs) != 1 {
		t.Fatalf("%d signature entries in the journal, want 1", len(sigs))
	}
	var record struct{ Address, Message string }
	if err := json.Unmarshal(sigs[0].Data, &record); err != nil {
		t.Fatal(err)
	}
	if record.Message != shown || record.Address != w.Address {
		t.Errorf("journal recorded %+v, want the message shown and the address", record)
	}
}

func TestSigninShowToken(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[1]
	r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "signin", "--account", w.Address, "--show-token")
	if r.code != 0 {
		t.Fatalf("signin: exit %d\n%s", r.code, r.stderr)
	}
	var token string
	for _, line := range strings.Split(r.stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "access token:"); ok {
			token = strings.TrimSpace(v)
		}
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		t.Fatalf("no access token in the output (%v):\n%s", err, r.stdout)
	}
	if sub, _ := claims.GetSubject(); !strings.EqualFold(sub, w.Address) {
		t.Errorf("token subject %q, want %s", sub, w.Address)
	}
	// Asked for, the token is printed once; it never reaches the journal
	// or stderr.
	if strings.Contains(r.stderr, token) {
		t.Error("the token is on stderr")
	}
	data, err := os.ReadFile(filepath.Join(s.StateDir, journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) {
		t.Error("the token is in the journal")
	}
}

func TestSigninRefusals(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[0]
	passFile := filepath.Join(t.TempDir(), "pass")
	if err := os.WriteFile(passFile, []byte(w.Passphrase+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		environ map[string]string
		args    []string
		code    int
		want    string
	}{
		{"wrong passphrase", map[string]string{"ALLOT_PASSPHRASE": "not it"}, []string{"--account", w.Address}, 1, "wrong passphrase"},
		{"no passphrase and no terminal", nil, []string{"--account", w.Address}, 1, "no passphrase"},
		{"account not in the keystore", map[string]string{"ALLOT_PASSPHRASE": "x"}, []string{"--account", "0x000000000000000000000000000000000000dEaD"}, 1, "no such account"},
		{"no account", nil, nil, 2, "--account ADDR is required"},
		{"not an address", nil, []string{"--account", "0x12"}, 2, "not an address"},
		{"passphrase file", nil, []string{"--account", w.Address, "--passphrase-file", passFile}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, s, tc.environ, append([]string{"signin"}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", r.code, tc.code, tc.want, r.stderr)
			}
		})
	}
	// Nothing was signed but the one sign-in that went through.
	if n := len(journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindSignature, "signin")); n != 1 {
		t.Errorf("%d signatures journaled, want 1", n)
	}
}

func TestSubmissionListsAccounts(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[0]
	r := runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "submission", "--account", w.Address, "-o", "json")
	if r.code != 0 {
		t.Fatalf("submission: exit %d\n%s", r.code, r.stderr)
	}
	var out struct {
		ClaimWallet *string `json:"claimWallet"`
		Submitted   bool    `json:"submitted"`
		PohPassed   bool    `json:"pohPassed"`
		Accounts    []struct {
			Value       string  `json:"value"`
			Type        string  `json:"type"`
			IsEligible  bool    `json:"isEligible"`
			Description *string `json:"description"`
		} `json:"accounts"`
	}
	decodeJSON(t, r, &out)
	if !out.Submitted || !out.PohPassed || len(out.Accounts) == 0 || out.Accounts[0].Value != w.Address || !out.Accounts[0].IsEligible {
		t.Errorf("submission of %s: %+v", w.Address, out)
	}

	// A wallet that never submitted signs in and gets an empty submission.
	never := s.Fixtures.Wallets[2]
	r = runCLI(t, s, map[string]string{"ALLOT_PASSPHRASE": never.Passphrase}, "submission", "--account", never.Address)
	if r.code != 0 || !strings.Contains(r.stdout, "submitted:") {
		t.Errorf("submission of a wallet that never submitted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
