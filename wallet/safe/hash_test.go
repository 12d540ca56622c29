package safe_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet/safe"
)

// The Safe's own constants (DOMAIN_SEPARATOR_TYPEHASH and
// SAFE_TX_TYPEHASH in Safe.sol 1.3.0 and 1.4.1), against which the type
// strings are checked even where the contracts are not installed.
func TestTypeHashes(t *testing.T) {
	chainID, addr := big.NewInt(1), common.HexToAddress("0x00000000000000000000000000000000000000aa")
	got, err := safe.DomainSeparator(chainID, addr)
	if err != nil {
		t.Fatal(err)
	}
	// keccak256(abi.encode(DOMAIN_SEPARATOR_TYPEHASH, 1, 0xaa)) as the
	// Safe computes it, with the type hash
	// 0x47e79534a245952e8b16893a336b85a3d9ea9fa8c573f3d803afb92a79469218.
	want := keccakWords(t, "0x47e79534a245952e8b16893a336b85a3d9ea9fa8c573f3d803afb92a79469218",
		"0x0000000000000000000000000000000000000000000000000000000000000001",
		"0x00000000000000000000000000000000000000000000000000000000000000aa")
	if got != want {
		t.Errorf("domain separator %s, want %s", got.Hex(), want.Hex())
	}
	h, err := safe.Hash(chainID, addr, safe.Tx{})
	if err != nil {
		t.Fatal(err)
	}
	// SAFE_TX_TYPEHASH, then the empty transaction's fields: zero words
	// save data, which is keccak256 of nothing.
	zero := "0x0000000000000000000000000000000000000000000000000000000000000000"
	wantMsg := keccakWords(t, "0xbb8310d486368db6bd6f849402fdd73ad53d316b5a4b2644ad6efe0f941286d8",
		zero, zero, "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470", zero, zero, zero, zero, zero, zero, zero)
	if h.Message != wantMsg {
		t.Errorf("message hash %s, want %s", h.Message.Hex(), wantMsg.Hex())
	}
}

func TestHashRefuses(t *testing.T) {
	for name, tx := range map[string]safe.Tx{
		"operation 2":         {Operation: 2},
		"negative value":      {Value: big.NewInt(-1)},
		"nonce past 256 bits": {Nonce: new(big.Int).Lsh(big.NewInt(1), 256)},
	} {
		if _, err := safe.Hash(big.NewInt(1), common.Address{}, tx); err == nil {
			t.Errorf("%s: hashed", name)
		}
	}
	if _, err := safe.DomainSeparator(big.NewInt(-1), common.Address{}); err == nil {
		t.Error("a negative chain id: hashed")
	}
}

// TestHashEqualsTheSafes: allot's hashes of a transaction are the real
// Safe 1.4.1's own (domainSeparator() and getTransactionHash(...)) for
// the same fields, on the sandbox's chain.
func TestHashEqualsTheSafes(t *testing.T) {
	checkHashes(t, newWorld(t))
}

// TestOnAnvil: the same Safe on anvil, through JSON-RPC, is read as on
// the sandbox's chain and hashes as the Safe does.
func TestOnAnvil(t *testing.T) {
	w := newAnvilWorld(t)
	info, err := safe.Read(context.Background(), w.d.Client, w.safe)
	if err != nil {
		t.Fatal(err)
	}
	if info.Threshold != 2 || len(info.Owners) != 3 || info.Kind.Version != "1.4.1" {
		t.Errorf("read %+v", info)
	}
	checkHashes(t, w)
}

// checkHashes compares allot's hashes of transactions with the Safe's.
func checkHashes(t *testing.T, w *world) {
	t.Helper()
	chainID := w.chainID
	domain, err := safe.DomainSeparator(chainID, w.safe)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.d.View(t, w.safes.Safe, w.safe, "domainSeparator")[0].([32]byte); common.Hash(got) != domain {
		t.Errorf("domain separator %s, the Safe's %s", domain.Hex(), common.Hash(got).Hex())
	}
	txs := map[string]safe.Tx{
		"a transfer": {To: w.owners[0], Value: big.NewInt(1e18), Nonce: big.NewInt(0)},
		"a call": {To: w.safes.MultiSendAddr, Data: common.FromHex("0x095ea7b3000000000000000000000000000000000000000000000000000000000000beef"),
			Nonce: big.NewInt(7)},
		"a delegatecall with refunds": {To: w.safes.MultiSendAddr, Data: []byte{1, 2, 3}, Operation: safe.DelegateCall,
			SafeTxGas: big.NewInt(100000), BaseGas: big.NewInt(21000), GasPrice: big.NewInt(3e9),
			GasToken: w.owners[1], RefundReceiver: w.owners[2], Nonce: big.NewInt(42)},
	}
	for name, tx := range txs {
		h, err := safe.Hash(chainID, w.safe, tx)
		if err != nil {
			t.Fatal(err)
		}
		got := w.d.View(t, w.safes.Safe, w.safe, "getTransactionHash", tx.To, orZero(tx.Value), orBytes(tx.Data), uint8(tx.Operation),
			orZero(tx.SafeTxGas), orZero(tx.BaseGas), orZero(tx.GasPrice), tx.GasToken, tx.RefundReceiver, orZero(tx.Nonce))[0].([32]byte)
		if common.Hash(got) != h.SafeTx {
			t.Errorf("%s: safeTxHash %s, the Safe's %s", name, h.SafeTx.Hex(), common.Hash(got).Hex())
		}
	}
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

func orBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func keccakWords(t *testing.T, words ...string) common.Hash {
	t.Helper()
	var b []byte
	for _, w := range words {
		b = append(b, common.FromHex(w)...)
	}
	return crypto.Keccak256Hash(b)
}
