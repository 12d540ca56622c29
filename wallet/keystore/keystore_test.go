package keystore

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"math/big"

	"allot/wallet/siwe"
)

const pass = "correct horse"

// lightFile returns a valid light-scrypt keystore file and its address.
func lightFile(t testing.TB) ([]byte, common.Address) {
	t.Helper()
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	data, err := gethkeystore.EncryptKey(&gethkeystore.Key{Address: addr, PrivateKey: key, Id: randomID()}, pass, gethkeystore.LightScryptN, gethkeystore.LightScryptP)
	if err != nil {
		t.Fatal(err)
	}
	return data, addr
}

// edit changes the file's JSON with f.
func edit(t *testing.T, data []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	json.Unmarshal(data, &m)
	f(m)
	out, _ := json.Marshal(m)
	return out
}

func kdf(m map[string]any) map[string]any {
	return m["crypto"].(map[string]any)["kdfparams"].(map[string]any)
}

func TestPrecheckRejects(t *testing.T) {
	good, _ := lightFile(t)
	tests := map[string][]byte{
		"truncated JSON":       good[:len(good)/2],
		"not JSON":             []byte("hello"),
		"version 1":            edit(t, good, func(m map[string]any) { m["version"] = 1 }),
		"version string":       edit(t, good, func(m map[string]any) { m["version"] = "3" }),
		"no crypto":            edit(t, good, func(m map[string]any) { delete(m, "crypto") }),
		"scrypt n 2^21":        edit(t, good, func(m map[string]any) { kdf(m)["n"] = 1 << 21 }),
		"scrypt n 2^20":        edit(t, good, func(m map[string]any) { kdf(m)["n"] = 1 << 20 }),
		"scrypt n 2^20 p 16":   edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<20, 16 }),
		"scrypt n 2^19 p 2":    edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<19, 2 }),
		"scrypt n 2^12 p 2^11": edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<12, 1<<11 }),
		"n a fraction":         edit(t, good, func(m map[string]any) { kdf(m)["n"] = 4096.5 }),
		"ciphertext 31 bytes": edit(t, good, func(m map[string]any) {
			m["crypto"].(map[string]any)["ciphertext"] = strings.Repeat("ab", 31)
		}),
		"scrypt n not pow2":  edit(t, good, func(m map[string]any) { kdf(m)["n"] = 1000 }),
		"scrypt r 16":        edit(t, good, func(m map[string]any) { kdf(m)["r"] = 16 }),
		"scrypt p 0":         edit(t, good, func(m map[string]any) { kdf(m)["p"] = 0 }),
		"dklen 16":           edit(t, good, func(m map[string]any) { kdf(m)["dklen"] = 16 }),
		"missing kdfparams":  edit(t, good, func(m map[string]any) { delete(m["crypto"].(map[string]any), "kdfparams") }),
		"kdfparams a string": edit(t, good, func(m map[string]any) { m["crypto"].(map[string]any)["kdfparams"] = "n=2" }),
		"n a string":         edit(t, good, func(m map[string]any) { kdf(m)["n"] = "4096" }),
		"missing salt":       edit(t, good, func(m map[string]any) { delete(kdf(m), "salt") }),
		"bad salt hex":       edit(t, good, func(m map[string]any) { kdf(m)["salt"] = "zz" }),
		"bad mac length":     edit(t, good, func(m map[string]any) { m["crypto"].(map[string]any)["mac"] = "abcd" }),
		"bad iv":             edit(t, good, func(m map[string]any) { m["crypto"].(map[string]any)["cipherparams"] = map[string]any{"iv": "00"} }),
		"other cipher":       edit(t, good, func(m map[string]any) { m["crypto"].(map[string]any)["cipher"] = "aes-256-gcm" }),
		"other kdf":          edit(t, good, func(m map[string]any) { m["crypto"].(map[string]any)["kdf"] = "argon2" }),
		"bad address":        edit(t, good, func(m map[string]any) { m["address"] = "0x12" }),
		"huge file":          append(good, make([]byte, MaxFileSize)...),
		"pbkdf2 c too large": pbkdf2File(t, good, MaxPBKDF2C+1),
		"pbkdf2 c 2^31-1":    pbkdf2File(t, good, 1<<31-1),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := precheck(data); !errors.Is(err, ErrMalformed) {
				t.Errorf("precheck = %v", err)
			}
		})
	}
	if _, err := precheck(good); err != nil {
		t.Errorf("valid file: %v", err)
	}
}

