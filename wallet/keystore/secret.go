package keystore

import (
	"errors"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// An unlocked key is held as secp256k1's own scalar, not as an
// ecdsa.PrivateKey: the scalar can be overwritten in place when the
// account locks, where ecdsa.PrivateKey's secret is reachable only through
// its deprecated big.Int D. The library is the one go-ethereum itself signs
// with when built without cgo.

// secretKey parses a 32-byte secp256k1 secret and returns its address.
func secretKey(b []byte) (*secp256k1.PrivateKey, common.Address, error) {
	if len(b) != 32 {
		return nil, common.Address{}, fmt.Errorf("%d bytes, want 32", len(b))
	}
	var key secp256k1.PrivateKey
	if overflow := key.Key.SetByteSlice(b); overflow || key.Key.IsZero() {
		key.Zero()
		return nil, common.Address{}, errors.New("not a scalar of the curve")
	}
	pub := key.PubKey().SerializeUncompressed()
	return &key, common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]), nil
}

// sign signs a 32-byte hash as go-ethereum's crypto.Sign does: [R || S || V],
// V 0 or 1.
func sign(key *secp256k1.PrivateKey, hash []byte) ([]byte, error) {
	if len(hash) != crypto.DigestLength {
		return nil, fmt.Errorf("hash is %d bytes, want %d", len(hash), crypto.DigestLength)
	}
	sig := secpecdsa.SignCompact(key, hash, false) // [V || R || S], V 27 or 28
	v := sig[0] - 27
	copy(sig, sig[1:])
	sig[crypto.RecoveryIDOffset] = v
	return sig, nil
}

// zero overwrites the key's secret scalar.
func zero(k *secp256k1.PrivateKey) {
	if k != nil {
		k.Zero()
	}
}
