package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/revert"
	"allot/wallet/vesting"
)

// pending is a log found, to be checked against its transaction.
type pending struct {
	log           types.Log
	kind          Kind
	vester, token common.Address
	// A vester event's, from its data: the allocation it names and, for a
	// transfer, the new beneficiary.
	allocation     string
	newBeneficiary common.Address
}

// vesterEvent reads a cancel, revoke or transfer of beneficiary. A log
// that does not decode as the production vester writes it is skipped
// with a warning: whose allocation it is cannot be told.
func (s *scan) vesterEvent(l types.Log, vester common.Address) (pending, bool) {
	p := pending{log: l, vester: vester}
	var event abi.Event
	switch l.Topics[0] {
	case topicCanceled:
		p.kind, event = Cancel, vesterABI.Events["ScheduleCanceled"]
	case topicRevoked:
		p.kind, event = Revoke, vesterABI.Events["ScheduleRevoked"]
	default:
		p.kind, event = Transfer, vesterABI.Events["TransferredBeneficiary"]
	}
	values, err := unpack(event.Inputs, l.Data)
	if err != nil || len(l.Topics) != 1 {
		s.warnf("skipped a %s event of vester %s in transaction %s: it does not decode as %s", event.Name, vester.Hex(), l.TxHash.Hex(), event.Sig)
		return pending{}, false
	}
	p.allocation, _ = values[0].(string)
	if p.kind == Transfer {
		p.newBeneficiary, _ = values[1].(common.Address)
	}
	return p, true
}

// unpack decodes data from the network: the ABI decoder trusts offsets
// more than it should on some inputs, and a panic there is an error here.
func unpack(args abi.Arguments, data []byte) (values []any, err error) {
	defer func() {
		if r := recover(); r != nil {
			values, err = nil, fmt.Errorf("does not decode: %v", r)
		}
	}()
	return args.Unpack(data)
}

// checkers is how many blocks or logs are checked at once: each check
// waits on the node.
const checkers = 8

// blockAtOnce is how many logs of one block make the check read the whole
// block and all its receipts in two requests rather than a transaction
// and a receipt a log: a node reads a block's receipts to answer for one,
// so a block of many claims is read once, and a block of one claim among
// a public chain's hundreds of transactions is not read whole.
const blockAtOnce = 4

// reportEvery is how many checks pass between two progress reports.
const reportEvery = 256

// check reads each log's transaction, receipt and block, and returns the
// events of those that agree, in the order found.
func (s *scan) check(ctx context.Context) ([]Event, error) {
	if len(s.found) == 0 {
		return nil, nil
	}
	id, err := s.r.node.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("chain id: %w", err)
	}
	c := &checker{
		scan:    s,
		node:    s.r.node,
		signer:  types.LatestSignerForChainID(id),
		headers: map[common.Hash]*headerRead{},
		symbols: map[common.Address]string{},
		events:  make([]Event, len(s.found)),
		keep:    make([]bool, len(s.found)),
	}
	for _, p := range s.found {
		if _, ok := c.symbols[p.token]; !ok && p.kind == Claim {
			c.symbols[p.token] = tokenSymbol(ctx, s.r.node, p.token)
		}
	}
	units := c.units()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var failed error
	var failOnce sync.Once
	var wg sync.WaitGroup
	for range min(checkers, len(units)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(units) {
					return
				}
				if err := c.unit(ctx, units[i]); err != nil {
					failOnce.Do(func() { failed = err; cancel() })
					return
				}
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	out := c.events[:0]
	for i, e := range c.events {
		if c.keep[i] {
			out = append(out, e)
		}
	}
	return out, nil
}

// checker holds what the checks share: the chain's signer, the blocks
// read and the tokens' symbols, and what they found.
type checker struct {
	scan    *scan
	node    Node
	signer  types.Signer
	symbols map[common.Address]string // read before the checks start

	mu      sync.Mutex
	headers map[common.Hash]*headerRead

	// The event of each log found, and whether it is kept; each index is
	// written by one check.
	events   []Event
	keep     []bool
	checked  atomic.Int64
	reportMu sync.Mutex
}

