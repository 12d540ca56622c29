package keystore

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
)

// What a keystore file may ask of us before we decrypt it. The bounds are
// the costs real tools write, with headroom, and no more: geth's standard
// scrypt (n = 2^18, r = 8, p = 1: 256 MiB and about a second) and light one
// (n = 2^12, p = 6), foundry's `cast wallet new` (n = 2^13, r = 8, p = 1),
// and the pbkdf2 files of web3 wallets (c = 262,144). A file asking for
// more is refused, never tried: scrypt cannot be interrupted, and its
// memory is taken at once.
const (
	MaxFileSize = 64 << 10
	// MaxScryptMemory bounds scrypt's 128*n*r bytes: twice geth's standard.
	MaxScryptMemory = 2 * 128 * gethkeystore.StandardScryptN * scryptR
	// MaxScryptWork bounds scrypt's time, which grows as n*r*p: twice
	// geth's standard.
	MaxScryptWork = 2 * gethkeystore.StandardScryptN * scryptR * gethkeystore.StandardScryptP
	// MaxPBKDF2C is four times the rounds web3 wallets write; geth and
	// foundry write scrypt only.
	MaxPBKDF2C = 1 << 20

	scryptR      = 8 // every tool writes 8
	keyLength    = 32
	maxHexLength = 1024
	// maxMembers bounds the members of one object: a keystore's have at
	// most six, and the duplicate check compares every pair.
	maxMembers = 32
)

// ErrMalformed is wrapped by every pre-check failure.
var ErrMalformed = errors.New("malformed keystore file")

// keyFile is a keystore file as checked: the address it names, if any, and
// the encrypted key with its parameters, which are all that decryption is
// given. go-ethereum never sees the file's JSON, so a key it would read
// differently (another case, a second copy) cannot slip past the bounds.
type keyFile struct {
	address common.Address
	named   bool // the file names an address: geth's layout; foundry's omits it
	crypto  gethkeystore.CryptoJSON
}

// precheck decodes a V3 keystore file with exact key matching, refuses
// ambiguous files (a key twice, or in two spellings that differ only in
// case, in any object decryption reads), checks every field's type and
// bounds the key derivation's cost.
func precheck(data []byte) (keyFile, error) {
	kf, err := check(data)
	if err != nil {
		return keyFile{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return kf, nil
}

func check(data []byte) (keyFile, error) {
	var kf keyFile
	if len(data) > MaxFileSize {
		return kf, fmt.Errorf("%d bytes, more than a keystore file can be (%d)", len(data), MaxFileSize)
	}
	top, err := object(data, "the file")
	if err != nil {
		return kf, err
	}
	if v, err := integer(top, "version"); err != nil || v != 3 {
		return kf, errors.New("version must be the number 3")
	}
	if raw, ok := top["address"]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return kf, errors.New("address must be a string")
		}
		b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(s), "0x"))
		if err != nil || len(b) != common.AddressLength {
			return kf, errors.New("address is not 40 hex digits")
		}
		kf.address, kf.named = common.BytesToAddress(b), true
	}
	// Old geth and MyEtherWallet wrote "Crypto"; both at once is refused
	// by object.
	raw, ok := top["crypto"]
	if !ok {
		raw, ok = top["Crypto"]
	}
	if !ok {
		return kf, errors.New("no crypto section")
	}
	c, err := object(raw, "crypto")
	if err != nil {
		return kf, err
	}
	cj := &kf.crypto
	if cj.Cipher, err = text(c, "cipher"); err != nil {
		return kf, err
	}
	if cj.Cipher != "aes-128-ctr" {
		return kf, fmt.Errorf("cipher %q is not aes-128-ctr", shorten(cj.Cipher))
	}
	if cj.CipherText, err = hexText(c, "ciphertext", keyLength, keyLength); err != nil {
		return kf, err
	}
	if cj.MAC, err = hexText(c, "mac", 32, 32); err != nil {
		return kf, err
	}
	params, ok := c["cipherparams"]
	if !ok {
		return kf, errors.New("no cipherparams")
	}
	cp, err := object(params, "cipherparams")
	if err != nil {
		return kf, err
	}
	if cj.CipherParams.IV, err = hexText(cp, "iv", 16, 16); err != nil {
		return kf, err
	}
	if cj.KDF, err = text(c, "kdf"); err != nil {
		return kf, err
	}
	raw, ok = c["kdfparams"]
	if !ok {
		return kf, errors.New("no kdfparams")
	}
	kp, err := object(raw, "kdfparams")
	if err != nil {
		return kf, err
	}
	cj.KDFParams, err = kdfParams(cj.KDF, kp)
	return kf, err
}

