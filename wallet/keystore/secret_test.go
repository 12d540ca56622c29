package keystore

import (
	"bytes"
	"os"
	"testing"

	gethkeystore "github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestSignIsGethSign: the scalar the store holds signs byte for byte as
// go-ethereum's crypto.Sign does with the same key (both RFC 6979), and
// names the same address.
func TestSignIsGethSign(t *testing.T) {
	for _, hexKey := range []string{
		"ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
		"0000000000000000000000000000000000000000000000000000000000000001",
	} {
		geth, err := crypto.HexToECDSA(hexKey)
		if err != nil {
			t.Fatal(err)
		}
		key, addr, err := secretKey(crypto.FromECDSA(geth))
		if err != nil {
			t.Fatal(err)
		}
		if want := crypto.PubkeyToAddress(geth.PublicKey); addr != want {
			t.Errorf("address %s, want %s", addr, want)
		}
		for _, msg := range []string{"", "allot", "a longer message to hash"} {
			hash := crypto.Keccak256([]byte(msg))
			got, err := sign(key, hash)
			if err != nil {
				t.Fatal(err)
			}
			want, err := crypto.Sign(hash, geth)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("key %s… %q: signature %x, want %x", hexKey[:6], msg, got, want)
			}
		}
		if _, err := sign(key, []byte("short")); err == nil {
			t.Error("signed a hash that is not 32 bytes")
		}
	}
	for _, bad := range [][]byte{make([]byte, 32), bytes.Repeat([]byte{0xff}, 32), make([]byte, 31)} {
		if _, _, err := secretKey(bad); err == nil {
			t.Errorf("%x taken as a key", bad)
		}
	}
}

// TestNewFileOpensInGeth: a file New writes is a V3 keystore file geth
// decrypts to the account's address.
func TestNewFileOpensInGeth(t *testing.T) {
	s := newStore(t, nil)
	acct, err := s.New(pass, true)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(acct.Path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := gethkeystore.DecryptKey(data, pass)
	if err != nil {
		t.Fatal(err)
	}
	if key.Address != acct.Address || crypto.PubkeyToAddress(key.PrivateKey.PublicKey) != acct.Address {
		t.Errorf("geth reads %s, the account is %s", key.Address, acct.Address)
	}
}