func pbkdf2File(t *testing.T, good []byte, c int) []byte {
	return edit(t, good, func(m map[string]any) {
		cr := m["crypto"].(map[string]any)
		cr["kdf"] = "pbkdf2"
		cr["kdfparams"] = map[string]any{"c": c, "dklen": 32, "prf": "hmac-sha256", "salt": "ab"}
	})
}

// TestPrecheckKDFBounds: the costs real tools write pass; the bound is
// twice geth's standard scrypt, and the pbkdf2 rounds web3 wallets write
// with headroom.
func TestPrecheckKDFBounds(t *testing.T) {
	good, _ := lightFile(t)
	accepted := map[string][]byte{
		"geth light (n 2^12, p 6)":     good,
		"geth standard (n 2^18, p 1)":  edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<18, 1 }),
		"foundry (n 2^13, p 1)":        edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<13, 1 }),
		"twice standard (n 2^18, p 2)": edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<18, 2 }),
		"n 2^19, p 1":                  edit(t, good, func(m map[string]any) { kdf(m)["n"], kdf(m)["p"] = 1<<19, 1 }),
		"pbkdf2 c 262144":              pbkdf2File(t, good, 262144),
	}
	for name, data := range accepted {
		if _, err := precheck(data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if MaxScryptMemory != 512<<20 || MaxScryptWork != 1<<22 {
		t.Errorf("bounds %d bytes, %d work: want 512 MiB and twice geth's standard", MaxScryptMemory, MaxScryptWork)
	}
}

// TestPrecheckRefusesAmbiguousKeys: go-ethereum matches keys without
// regard to case and keeps the last copy, so a file with a key twice, or in
// two cases, could pass a check of one copy and be decrypted with the
// other: refused, wherever decryption reads.
func TestPrecheckRefusesAmbiguousKeys(t *testing.T) {
	good, _ := lightFile(t)
	var m map[string]json.RawMessage
	json.Unmarshal(good, &m)
	crypto := string(m["crypto"])
	params := `"dklen":32,"p":1,"r":8,"salt":"ab"`
	withKDF := func(kdfparams string) []byte {
		var c map[string]json.RawMessage
		json.Unmarshal(m["crypto"], &c)
		c["kdfparams"] = json.RawMessage(kdfparams)
		out, _ := json.Marshal(c)
		return []byte(`{"version":3,"crypto":` + string(out) + `}`)
	}
	tests := map[string][]byte{
		"n and N":                 withKDF(`{"n":1073741824,"N":4096,` + params + `}`),
		"N and n":                 withKDF(`{"N":4096,"n":1073741824,` + params + `}`),
		"n twice":                 withKDF(`{"n":4096,"n":1073741824,` + params + `}`),
		"crypto and Crypto":       []byte(`{"version":3,"crypto":` + crypto + `,"Crypto":` + crypto + `}`),
		"crypto twice":            []byte(`{"version":3,"crypto":` + crypto + `,"crypto":` + crypto + `}`),
		"version and Version":     []byte(`{"version":3,"Version":3,"crypto":` + crypto + `}`),
		"kdfparams and KDFParams": []byte(`{"version":3,"crypto":` + strings.Replace(crypto, `"kdfparams":`, `"KDFParams":{"n":2},"kdfparams":`, 1) + `}`),
		"iv and IV":               []byte(`{"version":3,"crypto":` + strings.Replace(crypto, `"cipherparams":{`, `"cipherparams":{"IV":"00",`, 1) + `}`),
		// go-ethereum's decoder folds the Kelvin sign to k: "\u212adf" is its "kdf".
		"kdf and Kelvin-sign kdf": []byte(`{"version":3,"crypto":` + strings.Replace(crypto, `"kdf":`, `"\u212adf":"pbkdf2","kdf":`, 1) + `}`),
		"data after the object":   append(append([]byte{}, good...), []byte(`{"version":3}`)...),
	}
	for name, data := range tests {
		if _, err := precheck(data); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: precheck = %v", name, err)
		}
	}
	// Old geth's "Crypto", alone, is read.
	if _, err := precheck([]byte(`{"version":3,"Crypto":` + crypto + `}`)); err != nil {
		t.Errorf("Crypto alone: %v", err)
	}
}