type headerRead struct {
	once   sync.Once
	header *types.Header
	err    error
}

// units groups the logs found into what one check reads: the logs of a
// block that holds at least blockAtOnce of them, or one log.
func (c *checker) units() [][]int {
	byBlock := map[common.Hash][]int{}
	var order []common.Hash
	for i, p := range c.scan.found {
		h := p.log.BlockHash
		if _, ok := byBlock[h]; !ok {
			order = append(order, h)
		}
		byBlock[h] = append(byBlock[h], i)
	}
	var units [][]int
	for _, h := range order {
		if logs := byBlock[h]; len(logs) >= blockAtOnce {
			units = append(units, logs)
			continue
		}
		for _, i := range byBlock[h] {
			units = append(units, []int{i})
		}
	}
	return units
}

// unit checks the logs of one unit and records their events.
func (c *checker) unit(ctx context.Context, logs []int) error {
	if len(logs) >= blockAtOnce {
		done, err := c.block(ctx, logs)
		if err != nil || done {
			return err
		}
		// The node cannot give a block's receipts: a log at a time.
	}
	for _, i := range logs {
		p := c.scan.found[i]
		tx, receipt, header, why, err := c.readOne(ctx, p.log)
		if err != nil {
			return err
		}
		c.record(i, p, tx, receipt, header, why)
	}
	return nil
}

// record checks log i against what was read for it, and keeps its event
// or says why not.
func (c *checker) record(i int, p pending, tx *types.Transaction, receipt *types.Receipt, header *types.Header, why string) {
	if why == "" {
		c.events[i], c.keep[i], why = c.event(p, tx, receipt, header)
	}
	if why != "" && why != otherAllocation {
		c.scan.warnf("skipped the %s in transaction %s (block %d): %s", p.kind, p.log.TxHash.Hex(), p.log.BlockNumber, why)
	}
	if n := c.checked.Add(1); n%reportEvery == 0 || int(n) == len(c.scan.found) {
		c.reportMu.Lock()
		c.scan.progress.Checked = max(c.scan.progress.Checked, int(n))
		c.scan.report()
		c.reportMu.Unlock()
	}
}

// block reads a block and all its receipts, and checks the logs of it.
// done is false when the node does not serve a block's receipts.
func (c *checker) block(ctx context.Context, logs []int) (done bool, err error) {
	first := c.scan.found[logs[0]].log
	receipts, err := c.node.BlockReceipts(ctx, rpc.BlockNumberOrHashWithHash(first.BlockHash, false))
	var answer rpc.Error
	switch {
	case errors.As(err, &answer) && answer.ErrorCode() == methodNotFound:
		return false, nil
	case errors.Is(err, ethereum.NotFound):
		receipts = nil
	case err != nil:
		return false, fmt.Errorf("receipts of block %s: %w", first.BlockHash.Hex(), err)
	}
	txs, header, err := c.blockTransactions(ctx, first.BlockHash, logs)
	if err != nil {
		return false, err
	}
	for _, i := range logs {
		p := c.scan.found[i]
		l := p.log
		var why string
		var tx *types.Transaction
		var receipt *types.Receipt
		switch n := int(l.TxIndex); {
		case header == nil || receipts == nil:
			why = fmt.Sprintf("the node does not know its block %s", l.BlockHash.Hex())
		case header.Number == nil || !header.Number.IsUint64() || header.Number.Uint64() != l.BlockNumber:
			why = fmt.Sprintf("the node's block %s is not block %d", l.BlockHash.Hex(), l.BlockNumber)
		case n >= len(receipts) || txs[l.TxIndex] == nil:
			why = fmt.Sprintf("the node gives no transaction %d of its block", n)
		default:
			tx, receipt = txs[l.TxIndex], receipts[n]
			if tx.Hash() != l.TxHash {
				why = fmt.Sprintf("the node's transaction is another one, %s", tx.Hash().Hex())
			}
		}
		c.record(i, p, tx, receipt, header, why)
	}
	return true, nil
}

