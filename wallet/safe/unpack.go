package safe

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// ErrNotMultiSend: calldata that is not a multiSend(bytes) of calls as
// PackMultiSend packs them.
var ErrNotMultiSend = errors.New("not a multiSend of calls")

// UnpackMultiSend reads back the calls of multiSend(bytes) calldata, the
// inverse of PackMultiSend: every entry a plain call (its operation byte 0), the whole
// encoding canonical (what is read packs again to exactly data).
func UnpackMultiSend(data []byte) ([]InnerCall, error) {
	const head = 4 + 32 + 32
	if len(data) < head || !bytes.Equal(data[:4], multiSendSelector) {
		return nil, ErrNotMultiSend
	}
	n := new(big.Int).SetBytes(data[36:head])
	if !n.IsUint64() || n.Uint64() > uint64(len(data)-head) {
		return nil, fmt.Errorf("%w: its length runs past the data", ErrNotMultiSend)
	}
	packed := data[head : head+int(n.Uint64())]
	var calls []InnerCall
	for len(packed) > 0 {
		const entry = 1 + 20 + 32 + 32
		if len(packed) < entry || Operation(packed[0]) != Call {
			return nil, fmt.Errorf("%w: entry %d is cut short or no call", ErrNotMultiSend, len(calls)+1)
		}
		size := new(big.Int).SetBytes(packed[53:entry])
		if !size.IsUint64() || size.Uint64() > uint64(len(packed)-entry) {
			return nil, fmt.Errorf("%w: entry %d's data runs past the batch", ErrNotMultiSend, len(calls)+1)
		}
		end := entry + int(size.Uint64())
		calls = append(calls, InnerCall{To: common.BytesToAddress(packed[1:21]), Value: new(big.Int).SetBytes(packed[21:53]),
			Data: bytes.Clone(packed[entry:end])})
		packed = packed[end:]
	}
	if again, err := PackMultiSend(calls); err != nil || !bytes.Equal(again, data) {
		return nil, fmt.Errorf("%w: not its canonical encoding", ErrNotMultiSend)
	}
	return calls, nil
}
