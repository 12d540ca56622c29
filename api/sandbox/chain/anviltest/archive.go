package anviltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Archive is an archive node of a chain of empty blocks 0 to Head, for
// anvil to fork from (StartForked): anvil answers every question about
// those blocks (code, balances, logs, headers) by asking it, as it asks
// mainnet when forking mainnet. Mining two million blocks in anvil takes
// hours (anvil_mine makes about 200 a second here); a fork at block two
// million is that chain in an instant, every block of it readable.
//
// It counts the questions by method, so a test sees what reached the
// blocks before the fork: a scan from block 0 asks for their logs.
type Archive struct {
	URL  string
	Head uint64
	// headTime is the head block's time: now when the archive starts, so
	// that what anvil mines after it (the sandbox's seed, whose schedules
	// are dated from now) is not years behind the present.
	headTime uint64

	mu    sync.Mutex
	asked map[string]int
}

// ChainID is the archive's chain: anvil's own, so that keys and
// fixtures made for anvil sign for it.
const ChainID = 31337

// NewArchive serves an empty chain of head+1 blocks until the test ends.
func NewArchive(t testing.TB, head uint64) *Archive {
	t.Helper()
	a := &Archive{Head: head, headTime: uint64(time.Now().Unix()), asked: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// Asked is how many times method was asked since the last Reset.
func (a *Archive) Asked(method string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.asked[method]
}

// Reset forgets the questions counted.
func (a *Archive) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.asked)
}

type rpcRequest struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (a *Archive) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if strings.HasPrefix(strings.TrimSpace(string(body)), "[") {
		var batch []rpcRequest
		if err := json.Unmarshal(body, &batch); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answers := make([]rpcAnswer, len(batch))
		for i, req := range batch {
			answers[i] = a.answer(req)
		}
		json.NewEncoder(w).Encode(answers)
		return
	}
	var req rpcRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	json.NewEncoder(w).Encode(a.answer(req))
}

// emptyRoot is the root of an empty trie: no transactions, receipts or
// withdrawals.
const emptyRoot = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"

func (a *Archive) answer(req rpcRequest) rpcAnswer {
	a.mu.Lock()
	a.asked[req.Method]++
	a.mu.Unlock()
	out := rpcAnswer{JSONRPC: "2.0", ID: req.ID}
	param := func(i int) string {
		var s string
		if i < len(req.Params) {
			json.Unmarshal(req.Params[i], &s)
		}
		return s
	}
	switch req.Method {
	case "eth_chainId":
		out.Result = hexNumber(ChainID)
	case "net_version":
		out.Result = strconv.Itoa(ChainID)
	case "eth_blockNumber":
		out.Result = hexNumber(a.Head)
	case "eth_getBlockByNumber":
		if n, ok := a.number(param(0)); ok {
			out.Result = a.block(n)
		}
	case "eth_getBlockByHash":
		if n, ok := blockOfHash(param(0)); ok && n <= a.Head {
			out.Result = a.block(n)
		}
	case "eth_getBalance", "eth_getTransactionCount", "eth_gasPrice":
		out.Result = "0x0"
	case "eth_getCode":
		out.Result = "0x"
	case "eth_getStorageAt":
		out.Result = "0x" + strings.Repeat("0", 64)
	case "eth_getLogs", "eth_getBlockReceipts":
		out.Result = []any{}
	case "eth_getTransactionByHash", "eth_getTransactionReceipt":
		out.Result = nil // no block holds a transaction
	case "eth_feeHistory":
		out.Result = a.feeHistory()
	default:
		out.Error = &rpcError{Code: -32601, Message: "the archive does not answer " + req.Method}
	}
	return out
}

// number reads a block tag or number; ok is false past the head.
func (a *Archive) number(tag string) (uint64, bool) {
	switch tag {
	case "latest", "safe", "finalized", "pending", "":
		return a.Head, true
	case "earliest":
		return 0, true
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(tag, "0x"), 16, 64)
	return n, err == nil && n <= a.Head
}

// baseFee is every block's: one gwei.
const baseFee = "0x3b9aca00"

func (a *Archive) block(n uint64) map[string]any {
	parent := "0x" + strings.Repeat("0", 64)
	if n > 0 {
		parent = blockHash(n - 1)
	}
	return map[string]any{
		"number": hexNumber(n), "hash": blockHash(n), "parentHash": parent,
		"sha3Uncles":       "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
		"logsBloom":        "0x" + strings.Repeat("0", 512),
		"transactionsRoot": emptyRoot, "receiptsRoot": emptyRoot, "withdrawalsRoot": emptyRoot,
		"stateRoot": emptyRoot, "miner": "0x" + strings.Repeat("0", 40),
		"difficulty": "0x0", "totalDifficulty": "0x0", "extraData": "0x", "size": "0x220",
		"gasLimit": "0x1c9c380", "gasUsed": "0x0", "baseFeePerGas": baseFee,
		// Twelve seconds a block, the head's now.
		"timestamp":    hexNumber(a.headTime - min(a.headTime, (a.Head-n)*12)),
		"transactions": []any{}, "uncles": []any{}, "withdrawals": []any{},
		"mixHash": "0x" + strings.Repeat("0", 64), "nonce": "0x0000000000000000",
	}
}

func (a *Archive) feeHistory() map[string]any {
	const blocks = 10
	fees, ratios, rewards := make([]string, blocks+1), make([]float64, blocks), make([][]string, blocks)
	for i := range fees {
		fees[i] = baseFee
	}
	for i := range rewards {
		rewards[i] = []string{"0x0"}
	}
	return map[string]any{"oldestBlock": hexNumber(a.Head - blocks + 1), "baseFeePerGas": fees, "gasUsedRatio": ratios, "reward": rewards}
}

func hexNumber(n uint64) string { return "0x" + strconv.FormatUint(n, 16) }

// blockHash is block n's hash: its number under a marker, so that a hash
// asked about names its block.
func blockHash(n uint64) string { return fmt.Sprintf("0xa4c1%060x", n) }

func blockOfHash(h string) (uint64, bool) {
	rest, ok := strings.CutPrefix(strings.ToLower(h), "0xa4c1")
	if !ok || len(rest) != 60 {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 16, 64)
	return n, err == nil
}

// StartForked runs anvil forked from archive at its head: the chain
// anvil mines on starts at block archive.Head+1.
func StartForked(t testing.TB, archive *Archive, args ...string) string {
	t.Helper()
	return Start(t, append([]string{"--fork-url", archive.URL, "--fork-block-number", strconv.FormatUint(archive.Head, 10)}, args...)...)
}