// Batcher is a Node that takes JSON-RPC batches, as go-ethereum's
// rpc.Client does: a block of many claims then has only its claims'
// transactions read, raw, in a few requests, rather than the whole block
// decoded from JSON.
type Batcher interface {
	BatchCallContext(ctx context.Context, batch []rpc.BatchElem) error
}

// Client is c as a Node that takes batches.
func Client(c *ethclient.Client) Node { return batching{c} }

type batching struct{ *ethclient.Client }

func (b batching) BatchCallContext(ctx context.Context, batch []rpc.BatchElem) error {
	return b.Client.Client().BatchCallContext(ctx, batch)
}

// maxBatch bounds the requests of one batch: nodes take 100 at least.
const maxBatch = 100

// errNoRawTransactions: the node does not serve raw transactions in
// batches; the whole block is read instead.
var errNoRawTransactions = errors.New("no raw transactions in batches")

// blockTransactions reads the transactions of the logs' block that hold
// them, by their index, and the block's header; a nil header when the
// node does not know the block.
func (c *checker) blockTransactions(ctx context.Context, hash common.Hash, logs []int) (map[uint]*types.Transaction, *types.Header, error) {
	if b, ok := c.node.(Batcher); ok {
		txs, err := c.rawTransactions(ctx, b, hash, logs)
		if err == nil {
			header, err := c.header(ctx, hash)
			if errors.Is(err, ethereum.NotFound) {
				return nil, nil, nil
			}
			if err != nil {
				return nil, nil, fmt.Errorf("block %s: %w", hash.Hex(), err)
			}
			return txs, header, nil
		}
		if !errors.Is(err, errNoRawTransactions) {
			return nil, nil, err
		}
	}
	block, err := c.node.BlockByHash(ctx, hash)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("block %s: %w", hash.Hex(), err)
	}
	txs := map[uint]*types.Transaction{}
	for _, i := range logs {
		if n := c.scan.found[i].log.TxIndex; int(n) < len(block.Transactions()) {
			txs[n] = block.Transactions()[n]
		}
	}
	return txs, block.Header(), nil
}

// rawTransactions reads the transactions of the logs by their index in
// the block, raw, in batches. One the node does not give, or that does
// not decode, is left out: its log's check says so.
func (c *checker) rawTransactions(ctx context.Context, b Batcher, hash common.Hash, logs []int) (map[uint]*types.Transaction, error) {
	var indexes []uint
	for _, i := range logs {
		if n := c.scan.found[i].log.TxIndex; !slices.Contains(indexes, n) {
			indexes = append(indexes, n)
		}
	}
	txs := map[uint]*types.Transaction{}
	for start := 0; start < len(indexes); start += maxBatch {
		chunk := indexes[start:min(start+maxBatch, len(indexes))]
		raws := make([]hexutil.Bytes, len(chunk))
		batch := make([]rpc.BatchElem, len(chunk))
		for i, n := range chunk {
			batch[i] = rpc.BatchElem{Method: "eth_getRawTransactionByBlockHashAndIndex", Args: []any{hash, hexutil.Uint64(n)}, Result: &raws[i]}
		}
		err := b.BatchCallContext(ctx, batch)
		var answer rpc.Error
		var status rpc.HTTPError
		switch {
		case errors.As(err, &answer), errors.As(err, &status):
			return nil, errNoRawTransactions // no batches here
		case err != nil:
			return nil, fmt.Errorf("transactions of block %s: %w", hash.Hex(), err)
		}
		for i, elem := range batch {
			switch {
			case errors.As(elem.Error, &answer) && answer.ErrorCode() == methodNotFound:
				return nil, errNoRawTransactions
			case elem.Error != nil:
				return nil, fmt.Errorf("transaction %d of block %s: %w", chunk[i], hash.Hex(), elem.Error)
			case len(raws[i]) == 0:
				continue
			}
			tx := new(types.Transaction)
			if tx.UnmarshalBinary(raws[i]) == nil {
				txs[chunk[i]] = tx
			}
		}
	}
	return txs, nil
}