func newStore(t *testing.T, files map[string][]byte, opts ...Option) *Store {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		os.WriteFile(filepath.Join(dir, name), data, 0o600)
	}
	s, err := Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOpenListsMixedDirectory(t *testing.T) {
	a, addrA := lightFile(t)
	b, addrB := lightFile(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "UTC--2026-01-01T00-00-00.000000000Z--"+strings.ToLower(addrA.Hex()[2:])), a, 0o600)
	os.WriteFile(filepath.Join(dir, "deployer.json"), b, 0o600) // foundry: any name
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)
	os.WriteFile(filepath.Join(dir, ".DS_Store"), []byte{0}, 0o600)
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	accts := s.Accounts()
	if len(accts) != 2 || len(s.Problems()) != 1 || !strings.Contains(s.Problems()[0].Error(), "notes.txt") {
		t.Fatalf("accounts %v, problems %v", accts, s.Problems())
	}
	found := map[common.Address]bool{accts[0].Address: true, accts[1].Address: true}
	if !found[addrA] || !found[addrB] || accts[0].Verified {
		t.Errorf("accounts %v", accts)
	}
	if _, err := Open(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing dir: %v", err)
	}
}

func TestUnlockSignLock(t *testing.T) {
	data, addr := lightFile(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s := newStore(t, map[string][]byte{"k.json": data}, WithClock(func() time.Time { return now }), WithRelock(time.Minute))

	if _, err := s.Signer(addr).SignText([]byte("x")); !errors.Is(err, ErrLocked) {
		t.Errorf("sign while locked: %v", err)
	}
	if err := s.Unlock(addr, "wrong"); !errors.Is(err, ErrWrongPassphrase) {
		t.Errorf("wrong passphrase: %v", err)
	}
	if err := s.Unlock(addr, pass); err != nil {
		t.Fatal(err)
	}
	if !s.Accounts()[0].Verified || s.TimeLeft(addr) != time.Minute {
		t.Errorf("after unlock: %v, %v", s.Accounts(), s.TimeLeft(addr))
	}

	msg := "hello"
	sig, err := s.Signer(addr).SignText([]byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := siwe.RecoverSigner(msg, sig); err != nil || got != addr {
		t.Errorf("recovered %s, %v", got, err)
	}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(31337), Nonce: 1, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2), Gas: 21000})
	signed, err := s.Signer(addr).SignTx(tx, big.NewInt(31337))
	if err != nil {
		t.Fatal(err)
	}
	if from, _ := types.Sender(types.LatestSignerForChainID(big.NewInt(31337)), signed); from != addr {
		t.Errorf("tx sender %s", from)
	}

	key := s.unlocked[addr].key
	now = now.Add(time.Minute)
	if s.TimeLeft(addr) != 0 {
		t.Error("not relocked after the timeout")
	}
	if !key.Key.IsZero() {
		t.Error("relocked key not zeroed")
	}
	if err := s.Unlock(addr, pass); err != nil {
		t.Fatal(err)
	}
	key = s.unlocked[addr].key
	s.Lock(addr)
	if !key.Key.IsZero() || s.TimeLeft(addr) != 0 {
		t.Error("Lock did not zero and forget the key")
	}
}

func TestAddressMismatch(t *testing.T) {
	data, _ := lightFile(t)
	other := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	forged := edit(t, data, func(m map[string]any) { m["address"] = strings.ToLower(other.Hex()[2:]) })
	s := newStore(t, map[string][]byte{"k.json": forged})
	if err := s.Unlock(other, pass); !errors.Is(err, ErrAddressMismatch) {
		t.Errorf("Unlock = %v", err)
	}
	if s.Accounts()[0].Verified {
		t.Error("forged account marked verified")
	}
}

