package siwe

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

var (
	now    = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	wallet = common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
)

func sample(t *testing.T, statement string) *Message {
	t.Helper()
	m, err := New("portal.example.com", wallet, "https://portal.example.com", 31337, statement, now)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStringIsEIP4361(t *testing.T) {
	m := sample(t, "Sign in to the claim portal.")
	m.Nonce = "abcDEF0123456789"
	want := `portal.example.com wants you to sign in with your Ethereum account:
0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed

Sign in to the claim portal.

URI: https://portal.example.com
Version: 1
Chain ID: 31337
Nonce: abcDEF0123456789
Issued At: 2026-11-22T10:00:00.000Z
Expiration Time: 2026-11-22T10:10:00.000Z`
	if got := m.String(); got != want {
		t.Errorf("String:\n%s\nwant:\n%s", got, want)
	}
}

func TestNew(t *testing.T) {
	a, b := sample(t, ""), sample(t, "")
	if len(a.Nonce) != NonceLength || !isAlphanumeric(a.Nonce) {
		t.Errorf("nonce %q", a.Nonce)
	}
	if a.Nonce == b.Nonce {
		t.Error("two messages share a nonce")
	}
	if got := a.ExpirationTime.Sub(a.IssuedAt); got != Lifetime {
		t.Errorf("lifetime %v", got)
	}
	if _, err := New("evil.com\nURI: x", wallet, "https://x", 1, "", now); err == nil {
		t.Error("domain with a line break accepted")
	}
	if _, err := New("portal.example.com", wallet, "https://x", 1, "two\nlines", now); err == nil {
		t.Error("statement with a line break accepted")
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, statement := range []string{"", "Sign in to the claim portal."} {
		m := sample(t, statement)
		nb := now.Add(-time.Minute)
		m.NotBefore = &nb
		m.RequestID = "req-1"
		m.Resources = []string{"ipfs://bafy", "https://example.com/terms"}
		got, err := Parse(m.String())
		if err != nil {
			t.Fatalf("Parse(%q): %v", m.String(), err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
		}
		if got.String() != m.String() {
			t.Error("String of parsed message differs")
		}
	}
}

func TestParseRejects(t *testing.T) {
	good := sample(t, "").String()
	tests := map[string]string{
		"empty":                 "",
		"no header":             strings.Replace(good, " wants you to sign in", " wants you", 1),
		"lowercase address":     strings.Replace(good, wallet.Hex(), strings.ToLower(wallet.Hex()), 1),
		"bad checksum":          strings.Replace(good, "0x5aAeb", "0x5AAeb", 1),
		"not an address":        strings.Replace(good, wallet.Hex(), "0x1234", 1),
		"version 2":             strings.Replace(good, "Version: 1", "Version: 2", 1),
		"chain not a number":    strings.Replace(good, "Chain ID: 31337", "Chain ID: x", 1),
		"short nonce":           strings.Join(replaceLine(good, "Nonce: ", "Nonce: abc"), "\n"),
		"bad time":              strings.Replace(good, "Issued At: 2026", "Issued At: yesterday 2026", 1),
		"missing URI":           strings.Join(dropLine(good, "URI: "), "\n"),
		"trailing junk":         good + "\nExtra: field",
		"relative URI":          strings.Replace(good, "URI: https://portal.example.com", "URI: portal", 1),
		"too large":             good + "\nResources:\n- " + strings.Repeat("a", MaxMessageSize),
		"expires before issued": strings.Replace(good, "Expiration Time: 2026-11-22T10:10", "Expiration Time: 2026-11-22T09:10", 1),
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(text); err == nil {
				t.Errorf("Parse accepted:\n%s", text)
			}
		})
	}
}

func replaceLine(text, prefix, with string) []string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = with
		}
	}
	return lines
}

func dropLine(text, prefix string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestVerify(t *testing.T) {
	m := sample(t, "")
	other := common.HexToAddress("0x0000000000000000000000000000000000000001")
	tests := []struct {
		name   string
		domain string
		wallet common.Address
		chain  uint64
		at     time.Time
		want   error
	}{
		{"ok", "portal.example.com", wallet, 31337, now.Add(time.Minute), nil},
		{"domain case-insensitive", "PORTAL.example.com", wallet, 31337, now, nil},
		{"other domain", "evil.example.com", wallet, 31337, now, ErrDomain},
		{"other address", "portal.example.com", other, 31337, now, ErrAddress},
		{"other chain", "portal.example.com", wallet, 1, now, ErrChain},
		{"expired", "portal.example.com", wallet, 31337, now.Add(Lifetime), ErrExpired},
		{"issued in the future", "portal.example.com", wallet, 31337, now.Add(-ClockSkew - time.Second), ErrEarly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := m.Verify(tt.domain, tt.wallet, tt.chain, tt.at)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestRecoverSigner(t *testing.T) {
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	msg := sample(t, "").String()
	sig, err := crypto.Sign(TextHash(msg), key)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := RecoverSigner(msg, sig); err != nil || got != addr {
		t.Errorf("V 0/1: %s, %v", got, err)
	}
	sig[64] += 27
	if got, err := RecoverSigner(msg, sig); err != nil || got != addr {
		t.Errorf("V 27/28: %s, %v", got, err)
	}
	if got, _ := RecoverSigner(msg+" ", sig); got == addr {
		t.Error("signature recovered to the signer for another message")
	}
	sig[64] = 29
	if _, err := RecoverSigner(msg, sig); err == nil {
		t.Error("V 29 accepted")
	}
	if _, err := RecoverSigner(msg, sig[:64]); err == nil {
		t.Error("64-byte signature accepted")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`portal.example.com wants you to sign in with your Ethereum account:
0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed

URI: https://portal.example.com
Version: 1
Chain ID: 1
Nonce: abcdefgh12
Issued At: 2026-11-22T10:00:00.000Z
Resources:
- https://a`)
	f.Fuzz(func(t *testing.T, text string) {
		m, err := Parse(text)
		if err != nil {
			return
		}
		// A parsed message prints back to a text that parses the same.
		again, err := Parse(m.String())
		if err != nil {
			t.Fatalf("re-parse of %q: %v", m.String(), err)
		}
		if again.String() != m.String() {
			t.Fatalf("not stable:\n%q\n%q", m.String(), again.String())
		}
	})
}