// methodNotFound is the JSON-RPC error of a method a node does not have.
const methodNotFound = -32601

// header reads a block's header once, however many logs it holds.
func (c *checker) header(ctx context.Context, hash common.Hash) (*types.Header, error) {
	c.mu.Lock()
	r, ok := c.headers[hash]
	if !ok {
		r = &headerRead{}
		c.headers[hash] = r
	}
	c.mu.Unlock()
	r.once.Do(func() { r.header, r.err = c.node.HeaderByHash(ctx, hash) })
	return r.header, r.err
}

// readOne reads a log's transaction, receipt and block header. why says
// what the node answered that does not fit the log; err is a failure to
// read (the node down, ctx ended).
func (c *checker) readOne(ctx context.Context, l types.Log) (tx *types.Transaction, receipt *types.Receipt, header *types.Header, why string, err error) {
	tx, _, err = c.node.TransactionByHash(ctx, l.TxHash)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return nil, nil, nil, "the node does not know the transaction of its log", nil
	case err != nil:
		return nil, nil, nil, "", fmt.Errorf("transaction %s: %w", l.TxHash.Hex(), err)
	case tx.Hash() != l.TxHash:
		return nil, nil, nil, fmt.Sprintf("the node's transaction is another one, %s", tx.Hash().Hex()), nil
	}
	receipt, err = c.node.TransactionReceipt(ctx, l.TxHash)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return nil, nil, nil, "the node has no receipt for it", nil
	case err != nil:
		return nil, nil, nil, "", fmt.Errorf("receipt of %s: %w", l.TxHash.Hex(), err)
	}
	header, err = c.header(ctx, l.BlockHash)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return nil, nil, nil, fmt.Sprintf("the node does not know its block %s", l.BlockHash.Hex()), nil
	case err != nil:
		return nil, nil, nil, "", fmt.Errorf("block %s: %w", l.BlockHash.Hex(), err)
	case header.Number == nil || !header.Number.IsUint64() || header.Number.Uint64() != l.BlockNumber:
		return nil, nil, nil, fmt.Sprintf("the node's block %s is not block %d", l.BlockHash.Hex(), l.BlockNumber), nil
	}
	return tx, receipt, header, "", nil
}

// otherAllocation is event's answer for another allocation's claim, which
// is no warning: its tokens went to the same address.
const otherAllocation = "another allocation's"

// event checks a log against its transaction, receipt and block, and
// makes its event; why says what does not agree.
func (c *checker) event(p pending, tx *types.Transaction, receipt *types.Receipt, header *types.Header) (e Event, ok bool, why string) {
	l := p.log
	if why := disagreement(receipt, l); why != "" {
		return Event{}, false, "its receipt disagrees with its log: " + why
	}
	sender, err := types.Sender(c.signer, tx)
	if err != nil {
		return Event{}, false, fmt.Sprintf("its sender cannot be recovered: %v", err)
	}
	e = Event{
		Kind:     p.kind,
		Time:     time.Unix(int64(header.Time), 0).UTC(),
		Block:    l.BlockNumber,
		TxIndex:  l.TxIndex,
		LogIndex: l.Index,
		Tx:       l.TxHash,
		Sender:   sender,
		Vester:   p.vester,
	}
	if p.kind != Claim {
		e.Allocation = sanitize.Truncate(p.allocation, maxAllocationID)
		e.NewBeneficiary = p.newBeneficiary
		return e, true, ""
	}
	recipient, clean := topicAddress(l.Topics[2])
	if len(l.Topics) != 3 || len(l.Data) != 32 || !clean {
		return Event{}, false, "the log is not an ERC-20 Transfer"
	}
	if to := tx.To(); to == nil || *to != p.vester {
		return Event{}, false, fmt.Sprintf("the transaction is not a call of vester %s (a contract may have called it: its input cannot name the allocation)", p.vester.Hex())
	}
	w, err := decodeWithdraw(tx.Data())
	if err != nil {
		return Event{}, false, err.Error()
	}
	if c.scan.allocation != "" && w.allocation != c.scan.allocation {
		return Event{}, false, otherAllocation
	}
	if w.handler != (common.Address{}) && w.handler != recipient {
		return Event{}, false, fmt.Sprintf("the withdraw names post-claim handler %s, the tokens went to %s", w.handler.Hex(), recipient.Hex())
	}
	e.Allocation = sanitize.Truncate(w.allocation, maxAllocationID)
	e.Token, e.Symbol = p.token, c.symbols[p.token]
	e.Amount = new(big.Int).SetBytes(l.Data)
	e.Recipient = recipient
	e.Handler = w.handler != (common.Address{})
	e.Fee = tx.Value()
	if e.Gas, why = gasPaid(tx, receipt, header); why != "" {
		return Event{}, false, why
	}
	return e, true, ""
}