// kdfParams checks the key derivation's parameters and returns them as
// go-ethereum's decryption reads them.
func kdfParams(kdf string, kp map[string]json.RawMessage) (map[string]any, error) {
	dklen, err := integer(kp, "dklen")
	if err != nil {
		return nil, err
	}
	if dklen != keyLength {
		return nil, fmt.Errorf("dklen = %d: must be 32", dklen)
	}
	salt, err := hexText(kp, "salt", 1, maxHexLength)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"dklen": keyLength, "salt": salt}
	switch kdf {
	case "scrypt":
		var v [3]int64
		for i, k := range []string{"n", "r", "p"} {
			if v[i], err = integer(kp, k); err != nil {
				return nil, err
			}
		}
		n, r, p := v[0], v[1], v[2]
		switch {
		case n < 2 || n&(n-1) != 0:
			return nil, fmt.Errorf("scrypt n = %d: must be a power of two", n)
		case r != scryptR:
			return nil, fmt.Errorf("scrypt r = %d: must be %d", r, scryptR)
		case p < 1:
			return nil, fmt.Errorf("scrypt p = %d: must be at least 1", p)
		case n > MaxScryptMemory/(128*r):
			return nil, fmt.Errorf("scrypt n = %d needs %d MiB, more than the %d MiB allot allows", n, 128*n*r>>20, MaxScryptMemory>>20)
		case p > MaxScryptWork/(n*r):
			return nil, fmt.Errorf("scrypt n = %d, p = %d costs %d times geth's standard, more than allot allows (2)",
				n, p, n*r*p/(gethkeystore.StandardScryptN*scryptR))
		}
		out["n"], out["r"], out["p"] = int(n), int(r), int(p)
	case "pbkdf2":
		c, err := integer(kp, "c")
		if err != nil {
			return nil, err
		}
		if c < 1 || c > MaxPBKDF2C {
			return nil, fmt.Errorf("pbkdf2 c = %d: must be from 1 to %d", c, MaxPBKDF2C)
		}
		prf, err := text(kp, "prf")
		if err != nil {
			return nil, err
		}
		if prf != "hmac-sha256" {
			return nil, fmt.Errorf("pbkdf2 prf %q: must be hmac-sha256", shorten(prf))
		}
		out["c"], out["prf"] = int(c), prf
	default:
		return nil, fmt.Errorf("kdf %q is not scrypt or pbkdf2", shorten(kdf))
	}
	return out, nil
}

// object reads a JSON object's members. A key that appears twice, or in two
// spellings equal but for case, is refused: go-ethereum matches struct keys
// without regard to case and keeps the last, so such a file would say one
// thing to this check and another to a decoder.
func object(raw []byte, what string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s is not a JSON object", what)
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, shorten(err.Error()))
		}
		key, _ := tok.(string) // a member always starts with its key
		if len(m) == maxMembers {
			return nil, fmt.Errorf("%s has more than %d members", what, maxMembers)
		}
		for k := range m {
			if strings.EqualFold(k, key) {
				return nil, fmt.Errorf("%s has the key %q twice (as %q and %q)", what, shorten(key), shorten(k), shorten(key))
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %v", what, shorten(err.Error()))
		}
		m[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %v", what, shorten(err.Error()))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the object", what)
	}
	return m, nil
}

// integer reads m[key] as a JSON integer (no fraction, no exponent).
func integer(m map[string]json.RawMessage, key string) (int64, error) {
	raw, ok := m[key]
	if !ok {
		return 0, fmt.Errorf("no %s", key)
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer", key)
	}
	return n, nil
}

// text reads m[key] as a JSON string.
func text(m map[string]json.RawMessage, key string) (string, error) {
	raw, ok := m[key]
	if !ok {
		return "", fmt.Errorf("no %s", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s must be a string", key)
	}
	return s, nil
}

// hexText reads m[key] as a string of hex digits encoding minBytes to
// maxBytes bytes.
func hexText(m map[string]json.RawMessage, key string, minBytes, maxBytes int) (string, error) {
	s, err := text(m, key)
	if err != nil {
		return "", err
	}
	b, err := hex.DecodeString(s)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s is not hex", key)
	case len(b) < minBytes || len(b) > maxBytes:
		if minBytes == maxBytes {
			return "", fmt.Errorf("%s is %d bytes, want %d", key, len(b), minBytes)
		}
		return "", fmt.Errorf("%s is %d bytes, want %d to %d", key, len(b), minBytes, maxBytes)
	}
	return s, nil
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