func TestNewAndImport(t *testing.T) {
	s := newStore(t, nil)
	acct, err := s.New(pass, true)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(acct.Path)
	if info.Mode().Perm() != 0o600 || !strings.HasPrefix(filepath.Base(acct.Path), "UTC--") {
		t.Errorf("file %s mode %v", acct.Path, info.Mode().Perm())
	}
	data, _ := os.ReadFile(acct.Path)
	var m map[string]any
	json.Unmarshal(data, &m)
	if n := kdf(m)["n"].(float64); n != gethkeystore.LightScryptN {
		t.Errorf("light n = %v", n)
	}
	if err := s.Unlock(acct.Address, pass); err != nil {
		t.Fatal(err)
	}

	src, addr := lightFile(t)
	srcPath := filepath.Join(t.TempDir(), "import.json")
	os.WriteFile(srcPath, src, 0o600)
	if _, err := s.Import(srcPath, "wrong", "", true); !errors.Is(err, ErrWrongPassphrase) {
		t.Errorf("import with wrong passphrase: %v", err)
	}
	imported, err := s.Import(srcPath, pass, "new pass", true)
	if err != nil || imported.Address != addr {
		t.Fatalf("import: %v %v", imported, err)
	}
	if err := s.Unlock(addr, "new pass"); err != nil {
		t.Errorf("unlock imported with the new passphrase: %v", err)
	}
	if _, err := s.Import(srcPath, pass, "", true); err == nil {
		t.Error("imported the same account twice")
	}
}

func TestStandardScryptByDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("standard scrypt takes a second")
	}
	s := newStore(t, nil)
	acct, err := s.New(pass, false)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(acct.Path)
	var m map[string]any
	json.Unmarshal(data, &m)
	if n := kdf(m)["n"].(float64); n != gethkeystore.StandardScryptN {
		t.Errorf("standard n = %v", n)
	}
}

func TestReadPassphrase(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pass")
	os.WriteFile(file, []byte("from file\nsecond line\n"), 0o600)
	if p, err := ReadPassphrase(PassphraseSource{File: file}, ""); err != nil || p != "from file" {
		t.Errorf("file: %q %v", p, err)
	}
	env := func(k string) string { return map[string]string{PassphraseEnv: "from env"}[k] }
	if p, err := ReadPassphrase(PassphraseSource{Getenv: env}, ""); err != nil || p != "from env" {
		t.Errorf("env: %q %v", p, err)
	}
	if _, err := ReadPassphrase(PassphraseSource{Getenv: func(string) string { return "" }}, ""); err == nil || !strings.Contains(err.Error(), PassphraseEnv) {
		t.Errorf("no source: %v", err)
	}
}

// FuzzPrecheck: what the pre-check accepts is bounded, means the same to
// go-ethereum's own decoder (which matches keys without regard to case),
// and decrypts without a panic.
func FuzzPrecheck(f *testing.F) {
	good, _ := lightFile(f)
	f.Add(good)
	f.Add([]byte(`{"version":3}`))
	f.Add([]byte(`{"version":3,"crypto":{"kdfparams":{"n":4096,"N":1073741824}},"Crypto":{}}`))
	for _, dir := range []string{"testdata/geth", "testdata/foundry"} {
		files, _ := filepath.Glob(dir + "/*-*")
		for _, name := range files {
			data, _ := os.ReadFile(name)
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kf, err := precheck(data)
		if err != nil {
			return
		}
		p := kf.crypto.KDFParams
		if kf.crypto.KDF == "scrypt" {
			n, r, q := p["n"].(int), p["r"].(int), p["p"].(int)
			if 128*n*r > MaxScryptMemory || n*r*q > MaxScryptWork {
				t.Fatalf("accepted scrypt n=%d r=%d p=%d", n, r, q)
			}
		} else if p["c"].(int) > MaxPBKDF2C {
			t.Fatalf("accepted pbkdf2 c=%d", p["c"])
		}
		// go-ethereum's reading of the same file agrees with ours.
		var geth struct {
			Crypto gethkeystore.CryptoJSON
		}
		if err := json.Unmarshal(data, &geth); err != nil {
			t.Fatalf("accepted a file go-ethereum cannot decode: %v", err)
		}
		g := geth.Crypto
		if g.Cipher != kf.crypto.Cipher || g.CipherText != kf.crypto.CipherText || g.MAC != kf.crypto.MAC ||
			g.CipherParams.IV != kf.crypto.CipherParams.IV || g.KDF != kf.crypto.KDF {
			t.Fatalf("go-ethereum reads another crypto section: %+v, ours %+v", g, kf.crypto)
		}
		for k, v := range p {
			gv, ok := g.KDFParams[k]
			if n, isInt := v.(int); isInt {
				if f, isFloat := gv.(float64); !ok || !isFloat || f != float64(n) {
					t.Fatalf("kdfparams %s: go-ethereum reads %v, we %v", k, gv, v)
				}
			} else if gv != v {
				t.Fatalf("kdfparams %s: go-ethereum reads %v, we %v", k, gv, v)
			}
		}
		// Decrypting costs at most the bounds; spare the fuzzer the
		// expensive ones.
		if kf.crypto.KDF == "scrypt" && p["n"].(int)*p["p"].(int) > 1<<14 || kf.crypto.KDF == "pbkdf2" && p["c"].(int) > 1<<14 {
			return
		}
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("decryption panicked on a pre-checked file: %v\n%s", r, data)
			}
		}()
		gethkeystore.DecryptDataV3(kf.crypto, "x")
	})
}