// gasPaid is what a transaction's gas cost its sender, in wei: the
// receipt's gasUsed times its effectiveGasPrice. A node that states no
// effectiveGasPrice (older ones) has it computed as the chain does, from
// the transaction's fee caps and the block's base fee. Both numbers come
// from the node, so both are held to what the sender signed: no more gas
// than its limit, no higher price than its fee cap. A tighter check (the
// price exactly base fee plus tip) would refuse chains that price gas
// otherwise, as some rollups do.
func gasPaid(tx *types.Transaction, receipt *types.Receipt, header *types.Header) (*big.Int, string) {
	if receipt.GasUsed > tx.Gas() {
		return nil, fmt.Sprintf("its receipt says it used %d gas, more than its limit of %d", receipt.GasUsed, tx.Gas())
	}
	price := receipt.EffectiveGasPrice
	if price == nil {
		price = tx.GasFeeCap() // a legacy transaction's gas price
		if header.BaseFee != nil {
			price = bigMin(price, new(big.Int).Add(header.BaseFee, tx.GasTipCap()))
		}
	}
	if price.Cmp(tx.GasFeeCap()) > 0 {
		return nil, fmt.Sprintf("its receipt's gas price %s wei is above the %s wei its sender allowed", price, tx.GasFeeCap())
	}
	return new(big.Int).Mul(new(big.Int).SetUint64(receipt.GasUsed), price), ""
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// maxAllocationID bounds an allocation id as shown: a UUID has 36
// characters; the chain may hold anything.
const maxAllocationID = 80

// disagreement says how a receipt contradicts the log it should hold, or
// "" when it holds it: the same transaction and block, a success, and the
// log itself at its index.
func disagreement(r *types.Receipt, l types.Log) string {
	switch {
	case r.TxHash != l.TxHash:
		return "it is the receipt of " + r.TxHash.Hex()
	case r.BlockHash != l.BlockHash || r.BlockNumber == nil || !r.BlockNumber.IsUint64() || r.BlockNumber.Uint64() != l.BlockNumber:
		return "it is in another block"
	case r.TransactionIndex != l.TxIndex:
		return "another place in the block"
	case r.Status != types.ReceiptStatusSuccessful:
		return "the transaction failed, so it moved nothing"
	}
	for _, got := range r.Logs {
		if got.Index != l.Index {
			continue
		}
		if got.Address != l.Address || !bytes.Equal(got.Data, l.Data) || !equalTopics(got.Topics, l.Topics) {
			return fmt.Sprintf("its log %d is another one", l.Index)
		}
		return ""
	}
	return fmt.Sprintf("it holds no log %d", l.Index)
}

func equalTopics(a, b []common.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withdrawal is what the history reads from a withdraw's input.
type withdrawal struct {
	allocation string
	handler    common.Address // zero for the direct withdraw
}

// decodeWithdraw reads either withdraw of the production vester (D18).
// Input that is not the canonical encoding of what it decodes to is
// refused: the vester's own decoder could read something else from it.
func decodeWithdraw(data []byte) (withdrawal, error) {
	if len(data) < 4 || len(data) > wallet.MaxCalldata {
		return withdrawal{}, fmt.Errorf("its input (%d bytes) is not a withdraw", len(data))
	}
	var m abi.Method
	switch {
	case bytes.Equal(data[:4], withdrawDirect.ID):
		m = withdrawDirect
	case bytes.Equal(data[:4], withdrawHandler.ID):
		m = withdrawHandler
	default:
		return withdrawal{}, fmt.Errorf("its input (selector %x) is not a withdraw", data[:4])
	}
	values, err := unpack(m.Inputs, data[4:])
	if err != nil {
		return withdrawal{}, fmt.Errorf("its withdraw input does not decode: %v", err)
	}
	if again, err := m.Inputs.Pack(values...); err != nil || !bytes.Equal(again, data[4:]) {
		return withdrawal{}, errors.New("its withdraw input is not in the canonical encoding")
	}
	decodable, _ := values[2].([]byte)
	args, err := vesting.Decode(decodable)
	if err != nil {
		return withdrawal{}, fmt.Errorf("the allocation in its withdraw does not decode: %v", err)
	}
	w := withdrawal{allocation: args.Allocation.ID}
	if len(values) == 6 {
		w.handler, _ = values[4].(common.Address)
	}
	return w, nil
}

// vesterToken reads the token a vester pays out. A contract that reverts
// or answers nothing is not a vester (ErrNotVester).
func vesterToken(ctx context.Context, node Node, vester common.Address) (common.Address, error) {
	out, err := call(ctx, node, vesterABI, vester, "token")
	if errors.Is(err, errNoAnswer) {
		return common.Address{}, fmt.Errorf("vester %s: %w: %v", vester.Hex(), ErrNotVester, err)
	}
	if err != nil {
		return common.Address{}, err
	}
	token, ok := out[0].(common.Address)
	if !ok || token == (common.Address{}) {
		return common.Address{}, fmt.Errorf("vester %s: %w", vester.Hex(), ErrNotVester)
	}
	return token, nil
}

// postClaimHandlers reads the vester's whitelist of post-claim handlers;
// a vester without one has none.
func postClaimHandlers(ctx context.Context, node Node, vester common.Address) ([]common.Address, error) {
	out, err := call(ctx, node, vesterABI, vester, "getPostClaimHandlers")
	if errors.Is(err, errNoAnswer) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	handlers, _ := out[0].([]common.Address)
	if len(handlers) > maxRecipients {
		return nil, fmt.Errorf("vester %s lists %d post-claim handlers, more than %d", vester.Hex(), len(handlers), maxRecipients)
	}
	return handlers, nil
}

// maxSymbol bounds a token's symbol as shown.
const maxSymbol = 20

// tokenSymbol reads a token's symbol; "" when it has none or the read
// fails: the symbol only labels amounts, the token's address names it.
func tokenSymbol(ctx context.Context, node Node, token common.Address) string {
	out, err := call(ctx, node, tokenABI, token, "symbol")
	if err != nil {
		return ""
	}
	symbol, _ := out[0].(string)
	return sanitize.Truncate(strings.TrimSpace(symbol), maxSymbol)
}

// errNoAnswer: a contract reverted a view call, or answered nothing (no
// code) or what does not decode.
var errNoAnswer = errors.New("no answer")

// call runs a view function. A revert or an answer that is not one is
// errNoAnswer; a failure to reach the node is returned as it is.
func call(ctx context.Context, node Node, contract abi.ABI, to common.Address, method string) ([]any, error) {
	data, err := contract.Pack(method)
	if err != nil {
		return nil, err
	}
	raw, err := node.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		if _, reverted := revert.Data(err); reverted || strings.Contains(err.Error(), "revert") {
			return nil, fmt.Errorf("%s at %s reverted: %w", method, to.Hex(), errNoAnswer)
		}
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	out, err := contract.Unpack(method, raw)
	if err != nil || len(out) != 1 {
		return nil, fmt.Errorf("%s() at %s: %w", method, to.Hex(), errNoAnswer)
	}
	return out, nil
}
