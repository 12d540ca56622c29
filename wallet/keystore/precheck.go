package keystore

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Bounds on what a keystore file may ask of us before we decrypt it. geth's
// StandardScryptN is 2^18; 2^20 already takes a second and a gigabyte.
const (
	MaxFileSize  = 64 << 10
	MaxScryptN   = 1 << 20
	MaxScryptP   = 16
	MaxPBKDF2C   = 10_000_000
	keyLength    = 32
	maxHexLength = 1024
)

// ErrMalformed is wrapped by every pre-check failure.
var ErrMalformed = errors.New("malformed keystore file")

// fileJSON is the V3 layout, with every field raw so that its type can be
// checked instead of trusted.
type fileJSON struct {
	Address json.RawMessage `json:"address"`
	Crypto  json.RawMessage `json:"crypto"`
	// Some writers (old geth, MyEtherWallet) use "Crypto".
	CryptoUpper json.RawMessage `json:"Crypto"`
	ID          json.RawMessage `json:"id"`
	Version     json.RawMessage `json:"version"`
}

type cryptoJSON struct {
	Cipher       string              `json:"cipher"`
	CipherText   string              `json:"ciphertext"`
	CipherParams struct{ IV string } `json:"cipherparams"`
	KDF          string              `json:"kdf"`
	KDFParams    json.RawMessage     `json:"kdfparams"`
	MAC          string              `json:"mac"`
}

type scryptParams struct {
	N     *int    `json:"n"`
	R     *int    `json:"r"`
	P     *int    `json:"p"`
	DKLen *int    `json:"dklen"`
	Salt  *string `json:"salt"`
}

type pbkdf2Params struct {
	C     *int    `json:"c"`
	DKLen *int    `json:"dklen"`
	PRF   *string `json:"prf"`
	Salt  *string `json:"salt"`
}

// precheck validates a keystore file's structure and bounds its KDF before
// go-ethereum's decoder sees it: that decoder trusts the file's types and
// parameters, and panics or allocates without bound on some files.
// It returns the address the file claims, which is not yet proven.
func precheck(data []byte) (string, error) {
	fail := func(format string, a ...any) (string, error) {
		return "", fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, a...))
	}
	if len(data) > MaxFileSize {
		return fail("%d bytes, more than a keystore file can be (%d)", len(data), MaxFileSize)
	}
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return fail("not JSON: %v", shorten(err.Error()))
	}
	var version int
	if err := json.Unmarshal(f.Version, &version); err != nil || version != 3 {
		return fail("version must be the number 3")
	}
	var address string
	if err := json.Unmarshal(f.Address, &address); err != nil {
		return fail("address must be a string")
	}
	address = strings.TrimPrefix(strings.ToLower(address), "0x")
	if b, err := hex.DecodeString(address); err != nil || len(b) != 20 {
		return fail("address is not 40 hex digits")
	}
	raw := f.Crypto
	if len(raw) == 0 {
		raw = f.CryptoUpper
	}
	var c cryptoJSON
	if len(raw) == 0 {
		return fail("no crypto section")
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return fail("crypto section: %v", shorten(err.Error()))
	}
	if c.Cipher != "aes-128-ctr" {
		return fail("cipher %q is not aes-128-ctr", shorten(c.Cipher))
	}
	if err := hexField("cipherparams.iv", c.CipherParams.IV, 16, 16); err != nil {
		return fail("%v", err)
	}
	if err := hexField("ciphertext", c.CipherText, 1, maxHexLength); err != nil {
		return fail("%v", err)
	}
	if err := hexField("mac", c.MAC, 32, 32); err != nil {
		return fail("%v", err)
	}
	if len(c.KDFParams) == 0 || c.KDFParams[0] != '{' {
		return fail("kdfparams must be an object")
	}
	switch c.KDF {
	case "scrypt":
		var p scryptParams
		if err := json.Unmarshal(c.KDFParams, &p); err != nil {
			return fail("kdfparams: %v", shorten(err.Error()))
		}
		switch {
		case p.N == nil || p.R == nil || p.P == nil || p.DKLen == nil || p.Salt == nil:
			return fail("scrypt kdfparams need n, r, p, dklen and salt")
		case *p.N < 2 || *p.N > MaxScryptN || *p.N&(*p.N-1) != 0:
			return fail("scrypt n = %d: must be a power of two from 2 to 2^20", *p.N)
		case *p.R != 8:
			return fail("scrypt r = %d: must be 8", *p.R)
		case *p.P < 1 || *p.P > MaxScryptP:
			return fail("scrypt p = %d: must be from 1 to %d", *p.P, MaxScryptP)
		case *p.DKLen != keyLength:
			return fail("dklen = %d: must be 32", *p.DKLen)
		}
		if err := hexField("salt", *p.Salt, 1, maxHexLength); err != nil {
			return fail("%v", err)
		}
	case "pbkdf2":
		var p pbkdf2Params
		if err := json.Unmarshal(c.KDFParams, &p); err != nil {
			return fail("kdfparams: %v", shorten(err.Error()))
		}
		switch {
		case p.C == nil || p.DKLen == nil || p.PRF == nil || p.Salt == nil:
			return fail("pbkdf2 kdfparams need c, dklen, prf and salt")
		case *p.C < 1 || *p.C > MaxPBKDF2C:
			return fail("pbkdf2 c = %d: must be from 1 to %d", *p.C, MaxPBKDF2C)
		case *p.PRF != "hmac-sha256":
			return fail("pbkdf2 prf %q: must be hmac-sha256", shorten(*p.PRF))
		case *p.DKLen != keyLength:
			return fail("dklen = %d: must be 32", *p.DKLen)
		}
		if err := hexField("salt", *p.Salt, 1, maxHexLength); err != nil {
			return fail("%v", err)
		}
	default:
		return fail("kdf %q is not scrypt or pbkdf2", shorten(c.KDF))
	}
	return address, nil
}

func hexField(name, v string, minBytes, maxBytes int) error {
	b, err := hex.DecodeString(v)
	switch {
	case err != nil:
		return fmt.Errorf("%s is not hex", name)
	case len(b) < minBytes || len(b) > maxBytes:
		if minBytes == maxBytes {
			return fmt.Errorf("%s is %d bytes, want %d", name, len(b), minBytes)
		}
		return fmt.Errorf("%s is %d bytes, want %d to %d", name, len(b), minBytes, maxBytes)
	}
	return nil
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
