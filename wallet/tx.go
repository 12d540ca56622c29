package wallet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"allot/internal/sanitize"
	"allot/wallet/revert"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// GasMarginPercent is added to a gas estimate: state can change between the
// estimate and the block that takes the transaction.
const GasMarginPercent = 20

// DependentGasLimit is the gas limit of a call that cannot be estimated
// because it depends on an earlier transaction of the same batch that is
// not mined yet (a stake reverts in an estimate before the approve it needs
// is mined), when the node cannot simulate the batch either. A first stake
// takes about 720,000 gas on the sandbox chain, whose forks price new
// storage high; unused gas is not charged.
const DependentGasLimit = 1_000_000

// BuildOptions configure Build.
type BuildOptions struct {
	// ChainID is the profile's chain: the node and every call must be on it.
	ChainID uint64
	// From is the account that will sign.
	From common.Address
	// Known labels the contracts the user trusts as targets (see
	// DecodeOptions).
	Known map[common.Address]string
	// Units names the token each target's amounts are in (see
	// DecodeOptions).
	Units map[common.Address]string
	// GasLimit, when not zero, is used instead of an estimate.
	GasLimit uint64
	// MaxGasFee is the most a transaction's gas may cost, in wei (the
	// profile's max_gas_fee); nil is DefaultMaxGasFee.
	MaxGasFee *big.Int
}

// Draft is a transaction built for review: what it does and the unsigned
// EIP-1559 transaction.
type Draft struct {
	Summary *Summary
	Tx      *types.Transaction // unsigned
	From    common.Address
	// GasEstimated is false when the gas limit was given, or could be
	// neither estimated nor simulated (see DependentGasLimit).
	GasEstimated bool
	// GasFallback: the gas limit is DependentGasLimit, a fallback and not
	// an estimate, because the node could not simulate the batch.
	GasFallback bool
	// approved: Build made the draft from calls the signing policy
	// approved; Sign signs nothing else.
	approved bool
}

// RevertError is a call that reverted before anything was sent: in a gas
// estimate.
type RevertError struct {
	// Reason is the decoded revert, Name(arg: value, ...), or the node's
	// words when it sent no revert data.
	Reason string
}

func (e *RevertError) Error() string { return "reverted: " + e.Reason }

// Build turns the calls the signing policy approved (CheckClaim,
// CheckStake) into drafts of consecutive nonces, in order. It checks
// before anything is signed that the node, and every call that names a
// chain, are on the profile's chain, and that every call is meant for the
// signing account; then it takes the pending nonce, estimates gas with
// GasMarginPercent more, and sets the fee caps from the node: the suggested
// tip, and twice the latest base fee plus the tip as the cap.
//
// What the node proposes is held to ceilings, and the batch to what the
// account has: a tip out of proportion (checkTip), a gas limit above its
// kind of call's or gas dearer than opts.MaxGasFee (checkGas), a stake the
// account's tokens or allowance cannot pay (checkTokens), or a batch that
// may take more ether than the account holds (checkNative) is a
// *RefusedError with every reason found, and no draft.
func Build(ctx context.Context, node Node, approved *Approval, opts BuildOptions) ([]*Draft, error) {
	if approved == nil {
		return nil, fmt.Errorf("build transactions: %w: nothing was approved", ErrRefused)
	}
	drafts, err := build(ctx, node, approved.Subject, approved.calls, opts)
	for _, d := range drafts {
		d.approved = true
	}
	return drafts, err
}

