package wallet

import (
	"allot/wallet/safe"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"allot/internal/sanitize"
	"allot/wallet/merkle"
	"allot/wallet/vesterabi"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Summary is a call decoded for the user to read before signing it: what
// it calls, with which arguments, what it pays, and what looks wrong.
type Summary struct {
	Call Call
	// Contract names the kind of contract the method belongs to ("vester",
	// "staking pool", "ERC-20 token"); empty when the calldata is unknown.
	Contract string
	// Known is the label the caller gave To, empty when To is not a known
	// contract.
	Known string
	// Method is the function called, Signature its full signature; both
	// empty when the calldata is unknown.
	Method    string
	Signature string
	Args      []Arg
	// Withdraw details a vester withdraw; nil for other calls.
	Withdraw *Withdrawal
	// Inner are the calls of a vester multicall, each decoded as a call
	// of its own to the same vester, sending nothing; nil for other calls.
	Inner []*Summary
	// Pays names the fee the ether sent is ("claim fee", "platform fee")
	// when the chain says the contract asks exactly that; empty when it
	// was not read or differs, which a warning says.
	Pays string
	// Unit is the symbol of the token the call's amounts are in ("MRD");
	// empty when the caller did not know it, and the amounts read "tokens".
	Unit     string
	Warnings []Warning
}

// Arg is one argument of a call, written for display.
type Arg struct {
	Name string
	Type string
	// Value is the argument as written in the call: base units for amounts,
	// checksummed addresses, hex for bytes.
	Value string
	// Units is an amount in token units (18 decimals); empty for arguments
	// that are not amounts.
	Units string
}

// Withdrawal is what a vester withdraw (D8) carries, decoded.
type Withdrawal struct {
	Amount      *big.Int // base units
	RootIndex   uint32
	ProofLength int
	Leaf        common.Hash
	// Allocation is the leaf's content; nil when decodableArgs do not
	// decode.
	Allocation *vesting.Args
	// ComputedRoot is the proof folded from Leaf, OnChainRoot the vester's
	// root at RootIndex when it could be read.
	ComputedRoot common.Hash
	OnChainRoot  *common.Hash
}

// WarningKind tells warnings apart.
type WarningKind string

// The warnings of DecodeCall.
const (
	// WarnUnknownCalldata: the calldata is not a call allot knows, or not
	// its canonical encoding. The signing policy refuses such a call.
	WarnUnknownCalldata WarningKind = "unknown-calldata"
	// WarnUnknownContract: To is not one of the contracts the caller knows.
	WarnUnknownContract WarningKind = "unknown-contract"
	// WarnWrongSender: the call is meant to come from another account than
	// the one signing.
	WarnWrongSender WarningKind = "wrong-sender"
	// WarnNotBeneficiary: the tokens of a withdraw reach another account
	// than the one signing. Anyone may send a withdraw (D16); the tokens go
	// to the allocation's withdrawal address (the leaf's beneficiary until
	// it is transferred, D18), not to the signer.
	WarnNotBeneficiary WarningKind = "not-beneficiary"
	// WarnMalformedLeaf: the withdraw's decodableArgs do not decode.
	WarnMalformedLeaf WarningKind = "malformed-leaf"
	// WarnProofInvalid: the withdraw's proof does not lead to the vester's
	// root.
	WarnProofInvalid WarningKind = "proof-invalid"
	// WarnFeeMismatch: the value sent is not the fee the contract takes.
	WarnFeeMismatch WarningKind = "fee-mismatch"
	// WarnWrongChain: the call is meant for another chain than the
	// profile's.
	WarnWrongChain WarningKind = "wrong-chain"
	// WarnUnchecked: something could not be checked against the chain.
	WarnUnchecked WarningKind = "unchecked"
	// WarnHandler: a withdraw through a post-claim handler: the tokens go
	// to the handler contract, not to a wallet (D18).
	WarnHandler WarningKind = "post-claim-handler"
)

// Warning is one thing about a call the user should know before signing.
type Warning struct {
	Kind    WarningKind
	Message string // plain words, one line, safe for a terminal
}

func (w Warning) String() string { return w.Message }

// Has reports whether the summary carries a warning of kind k.
func (s *Summary) Has(k WarningKind) bool {
	return slices.ContainsFunc(s.Warnings, func(w Warning) bool { return w.Kind == k })
}

// Decoded reports whether the calldata is a call allot knows.
func (s *Summary) Decoded() bool { return s.Method != "" }

// Title names the call in a few words: "vester withdraw", or "unknown call
// to 0x...".
func (s *Summary) Title() string {
	if !s.Decoded() {
		return "unknown call to " + s.Call.To.Hex()
	}
	return s.Contract + " " + s.Method
}

// ValueEther is the value sent, in ether.
func (s *Summary) ValueEther() string { return FormatUnits(s.Call.Value) }

func (s *Summary) selectorHex() string {
	if len(s.Call.Data) < 4 {
		return hexutil.Encode(s.Call.Data)
	}
	return hexutil.Encode(s.Call.Data[:4])
}

// DecodeOptions configure DecodeCall.
type DecodeOptions struct {
	// Signer is the account that is to sign the call.
	Signer common.Address
	// ChainID is the profile's chain.
	ChainID uint64
	// Known labels the contracts the caller trusts as targets: the
	// distribution contracts and staking pools from the service's lists,
	// and the tokens they use.
	Known map[common.Address]string
	// Chain, when set, is asked for the vester's root and fees.
	Chain ethereum.ContractCaller
	// Units names the token a contract's amounts are in, by the call's
	// target (Summary.Unit).
	Units map[common.Address]string
}

// knownMethod is a call allot can decode.
type knownMethod struct {
	contract string
	method   abi.Method
	// amounts names the arguments that are token amounts.
	amounts []string
}

var knownMethods = func() map[[4]byte]knownMethod {
	out := map[[4]byte]knownMethod{}
	add := func(contract string, a abi.ABI, name string, amounts ...string) {
		m := a.Methods[name]
		out[[4]byte(m.ID)] = knownMethod{contract: contract, method: m, amounts: amounts}
	}
	add("vester", vesterABI, vesterabi.Withdraw, "withdrawalAmount")
	add("vester", vesterABI, vesterabi.WithdrawHandler, "withdrawalAmount")
	add("vester", vesterABI, vesterabi.Multicall)
	add("vester", vesterABI, vesterabi.TransferBeneficiary)
	add("staking pool", stakingABI, "stake", "amount")
	add("ERC-20 token", tokenABI, "approve", "value")
	add("ERC-20 token", tokenABI, "transfer", "value")
	add("Safe", safe.ExecABI, "execTransaction")
	return out
}()

// DecodeCall decodes c for review. It never fails: what it cannot decode or
// check becomes a warning.
func DecodeCall(ctx context.Context, c Call, opts DecodeOptions) *Summary {
	s := &Summary{Call: c}
	if s.Call.Value == nil {
		s.Call.Value = new(big.Int)
	}
	s.Known = sanitize.Line(opts.Known[c.To])
	s.Unit = sanitize.Line(opts.Units[c.To])
	if _, ok := opts.Known[c.To]; !ok {
		s.warn(WarnUnknownContract, "%s is not a contract allot knows for this profile", c.To.Hex())
	}
	if c.ChainID != 0 && c.ChainID != opts.ChainID {
		s.warn(WarnWrongChain, "the call is for chain %d, the profile's chain is %d", c.ChainID, opts.ChainID)
	}
	if c.From != opts.Signer {
		s.warn(WarnWrongSender, "the call is meant to be sent by %s, not by the signing account %s", c.From.Hex(), opts.Signer.Hex())
	}
	m, values, ok := decodeKnown(c.Data)
	if !ok {
		s.warn(WarnUnknownCalldata, "the calldata (selector %s, %d bytes) is not a call allot knows", s.selectorHex(), len(c.Data))
		return s
	}
	s.Contract, s.Method, s.Signature = m.contract, m.method.RawName, m.method.Sig
	for i, in := range m.method.Inputs {
		s.Args = append(s.Args, newArg(in, values[i], slices.Contains(m.amounts, in.Name)))
	}
	switch m.method.RawName {
	case "withdraw":
		s.checkWithdraw(ctx, values, opts)
	case "stake":
		s.checkFee(ctx, opts, "platform fee", PlatformFee)
	case vesterabi.Multicall:
		s.decodeInner(ctx, values, opts)
	default: // approve and transfer take no native coin
		if s.Call.Value.Sign() != 0 {
			s.warn(WarnFeeMismatch, "the call sends %s ether to a token, which takes none", s.ValueEther())
		}
	}
	return s
}

// decodeKnown decodes calldata of a known method. Calldata that decodes but
// is not the canonical encoding of what it decodes to (trailing bytes,
// dirty padding) is refused: what the user reads must be all it does.
func decodeKnown(data []byte) (m knownMethod, values []any, ok bool) {
	if len(data) < 4 || len(data) > MaxCalldata {
		return knownMethod{}, nil, false
	}
	m, ok = knownMethods[[4]byte(data[:4])]
	if !ok {
		return knownMethod{}, nil, false
	}
	// The ABI decoder trusts offsets more than it should on some inputs.
	defer func() {
		if recover() != nil {
			m, values, ok = knownMethod{}, nil, false
		}
	}()
	values, err := m.method.Inputs.Unpack(data[4:])
	if err != nil {
		return knownMethod{}, nil, false
	}
	again, err := m.method.Inputs.Pack(values...)
	if err != nil || !bytes.Equal(again, data[4:]) {
		return knownMethod{}, nil, false
	}
	return m, values, true
}

func newArg(in abi.Argument, v any, amount bool) Arg {
	a := Arg{Name: in.Name, Type: in.Type.String()}
	switch v := v.(type) {
	case *big.Int:
		a.Value = v.String()
		if amount {
			a.Units = FormatUnits(v)
		}
	case common.Address:
		a.Value = v.Hex()
	case []byte:
		a.Value = fmt.Sprintf("%d bytes", len(v))
	case [][32]byte:
		a.Value = fmt.Sprintf("%d hashes", len(v))
	case [][]byte:
		a.Value = fmt.Sprintf("%d calls, each below", len(v))
	default:
		a.Value = sanitize.Truncate(fmt.Sprint(v), 80)
	}
	return a
}

func (s *Summary) checkWithdraw(ctx context.Context, values []any, opts DecodeOptions) {
	// Unpack yields these types for uint256, uint32, bytes and bytes32[].
	amount, _ := values[0].(*big.Int)
	rootIndex, _ := values[1].(uint32)
	decodableArgs, _ := values[2].([]byte)
	nodes, _ := values[3].([][32]byte)
	w := &Withdrawal{Amount: amount, RootIndex: rootIndex, ProofLength: len(nodes), Leaf: merkle.Leaf(decodableArgs)}
	s.Withdraw = w
	proof := make([]common.Hash, len(nodes))
	for i, n := range nodes {
		proof[i] = n
	}
	w.ComputedRoot = merkle.ProcessProof(w.Leaf, proof)
	if len(values) == 6 {
		if handler, _ := values[4].(common.Address); handler != (common.Address{}) {
			s.warn(WarnHandler, "the tokens go to handler contract %s, not to your wallet", handler.Hex())
		}
	}
	if args, err := vesting.Decode(decodableArgs); err != nil {
		s.warn(WarnMalformedLeaf, "the allocation in the call does not decode: %v", err)
	} else {
		w.Allocation = &args
		s.checkRecipient(ctx, args, opts)
	}
	if opts.Chain == nil {
		s.warn(WarnUnchecked, "no chain connection: the proof and the claim fee are not checked")
		return
	}
	switch root, err := MerkleRoot(ctx, opts.Chain, s.Call.To, rootIndex); {
	case errors.Is(err, ErrNoRoot):
		w.OnChainRoot = &root
		s.warn(WarnProofInvalid, "the vester has no root number %d", rootIndex)
	case err != nil:
		s.warn(WarnUnchecked, "could not read the vester's root %d: %v", rootIndex, err)
	case len(proof) > merkle.MaxProofLength || root != w.ComputedRoot:
		w.OnChainRoot = &root
		s.warn(WarnProofInvalid, "the proof does not lead to the vester's root %d", rootIndex)
	default:
		w.OnChainRoot = &root
	}
	var allocationID string
	if w.Allocation != nil {
		allocationID = w.Allocation.Allocation.ID
	}
	s.checkFee(ctx, opts, "claim fee", func(ctx context.Context, c ethereum.ContractCaller, vester common.Address) (*big.Int, error) {
		return ClaimFee(ctx, c, vester, allocationID)
	})
}

// checkRecipient warns when the tokens of the withdraw do not reach the
// signer: they go to the withdrawal address the vester holds, which is
// the leaf's beneficiary until the allocation is transferred (D18).
func (s *Summary) checkRecipient(ctx context.Context, args vesting.Args, opts DecodeOptions) {
	beneficiary, id := args.Allocation.OriginalBeneficiary, sanitize.Truncate(args.Allocation.ID, 60)
	to, whose := beneficiary, "the leaf's beneficiary"
	if opts.Chain != nil {
		switch st, err := ReadStanding(ctx, opts.Chain, s.Call.To, args.Allocation.ID); {
		case err != nil:
			whose += "; the vester's record, which may name another, could not be read"
		case st.Transferred(beneficiary):
			to, whose = st.Recipient(beneficiary), "the withdrawal address the vester holds, not the leaf's beneficiary "+beneficiary.Hex()
		}
	}
	if to != opts.Signer {
		s.warn(WarnNotBeneficiary, "the tokens go to %s (%s), not to the signer %s (allocation %s)", to.Hex(), whose, opts.Signer.Hex(), id)
	}
}

// checkFee compares the value sent with the fee the contract takes.
func (s *Summary) checkFee(ctx context.Context, opts DecodeOptions, name string, read func(context.Context, ethereum.ContractCaller, common.Address) (*big.Int, error)) {
	if opts.Chain == nil {
		if s.Method != "withdraw" { // withdraw said so already
			s.warn(WarnUnchecked, "no chain connection: the %s is not checked", name)
		}
		return
	}
	fee, err := read(ctx, opts.Chain, s.Call.To)
	if err != nil {
		s.warn(WarnUnchecked, "could not read the %s: %v", name, err)
		return
	}
	if fee.Cmp(s.Call.Value) != 0 {
		s.warn(WarnFeeMismatch, "the call sends %s ether, the contract's %s is %s ether; it will refuse it",
			s.ValueEther(), name, FormatUnits(fee))
		return
	}
	s.Pays = name
}

func (s *Summary) warn(k WarningKind, format string, args ...any) {
	msg := sanitize.Line(fmt.Sprintf(format, args...))
	s.Warnings = append(s.Warnings, Warning{Kind: k, Message: strings.TrimSpace(msg)})
}

// MaxMulticall bounds the calls of a multicall decoded for review: each
// is read against the chain. A batch of claims makes at most this many.
const MaxMulticall = 64

// decodeInner decodes each call of a vester multicall as a call to the
// same vester that sends nothing (the multicall is not payable), one
// level deep: a multicall inside is named, not opened.
func (s *Summary) decodeInner(ctx context.Context, values []any, opts DecodeOptions) {
	if s.Call.Value.Sign() != 0 {
		s.warn(WarnFeeMismatch, "the multicall sends %s ether; it is not payable, and sends none", s.ValueEther())
	}
	inner, _ := values[0].([][]byte)
	if len(inner) > MaxMulticall {
		s.warn(WarnUnchecked, "the multicall makes %d calls; allot reads at most %d, the first of them", len(inner), MaxMulticall)
		inner = inner[:MaxMulticall]
	}
	for i, data := range inner {
		c := Call{ChainID: s.Call.ChainID, From: s.Call.From, To: s.Call.To, Data: data, Value: new(big.Int)}
		if _, nested := multicallData(data); nested {
			sub := &Summary{Call: c, Contract: "vester", Method: vesterabi.Multicall, Known: s.Known, Unit: s.Unit}
			sub.warn(WarnUnknownCalldata, "call %d is a multicall inside the multicall", i+1)
			s.Inner = append(s.Inner, sub)
			continue
		}
		s.Inner = append(s.Inner, DecodeCall(ctx, c, opts))
	}
}
