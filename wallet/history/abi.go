package history

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// The production vester's interface as far as its history needs it (D18),
// and the ERC-20's Transfer, written out here rather than read from our
// sandbox contract's artifact: the history must read the production
// vester, and a test holds the sandbox's contract to the same signatures.
var vesterABI = mustParse(`[
	{"type":"function","name":"withdraw","stateMutability":"payable","inputs":[
		{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
		{"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"}],"outputs":[]},
	{"type":"function","name":"withdraw","stateMutability":"payable","inputs":[
		{"name":"withdrawalAmount","type":"uint256"},{"name":"rootIndex","type":"uint32"},
		{"name":"decodableArgs","type":"bytes"},{"name":"proof","type":"bytes32[]"},
		{"name":"postClaimHandler","type":"address"},{"name":"extraData","type":"bytes"}],"outputs":[]},
	{"type":"function","name":"token","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
	{"type":"function","name":"getPostClaimHandlers","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address[]"}]},
	{"type":"event","name":"ScheduleCanceled","anonymous":false,"inputs":[{"name":"id","type":"string","indexed":false}]},
	{"type":"event","name":"ScheduleRevoked","anonymous":false,"inputs":[{"name":"id","type":"string","indexed":false}]},
	{"type":"event","name":"TransferredBeneficiary","anonymous":false,"inputs":[
		{"name":"id","type":"string","indexed":false},{"name":"newBeneficiary","type":"address","indexed":false}]}
]`)

var tokenABI = mustParse(`[
	{"type":"function","name":"symbol","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
	{"type":"event","name":"Transfer","anonymous":false,"inputs":[
		{"name":"from","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},
		{"name":"value","type":"uint256","indexed":false}]}
]`)

func mustParse(text string) abi.ABI {
	parsed, err := abi.JSON(strings.NewReader(text))
	if err != nil {
		panic(fmt.Sprintf("history: ABI: %v", err))
	}
	return parsed
}

// The topics the history filters on.
var (
	topicTransfer    = tokenABI.Events["Transfer"].ID
	topicCanceled    = vesterABI.Events["ScheduleCanceled"].ID
	topicRevoked     = vesterABI.Events["ScheduleRevoked"].ID
	topicTransferred = vesterABI.Events["TransferredBeneficiary"].ID
)

// The two withdraw overloads: go-ethereum names the second withdraw0.
var (
	withdrawDirect  = vesterABI.Methods["withdraw"]
	withdrawHandler = vesterABI.Methods["withdraw0"]
)

// Signatures lists the signatures of the vester's functions and events the
// history reads, for a test to hold a vester's ABI to.
func Signatures() []string {
	return []string{
		withdrawDirect.Sig, withdrawHandler.Sig, "token()", "getPostClaimHandlers()",
		vesterABI.Events["ScheduleCanceled"].Sig, vesterABI.Events["ScheduleRevoked"].Sig,
		vesterABI.Events["TransferredBeneficiary"].Sig,
	}
}

func addressTopic(a common.Address) common.Hash { return common.BytesToHash(a.Bytes()) }

// topicAddress reads an indexed address; ok is false when the topic holds
// more than an address (dirty high bytes).
func topicAddress(h common.Hash) (common.Address, bool) {
	for _, b := range h[:12] {
		if b != 0 {
			return common.Address{}, false
		}
	}
	return common.BytesToAddress(h[12:]), true
}
