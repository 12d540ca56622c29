package proposal_test

import (
	"bytes"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

type owners struct {
	keys  []*ecdsa.PrivateKey
	addrs []common.Address
}

func newOwners(t testing.TB, n int) owners {
	t.Helper()
	var o owners
	for i := 0; i < n; i++ {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		o.keys = append(o.keys, k)
		o.addrs = append(o.addrs, crypto.PubkeyToAddress(k.PublicKey))
	}
	return o
}

func sign(t testing.TB, k *ecdsa.PrivateKey, h common.Hash) []byte {
	t.Helper()
	sig, err := crypto.Sign(h[:], k)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

var (
	theSafe   = common.HexToAddress("0x00000000000000000000000000000000005afe01")
	multiSend = common.HexToAddress("0x00000000000000000000000000000000000a5e4d")
	token     = common.HexToAddress("0x0000000000000000000000000000000000070c3e")
	pool      = common.HexToAddress("0x00000000000000000000000000000000000b0015")
)

func twoCalls() []safe.InnerCall {
	return []safe.InnerCall{{To: token, Data: []byte{1, 2, 3}}, {To: pool, Value: big.NewInt(5), Data: []byte{4}}}
}

func newProposal(t testing.TB, o owners) *proposal.Proposal {
	t.Helper()
	info := safe.Info{Address: theSafe, Version: "1.4.1", Owners: o.addrs, Threshold: 2, Nonce: big.NewInt(7)}
	p, err := proposal.New(31337, info, proposal.Act{Op: proposal.OpStake, Subject: "pool-1", Amount: big.NewInt(10)}, twoCalls(), multiSend)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProposalRoundTrip: a proposal of two calls is a delegatecall of
// the MultiSend at the Safe's nonce; signed by two owners, written and
// read back, it is the same, ready, its signatures packed ascending by
// owner.
func TestProposalRoundTrip(t *testing.T) {
	o := newOwners(t, 3)
	p := newProposal(t, o)
	if p.Tx.Operation != safe.DelegateCall || p.Tx.To != multiSend || p.Tx.Nonce.Int64() != 7 {
		t.Fatalf("tx %+v", p.Tx)
	}
	want, _ := safe.Hash(big.NewInt(31337), theSafe, p.Tx)
	if p.Hashes != want {
		t.Fatalf("hashes %+v, want %+v", p.Hashes, want)
	}
	for _, i := range []int{2, 0} {
		if err := p.AddSignature(o.addrs[i], sign(t, o.keys[i], p.Hashes.SafeTx)); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := proposal.Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	back, err := proposal.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Hashes != p.Hashes || len(back.Signatures) != 2 || !back.Tx.Equal(p.Tx) || back.Act.Amount.Int64() != 10 {
		t.Fatalf("read back %+v", back)
	}
	info := safe.Info{Address: theSafe, Owners: o.addrs, Threshold: 2, Nonce: big.NewInt(7)}
	if st, _ := back.StateAt(info); st != proposal.Ready {
		t.Errorf("state %s, want ready", st)
	}
	packed := back.Packed()
	first, second := o.addrs[0], o.addrs[2]
	if bytes.Compare(first[:], second[:]) > 0 {
		first, second = second, first
	}
	for i, owner := range []common.Address{first, second} {
		if got, err := safe.Recover(p.Hashes.SafeTx, packed[65*i:65*(i+1)]); err != nil || got != owner {
			t.Errorf("packed signature %d is %s's (%v), want %s's", i, got.Hex(), err, owner.Hex())
		}
	}
}

// TestProposalRefuses: what is not the proposal's own is refused as it is
// read or added: a call rewritten in the file, a signature of another
// hash or by another key than its owner, a non-owner, a second signature
// of one owner, an unknown field, a high-s signature.
func TestProposalRefuses(t *testing.T) {
	o := newOwners(t, 3)
	p := newProposal(t, o)
	stranger := newOwners(t, 1)
	if err := p.AddSignature(stranger.addrs[0], sign(t, stranger.keys[0], p.Hashes.SafeTx)); err == nil {
		t.Error("a stranger's signature was added")
	}
	if err := p.AddSignature(o.addrs[0], sign(t, o.keys[0], common.Hash{1})); !errors.Is(err, safe.ErrSignature) {
		t.Errorf("a signature of another hash: %v", err)
	}
	if err := p.AddSignature(o.addrs[1], sign(t, o.keys[0], p.Hashes.SafeTx)); !errors.Is(err, safe.ErrSignature) {
		t.Errorf("owner 0's signature said to be owner 1's: %v", err)
	}
	if err := p.AddSignature(o.addrs[0], sign(t, o.keys[0], p.Hashes.SafeTx)); err != nil {
		t.Fatal(err)
	}
	if err := p.AddSignature(o.addrs[0], sign(t, o.keys[0], p.Hashes.SafeTx)); err == nil {
		t.Error("one owner signed twice")
	}
	var buf bytes.Buffer
	if err := proposal.Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	data := `"data": "0x010203"`
	if !strings.Contains(good, data) {
		t.Fatalf("the file lacks %s:\n%s", data, good)
	}
	high := p.Signatures[0].Bytes
	s := new(big.Int).SetBytes(high[32:64])
	flipped := append(append([]byte{}, high[:32]...), common.LeftPadBytes(new(big.Int).Sub(crypto.S256().Params().N, s).Bytes(), 32)...)
	flipped = append(flipped, 27+(28-high[64]))
	for name, file := range map[string]string{
		"a rewritten call":   strings.Replace(good, data, `"data": "0x010204"`, 1),
		"an unknown field":   strings.Replace(good, `"version": 1,`, `"version": 1, "extra": 1,`, 1),
		"another version":    strings.Replace(good, `"version": 1,`, `"version": 2,`, 1),
		"a second value":     good + "{}",
		"a high-s signature": strings.Replace(good, common.Bytes2Hex(high), common.Bytes2Hex(flipped), 1),
	} {
		if _, err := proposal.Read(strings.NewReader(file)); !errors.Is(err, proposal.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

// TestProposalState: below the threshold signatures are missing; a Safe
// whose nonce moved makes it stale; one whose owners or threshold changed
// makes it not executable.
func TestProposalState(t *testing.T) {
	o := newOwners(t, 3)
	p := newProposal(t, o)
	info := safe.Info{Address: theSafe, Owners: o.addrs, Threshold: 2, Nonce: big.NewInt(7)}
	if st, why := p.StateAt(info); st != proposal.Missing || !strings.Contains(why, "0 of 2") {
		t.Errorf("state %s (%s), want signatures missing", st, why)
	}
	if err := p.Executable(info); err == nil || !strings.Contains(err.Error(), "needs 2 more") {
		t.Errorf("executable below the threshold: %v", err)
	}
	moved := info
	moved.Nonce = big.NewInt(8)
	if st, _ := p.StateAt(moved); st != proposal.Stale {
		t.Errorf("state %s, want stale nonce", st)
	}
	raised := info
	raised.Threshold = 3
	if st, _ := p.StateAt(raised); st != proposal.Changed {
		t.Errorf("state %s, want owners or threshold changed", st)
	}
	swapped := info
	swapped.Owners = append(append([]common.Address{}, o.addrs[:2]...), theSafe)
	if err := p.Executable(swapped); err == nil || !strings.Contains(err.Error(), "owners changed") {
		t.Errorf("executable with another owner: %v", err)
	}
}