// BenchmarkUnlockLight is light-scrypt decryption alone: the part of a
// sign-in nobody can avoid.
func BenchmarkUnlockLight(b *testing.B) {
	data, _ := lightFile(b)
	for b.Loop() {
		if _, err := gethkeystore.DecryptKey(data, pass); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewPassphraseAsksTwice: typed at the terminal, a new passphrase is
// asked twice and a mismatch refused; from the environment, once.
func TestNewPassphraseAsksTwice(t *testing.T) {
	typed := func(lines ...string) func() (string, error) {
		return func() (string, error) {
			l := lines[0]
			lines = lines[1:]
			return l, nil
		}
	}
	var prompts strings.Builder
	if p, err := NewPassphrase(PassphraseSource{Terminal: typed("abc def", "abc def"), Prompt: &prompts}, "New: "); err != nil || p != "abc def" {
		t.Errorf("same twice: %q %v", p, err)
	}
	if !strings.Contains(prompts.String(), "New: ") || !strings.Contains(prompts.String(), "Repeat") {
		t.Errorf("prompts %q", prompts.String())
	}
	if _, err := NewPassphrase(PassphraseSource{Terminal: typed("abc def", "abc dfe")}, ""); !errors.Is(err, ErrPassphraseMismatch) {
		t.Errorf("mismatch: %v", err)
	}
	env := func(string) string { return "from env" }
	if p, err := NewPassphrase(PassphraseSource{Getenv: env, Terminal: typed()}, ""); err != nil || p != "from env" {
		t.Errorf("env: %q %v", p, err)
	}
}

// TestCheckFileNamesTheFileOnce: a file that cannot be read is named once,
// by its base name, not again inside the os package's "stat /path: ...".
func TestCheckFileNamesTheFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.json")
	err := CheckFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CheckFile(%s) = %v, want fs.ErrNotExist", path, err)
	}
	if got, want := err.Error(), "missing.json: no such file or directory"; got != want {
		t.Errorf("CheckFile(%s) = %q, want %q", path, got, want)
	}
}

// TestSigningRenewsTheUnlock: the unlock is an idle timeout: each
// signature gives the account its whole time again, so a walk that keeps
// signing (sign in, claim, approve, stake) is not cut in the middle; an
// account left alone for the time locks.
func TestSigningRenewsTheUnlock(t *testing.T) {
	data, addr := lightFile(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s := newStore(t, map[string][]byte{"k.json": data}, WithClock(func() time.Time { return now }), WithRelock(time.Minute))
	if err := s.Unlock(addr, pass); err != nil {
		t.Fatal(err)
	}
	now = now.Add(50 * time.Second)
	if _, err := s.Signer(addr).SignText([]byte("sign in")); err != nil {
		t.Fatal(err)
	}
	if left := s.TimeLeft(addr); left != time.Minute {
		t.Errorf("after a signature %v left, want the whole minute", left)
	}
	now = now.Add(50 * time.Second) // 100 s after the unlock
	if _, err := s.Signer(addr).SignText([]byte("claim")); err != nil {
		t.Errorf("locked 50 s after a signature: %v", err)
	}
	now = now.Add(time.Minute)
	if s.TimeLeft(addr) != 0 {
		t.Error("not locked after a minute without a signature")
	}
}