func build(ctx context.Context, node Node, subject string, calls []Call, opts BuildOptions) ([]*Draft, error) {
	if len(calls) == 0 {
		return nil, errors.New("build transactions: no calls")
	}
	for i, c := range calls {
		if c.ChainID != 0 && c.ChainID != opts.ChainID {
			return nil, fmt.Errorf("build transaction %d: %w: it is for chain %d, the profile's chain is %d", i+1, ErrWrongChain, c.ChainID, opts.ChainID)
		}
		if c.From != opts.From {
			return nil, fmt.Errorf("build transaction %d: %w: it is for %s, the signing account is %s", i+1, ErrWrongSender, c.From.Hex(), opts.From.Hex())
		}
	}
	nodeChain, err := node.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("build transactions: node chain id: %w", err)
	}
	if !nodeChain.IsUint64() || nodeChain.Uint64() != opts.ChainID {
		return nil, fmt.Errorf("build transactions: %w: the node is on chain %s, the profile's chain is %d", ErrWrongChain, nodeChain, opts.ChainID)
	}
	if subject == "" {
		subject = "transactions"
	}
	refused := &RefusedError{Subject: subject}
	// Before any estimate: a stake after its approve fails in a
	// simulation for want of tokens, and the refusal says so in words.
	checkTokens(ctx, node, opts.From, calls, refused)
	if err := refused.err(); err != nil {
		return nil, err
	}
	nonce, err := node.PendingNonceAt(ctx, opts.From)
	if err != nil {
		return nil, fmt.Errorf("build transactions: nonce of %s: %w", opts.From.Hex(), err)
	}
	p, err := priceOf(ctx, node)
	if err != nil {
		return nil, fmt.Errorf("build transactions: %w", err)
	}
	checkTip(ctx, node, p, refused)
	if err := checkFeeCap(ctx, node, p, refused); err != nil {
		return nil, fmt.Errorf("build transactions: the recent blocks' base fees: %w", err)
	}
	chainID := new(big.Int).SetUint64(opts.ChainID)
	drafts := make([]*Draft, len(calls))
	var batch *batchGas
	for i, c := range calls {
		summary := DecodeCall(ctx, c, DecodeOptions{Signer: opts.From, ChainID: opts.ChainID, Known: opts.Known, Chain: node, Units: opts.Units})
		d := &Draft{Summary: summary, From: opts.From}
		gas := opts.GasLimit
		if gas == 0 {
			if gas, err = estimateGas(ctx, node, summary.Call); err == nil {
				d.GasEstimated = true
			} else {
				var revert *RevertError
				if i == 0 || !errors.As(err, &revert) {
					return nil, fmt.Errorf("build transaction %d (%s): %w", i+1, summary.Title(), err)
				}
				// It may only fail for want of the transactions before it.
				if batch == nil {
					batch = simulateBatch(ctx, node, calls)
				}
				if gas, d.GasEstimated, err = batch.gas(i); err != nil {
					return nil, fmt.Errorf("build transaction %d (%s): %w", i+1, summary.Title(), err)
				}
				d.GasFallback = !d.GasEstimated
			}
		}
		to := c.To
		d.Tx = types.NewTx(&types.DynamicFeeTx{
			ChainID:   chainID,
			Nonce:     nonce + uint64(i),
			GasTipCap: p.tip,
			GasFeeCap: p.feeCap,
			Gas:       gas,
			To:        &to,
			Value:     summary.Call.Value,
			Data:      c.Data,
		})
		drafts[i] = d
	}
	maxGasFee := opts.MaxGasFee
	if maxGasFee == nil {
		maxGasFee = DefaultMaxGasFee
	}
	checkGas(drafts, maxGasFee, refused)
	checkNative(ctx, node, opts.From, drafts, refused)
	if err := refused.err(); err != nil {
		return nil, err
	}
	return drafts, nil
}

// simulator is what go-ethereum's ethclient.Client offers beyond Node:
// eth_simulateV1 runs calls one after the other on the latest state, so a
// stake is measured after the approve before it.
type simulator interface {
	SimulateV1(ctx context.Context, opts ethclient.SimulateOptions, block *rpc.BlockNumberOrHash) ([]ethclient.SimulateBlockResult, error)
}

// batchGas is what a simulation of a batch found for each call: the gas it
// took, or why it failed. With no simulation, both are empty.
type batchGas struct {
	used    []uint64
	reasons []string
}

