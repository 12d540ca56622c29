package safe_test

import (
	"bytes"
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/safe"
)

// TestMultiSendOnTheRealContract: the real MultiSendCallOnly 1.4.1 decodes
// what PackMultiSend packs and makes each call, with its value and data.
func TestMultiSendOnTheRealContract(t *testing.T) {
	w := newWorld(t)
	a, b := common.HexToAddress("0x00000000000000000000000000000000000a11ce"), common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	calls := []safe.InnerCall{{To: a, Value: big.NewInt(1), Data: []byte{1, 2, 3}}, {To: b, Value: big.NewInt(2)}}
	data, err := safe.PackMultiSend(calls)
	if err != nil {
		t.Fatal(err)
	}
	var packed []byte
	packed = append(packed, 0)
	packed = append(packed, a[:]...)
	packed = append(packed, common.LeftPadBytes([]byte{1}, 32)...)
	packed = append(packed, common.LeftPadBytes([]byte{3}, 32)...)
	packed = append(packed, 1, 2, 3, 0)
	packed = append(packed, b[:]...)
	packed = append(packed, common.LeftPadBytes([]byte{2}, 32)...)
	packed = append(packed, make([]byte, 32)...)
	want, err := w.safes.MultiSendCallOnly.ABI.Pack("multiSend", packed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Fatalf("packed %x\nwant %x", data, want)
	}
	w.d.SendValue(t, &w.safes.MultiSendAddr, data, big.NewInt(3))
	for addr, want := range map[common.Address]int64{a: 1, b: 2} {
		got, err := w.d.Client.BalanceAt(context.Background(), addr, nil)
		if err != nil || got.Int64() != want {
			t.Errorf("%s has %v wei (%v), want %d", addr.Hex(), got, err, want)
		}
	}
	if _, err := safe.PackMultiSend(nil); err == nil {
		t.Error("no call: packed")
	}
}
