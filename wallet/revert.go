package wallet

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/internal/sanitize"
	"allot/wallet/revert"
)

// maxRevertString bounds a node's own words about a failed call, in runes.
const maxRevertString = 120

// revertReason explains err, the failure of a call or a gas estimate: the
// decoded revert when the node sent revert data, else the node's own words,
// sanitized and cut short. ok is false when err is not a revert at all (the
// node could not be reached, say).
func revertReason(err error) (reason string, ok bool) {
	if data, has := revert.Data(err); has {
		r, decodeErr := revert.Decode(data)
		if decodeErr != nil {
			return fmt.Sprintf("reverted with unknown data %s", sanitize.Truncate(hexutil.Encode(data), 80)), true
		}
		return explainRevert(r), true
	}
	msg := err.Error()
	if strings.Contains(msg, "revert") || strings.Contains(msg, "out of gas") || strings.Contains(msg, "invalid opcode") {
		return sanitize.Truncate(msg, maxRevertString), true
	}
	return "", false
}

// explainRevert writes a decoded revert for a review or a failure: its
// name and arguments, and what it means when it is a production vester's
// error a stakeholder meets ("InsufficientFunds(): more than is
// withdrawable: ...").
func explainRevert(r *revert.Error) string {
	if meaning := r.Meaning(); meaning != "" {
		return r.Error() + ": " + meaning
	}
	return r.Error()
}