func simulateBatch(ctx context.Context, node Node, calls []Call) *batchGas {
	b := &batchGas{}
	sim, ok := node.(simulator)
	if !ok {
		return b
	}
	msgs := make([]ethereum.CallMsg, len(calls))
	for i, c := range calls {
		msgs[i] = ethereum.CallMsg{From: c.From, To: &c.To, Value: c.Value, Data: c.Data}
	}
	latest := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
	results, err := sim.SimulateV1(ctx, ethclient.SimulateOptions{BlockStateCalls: []ethclient.SimulateBlock{{Calls: msgs}}}, &latest)
	if err != nil || len(results) != 1 || len(results[0].Calls) != len(calls) {
		return b // not supported by the node, or not understood: fall back
	}
	b.used, b.reasons = make([]uint64, len(calls)), make([]string, len(calls))
	for i, r := range results[0].Calls {
		if r.Status == types.ReceiptStatusSuccessful && r.Error == nil {
			b.used[i] = max(r.MaxUsedGas, r.GasUsed)
			continue
		}
		b.reasons[i] = "reverted"
		if r.Error != nil {
			b.reasons[i] = sanitize.Truncate(r.Error.Message, maxRevertString)
			if data, err := hexutil.Decode(r.Error.Data); err == nil {
				if rev, err := revert.Decode(data); err == nil {
					b.reasons[i] = explainRevert(rev)
				}
			}
		}
	}
	return b
}

// gas returns call i's gas limit: its simulated use plus the margin, or
// DependentGasLimit when there was no simulation. A call that failed in
// the simulation, after the calls before it, is a *RevertError.
func (b *batchGas) gas(i int) (limit uint64, estimated bool, err error) {
	switch {
	case b.used == nil:
		return DependentGasLimit, false, nil
	case b.reasons[i] != "":
		return 0, false, fmt.Errorf("simulate after the transactions before it: %w", &RevertError{Reason: b.reasons[i]})
	}
	return b.used[i] + b.used[i]*GasMarginPercent/100, true, nil
}

func estimateGas(ctx context.Context, node Node, c Call) (uint64, error) {
	gas, err := node.EstimateGas(ctx, ethereum.CallMsg{From: c.From, To: &c.To, Value: c.Value, Data: c.Data})
	if err != nil {
		if reason, ok := revertReason(err); ok {
			return 0, fmt.Errorf("estimate gas: %w", &RevertError{Reason: reason})
		}
		return 0, fmt.Errorf("estimate gas: %w", err)
	}
	return gas + gas*GasMarginPercent/100, nil
}

// Sign signs the draft with signer. It refuses a draft the signing policy
// did not approve, and a signer that is not the draft's account; and it
// checks that the signature is the signer's over this very transaction for
// this chain.
func (d *Draft) Sign(signer Signer) (*types.Transaction, error) {
	if !d.approved {
		return nil, fmt.Errorf("sign %s: %w: the signing policy did not approve it", d.Summary.Title(), ErrRefused)
	}
	if signer.Address() != d.From {
		return nil, fmt.Errorf("sign %s: %w: built for %s, the signer is %s", d.Summary.Title(), ErrWrongSender, d.From.Hex(), signer.Address().Hex())
	}
	chainID := d.Tx.ChainId()
	signed, err := signer.SignTx(d.Tx, chainID)
	if err != nil {
		return nil, fmt.Errorf("sign %s: %w", d.Summary.Title(), err)
	}
	s := types.LatestSignerForChainID(chainID)
	if s.Hash(signed) != s.Hash(d.Tx) {
		return nil, fmt.Errorf("sign %s: the signer changed the transaction", d.Summary.Title())
	}
	if from, err := types.Sender(s, signed); err != nil || from != d.From {
		return nil, fmt.Errorf("sign %s: the signature is not %s's for chain %s", d.Summary.Title(), d.From.Hex(), chainID)
	}
	return signed, nil
}

// Send sends a signed transaction. A node that already has it is not an
// error. When Send fails it is not always known whether the node took the
// transaction (a timeout after sending): track its hash to find out before
// sending anything again.
func Send(ctx context.Context, node Node, tx *types.Transaction) error {
	if err := node.SendTransaction(ctx, tx); err != nil {
		// geth says "already known", other nodes "known transaction".
		if msg := err.Error(); strings.Contains(msg, "already known") || strings.Contains(msg, "known transaction") {
			return nil
		}
		return fmt.Errorf("send transaction %s: %w", tx.Hash().Hex(), err)
	}
	return nil
}
