package safe

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestUnpackMultiSend: what PackMultiSend packs reads back as the same
// calls; a cut, a padding that is not zero, or another selector is no
// multiSend.
func TestUnpackMultiSend(t *testing.T) {
	calls := []InnerCall{
		{To: common.HexToAddress("0x01"), Value: big.NewInt(0), Data: []byte{1, 2, 3}},
		{To: common.HexToAddress("0x02"), Value: big.NewInt(7), Data: bytes.Repeat([]byte{9}, 40)},
	}
	data, err := PackMultiSend(calls)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnpackMultiSend(data)
	if err != nil || len(back) != 2 || back[1].To != calls[1].To || back[1].Value.Int64() != 7 || !bytes.Equal(back[0].Data, calls[0].Data) {
		t.Fatalf("read back %+v (%v)", back, err)
	}
	dirty := bytes.Clone(data)
	dirty[len(dirty)-1] = 1
	other := bytes.Clone(data)
	other[0] ^= 1
	for name, d := range map[string][]byte{"cut": data[:len(data)-40], "dirty padding": dirty, "another selector": other, "empty": nil} {
		if _, err := UnpackMultiSend(d); !errors.Is(err, ErrNotMultiSend) {
			t.Errorf("%s: %v, want ErrNotMultiSend", name, err)
		}
	}
}

func FuzzUnpackMultiSend(f *testing.F) {
	data, _ := PackMultiSend([]InnerCall{{To: common.HexToAddress("0x01"), Data: []byte{1}}})
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, err := UnpackMultiSend(data)
		if err != nil {
			return
		}
		again, err := PackMultiSend(calls)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%x read as %+v packs again as %x (%v)", data, calls, again, err)
		}
	})
}
