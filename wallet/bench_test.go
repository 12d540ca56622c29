package wallet

import (
	"context"
	"crypto/rand"
	"testing"

	"allot/wallet/keystore"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// depth20Proof is a proof of depth 20 (a tree of a million leaves) over a
// typical calendar leaf; the siblings are random, since folding costs the
// same whatever they are.
func depth20Proof(b *testing.B) *Proof {
	b.Helper()
	args, err := vesting.Encode(testAllocations(newKeySigner(b, "alice").Address(), common.Address{})[0])
	if err != nil {
		b.Fatal(err)
	}
	siblings := make([]common.Hash, 20)
	for i := range siblings {
		rand.Read(siblings[i][:])
	}
	leaf := merkle.Leaf(args)
	return &Proof{DecodableArgs: args, Hash: &leaf, Siblings: siblings}
}

// BenchmarkVerifyProofDepth20 is the whole offline verification of a
// depth-20 proof: the leaf, the fold, and decoding the leaf with its unlocks
// and timeline.
func BenchmarkVerifyProofDepth20(b *testing.B) {
	p := depth20Proof(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if v := VerifyProof(ctx, p, VerifyOptions{Now: testStart}); v.LeafCheck.State != Pass {
			b.Fatal("leaf does not match")
		}
	}
}

// BenchmarkKeccak is the part of BenchmarkVerifyProofDepth20 nobody can
// avoid: keccak256 of the same bytes, the leaf once and each of the 20
// pairs.
func BenchmarkKeccak(b *testing.B) {
	p := depth20Proof(b)
	pairs := make([][]byte, len(p.Siblings))
	for i, s := range p.Siblings {
		pairs[i] = append(p.Hash.Bytes(), s.Bytes()...)
	}
	b.ReportAllocs()
	for b.Loop() {
		crypto.Keccak256(p.DecodableArgs)
		for _, pair := range pairs {
			crypto.Keccak256(pair)
		}
	}
}

// BenchmarkSignInLight is a whole sign-in with a light-scrypt key file
// against the sandbox over loopback HTTP: unlock the account (scrypt),
// build the message, sign it, exchange it for an access token, lock.
func BenchmarkSignInLight(b *testing.B) {
	e := newPortalEnv(b)
	ctx := context.Background()
	store, addr, passphrase := demoKeystore(b, e)
	signer := store.Signer(addr)
	b.ReportAllocs()
	for b.Loop() {
		if err := store.Unlock(addr, passphrase); err != nil {
			b.Fatal(err)
		}
		m, err := e.portal.Prepare(addr)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.portal.SignIn(ctx, m.String(), signer); err != nil {
			b.Fatal(err)
		}
		store.Lock(addr)
	}
}

// BenchmarkUnlockLight is the part of BenchmarkSignInLight nobody can
// avoid: the keystore's light-scrypt decryption of the same file.
func BenchmarkUnlockLight(b *testing.B) {
	e := newPortalEnv(b)
	store, addr, passphrase := demoKeystore(b, e)
	b.ReportAllocs()
	for b.Loop() {
		if err := store.Unlock(addr, passphrase); err != nil {
			b.Fatal(err)
		}
		store.Lock(addr)
	}
}

// demoKeystore opens the sandbox's keystore of demo wallets (light scrypt)
// and returns its first wallet.
func demoKeystore(b *testing.B, e *portalEnv) (*keystore.Store, common.Address, string) {
	b.Helper()
	store, err := keystore.Open(e.fx.KeystoreDir)
	if err != nil {
		b.Fatal(err)
	}
	w := e.fx.Wallets[0]
	return store, common.HexToAddress(w.Address), w.Passphrase
}
