package wallet

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"allot/internal/sanitize"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// The signing policy. The service hands out the calls a claim or a stake
// is to sign, and the service may be hostile: what it hands out is signed
// only when it is exactly what the user asked for, against contracts the
// profile pins, with the code they had when pinned (D17 as amended; see
// pins.go). Anything else is refused, whole, before anything is built,
// unlocked or signed; nothing overrides a refusal.

// ErrRefused is wrapped by every refusal of the signing policy.
var ErrRefused = errors.New("refused by the signing policy")

// RefusedError is a claim or a stake the policy refuses, with every reason
// found. Nothing of it may be signed. When a reason is that something
// could not be read from the chain, it also wraps ErrUnchecked.
type RefusedError struct {
	// Subject says what was refused: "claim of allocation ID".
	Subject string
	// Reasons are plain, one-line and safe for a terminal.
	Reasons []string
	// Unchecked: at least one reason is a check that could not run.
	Unchecked bool
	// Unpinned are the contracts refused only because the profile does
	// not pin them (see OnlyUnpinned).
	Unpinned []Unpinned

	pinReasons int // how many Reasons are those of Unpinned
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: not signed, %s: %s", e.Subject, ErrRefused, strings.Join(e.Reasons, "; "))
}

// Unwrap makes errors.Is work for ErrRefused, and for ErrUnchecked when a
// check could not run.
func (e *RefusedError) Unwrap() []error {
	if e.Unchecked {
		return []error{ErrRefused, ErrUnchecked}
	}
	return []error{ErrRefused}
}

func (e *RefusedError) refuse(format string, args ...any) {
	e.Reasons = append(e.Reasons, strings.TrimSpace(sanitize.Line(fmt.Sprintf(format, args...))))
}

func (e *RefusedError) unchecked(format string, args ...any) {
	e.Unchecked = true
	e.refuse(format, args...)
}

func (e *RefusedError) err() error {
	if len(e.Reasons) == 0 {
		return nil
	}
	return e
}

// DefaultMaxNativeFee is the most native coin a claim or a stake may send
// when the profile sets no max_native_fee: 0.01 ether.
var DefaultMaxNativeFee = big.NewInt(10_000_000_000_000_000)

// Pins are the contracts and the fee ceiling the user's profile trusts
// (D17 as amended). A claim or a stake signs only for pinned contracts:
// an empty list pins nothing, and what needs it is refused.
type Pins struct {
	Vesters, Staking, Tokens []common.Address
	// Handlers are the post-claim handlers a claim may send tokens to;
	// empty pins none: only direct claims are signed.
	Handlers []common.Address
	// CodeHashes are the keccak256 hashes of the pinned contracts' code,
	// recorded when each was pinned: a contract whose code is not that
	// any more is refused.
	CodeHashes map[common.Address]common.Hash
	// Implementations are, for each pinned proxy, the implementation it
	// delegated to when pinned and that implementation's code hash.
	Implementations map[common.Address]Proxy
	// MaxNativeFee is the most wei a claim or a stake may send; nil is
	// DefaultMaxNativeFee.
	MaxNativeFee *big.Int
}

func (p Pins) maxFee() *big.Int {
	if p.MaxNativeFee == nil {
		return DefaultMaxNativeFee
	}
	return p.MaxNativeFee
}

// Approval is a batch of calls the policy allows, and what it established
// on the way, for the review. Only CheckClaim and CheckStake make one, and
// only Build turns one into transactions: nothing else can be signed.
type Approval struct {
	Subject string
	// Facts are what the policy established, in order, for the user to
	// read before signing: which contract, found how, pinned or not; the
	// fee read from the chain; what is claimable.
	Facts []Line
	calls []Call
}

// Calls returns the approved calls, in the order they are to be signed.
func (a *Approval) Calls() []Call { return slices.Clone(a.calls) }

// ClaimPolicy is what a claim must match: what the user asked for and
// what allot knows without the claim's answer.
type ClaimPolicy struct {
	AllocationID string
	Signer       common.Address
	// BySafe says Signer is a Safe whose owners sign the withdraw and any
	// key executes it: the Safe pays the fee, the executor the gas. The
	// caller knows it (a Safe's proposal); the chain is not asked.
	BySafe bool
	// ChainID is the profile's chain.
	ChainID uint64
	// Amount is what the user asked for, in base units; nil asks for all
	// that is claimable.
	Amount *big.Int
	// Proof is the allocation's proof from the merkle-proof operation,
	// fetched for AllocationID.
	Proof *Proof
	// Candidates are the contracts the service lists that may be the
	// vester (see VesterCandidates). Only the pinned vesters are signed
	// for: a candidate that holds the root is named, to be pinned.
	Candidates []common.Address
	Pins       Pins
	// Units names the token a vester pays, for the amounts the policy
	// says (its symbol); nil, or "" for a vester, says "tokens".
	Units func(vester common.Address) string
}

// claimFacts is what CheckClaim established from the proof and the chain.
type claimFacts struct {
	unit      string // the vester's token, for amounts said: "tokens" when unknown
	args      vesting.Args
	root      common.Hash
	vester    common.Address // zero when not established
	fee       *big.Int       // nil when not read
	claimable *big.Int       // nil when not read
	standing  *Standing      // nil when not read
	payout    *Payout        // nil when not read or not payable
}

// CheckClaim applies the signing policy to a claim's calls (D7, D8, D16,
// D17, D18). A claim may sign exactly one withdraw(amount, rootIndex,
// decodableArgs, proof), or the same through a post-claim handler, of the
// allocation asked for, where:
//   - the proof is the one the merkle-proof operation gave for that
//     allocation: its leaf hashes its decodableArgs and names the
//     allocation asked for;
//   - the call goes to the pinned vester that holds the proof's root on
//     the chain (FindVester over the pinned vesters), whose code is the
//     code pinned; a candidate of the service's list that holds it is
//     refused, named with the command that pins it;
//   - it sends exactly the claim fee the vester asks (ClaimFee), and no
//     more than the profile's max_native_fee;
//   - the allocation is not revoked, and the call withdraws at most what
//     is claimable at the chain's head (vested, at the cancel time when
//     cancelled, less what was withdrawn, at most what the vester holds;
//     0 is all of it), and exactly the amount asked when one was;
//   - its tokens go where the vester pays (straight, only when the vester
//     allows the direct claim; to a handler, only one on the vester's
//     whitelist that the profile pins, its code as pinned), and the
//     review says where;
//   - it is for the profile's chain and from the signer.
//
// Anything else is a *RefusedError with every reason found. When the chain
// cannot be read, the claim is refused too: unchecked is never allowed.
func CheckClaim(ctx context.Context, node Node, p ClaimPolicy, calls []Call) (*Approval, error) {
	a, _, err := checkClaim(ctx, node, p, calls)
	return a, err
}

// checkClaim is CheckClaim, which also returns what it established, for a
// batch's review (CheckClaimBatch).
func checkClaim(ctx context.Context, node Node, p ClaimPolicy, calls []Call) (*Approval, *claimFacts, error) {
	refused := &RefusedError{Subject: "claim of allocation " + sanitize.Truncate(p.AllocationID, 60)}
	a := &Approval{Subject: refused.Subject}
	calls = withValues(calls)
	facts := establishClaim(ctx, node, p, refused, a)
	if len(calls) != 1 {
		refused.refuse("a claim signs exactly one vester withdraw; the service's answer holds %d calls", len(calls))
	}
	for i, c := range calls {
		m, values, ok := checkAndDecode(refused, a, i, c, p.Signer, p.ChainID, p.Pins)
		if !ok {
			continue
		}
		if m.method.RawName != "withdraw" {
			refused.refuse("call %d is %s: a claim signs only the vester's withdraw", i+1, describe(m, values, c))
			continue
		}
		checkWithdraw(refused, i, c, values, p, facts)
		checkRoute(ctx, node, refused, a, i, values, p, facts)
		if facts.standing != nil && len(values) == 4 {
			to := facts.standing.Recipient(facts.args.Allocation.OriginalBeneficiary)
			amount, _ := values[0].(*big.Int)
			if line, ok := behalfFact(ctx, node, p, to, amount, facts); ok {
				a.Facts = append(a.Facts, line)
			}
		}
	}
	if err := refused.err(); err != nil {
		return nil, facts, err
	}
	a.calls = slices.Clone(calls)
	return a, facts, nil
}

// establishClaim reads what the claim must match from the proof and the
// chain, and says it in a's facts.
func establishClaim(ctx context.Context, node Node, p ClaimPolicy, refused *RefusedError, a *Approval) *claimFacts {
	facts := &claimFacts{unit: "tokens"}
	proof := p.Proof
	args, root, ok := establishLeaf(proof, p.AllocationID, "claim", refused)
	if !ok {
		return facts
	}
	facts.args, facts.root = args, root
	if node == nil {
		refused.unchecked("no chain connection (rpc_url): the vester, its root and the claim fee cannot be read")
		return facts
	}

	vester, ok := findPinnedVester(ctx, node, p, facts.root, refused)
	if !ok {
		return facts
	}
	facts.vester = vester
	if p.Units != nil {
		facts.unit = cmp.Or(p.Units(vester), facts.unit)
	}
	if note := checkPinned(ctx, node, refused, PinVester, vester, p.Pins, "vester"); note != "" {
		a.Facts = append(a.Facts, Line{"vester", fmt.Sprintf("%s holds root %d (read from the chain)%s",
			vester.Hex(), proof.RootIndex, note)})
	}

	fee, err := ClaimFee(ctx, node, facts.vester, p.AllocationID)
	if err != nil {
		refused.unchecked("the claim fee could not be read from the vester: %v", err)
	} else {
		facts.fee = fee
		a.Facts = append(a.Facts, Line{"claim fee", FormatUnits(fee) + " ether (read from the chain)"})
	}

	establishStanding(ctx, node, p, facts, refused, a)
	return facts
}

// establishLeaf decodes the leaf of proof, which must be the allocation
// id's, and the root it proves; act names what is checked ("claim"). ok
// is false, and refused says why, when there is no such leaf.
func establishLeaf(proof *Proof, id, act string, refused *RefusedError) (args vesting.Args, root common.Hash, ok bool) {
	if proof == nil {
		refused.unchecked("no merkle proof of the allocation: the %s cannot be checked", act)
		return args, root, false
	}
	leaf := merkle.Leaf(proof.DecodableArgs)
	args, err := vesting.Decode(proof.DecodableArgs)
	switch {
	case proof.Hash != nil && *proof.Hash != leaf:
		refused.refuse("the proof's leaf %s is not the hash it states, %s", leaf.Hex(), proof.Hash.Hex())
	case err != nil:
		refused.refuse("the allocation's proof does not decode: %v", err)
	case args.Allocation.ID != id:
		refused.refuse("the proof is of allocation %q, not of %s, the one asked for", sanitize.Truncate(args.Allocation.ID, 60), id)
	case len(proof.Siblings) > merkle.MaxProofLength:
		refused.refuse("the proof has %d nodes, more than %d", len(proof.Siblings), merkle.MaxProofLength)
	default:
		return args, merkle.ProcessProof(leaf, proof.Siblings), true
	}
	return args, root, false
}

// reverted reports whether err is a call that reverted (not a node that
// could not be reached).
func reverted(err error) bool {
	if err == nil {
		return false
	}
	_, ok := revertReason(err)
	return ok
}

// checkWithdraw holds the withdraw call i to what establishClaim found.
func checkWithdraw(refused *RefusedError, i int, c Call, values []any, p ClaimPolicy, f *claimFacts) {
	// Unpack yields these types for uint256, uint32, bytes and bytes32[].
	amount, _ := values[0].(*big.Int)
	rootIndex, _ := values[1].(uint32)
	decodableArgs, _ := values[2].([]byte)
	nodes, _ := values[3].([][32]byte)
	if f.vester != (common.Address{}) && c.To != f.vester {
		refused.refuse("call %d goes to %s, not to the vester %s that holds the allocation's root", i+1, c.To.Hex(), f.vester.Hex())
	}
	if p.Proof != nil && !p.Proof.carriedBy(rootIndex, decodableArgs, nodes) {
		refused.refuse("call %d withdraws with another leaf, proof or root index than the allocation's proof", i+1)
	}
	if f.fee != nil && c.Value.Cmp(f.fee) != 0 {
		refused.refuse("call %d sends %s ether; the vester's claim fee is %s ether", i+1, FormatUnits(c.Value), FormatUnits(f.fee))
	}
	if p.Amount == nil && amount.Sign() != 0 && (f.claimable == nil || amount.Cmp(f.claimable) < 0) {
		// "All" is the contract's 0, or exactly what is claimable: a
		// service that withdraws less (1 wei) takes a whole fee for it.
		// More than is claimable is checkAmount's, which says why.
		claimable := "not known"
		if f.claimable != nil {
			claimable = FormatTokens(f.claimable) + " " + f.unit
		}
		refused.refuse("call %d withdraws %s %s; you asked for all that is claimable (%s), which is 0 (everything vested) or exactly that", i+1, FormatTokens(amount), f.unit, claimable)
		return
	}
	if p.Amount != nil && amount.Cmp(p.Amount) != 0 {
		asked := FormatTokens(amount) + " " + f.unit
		if amount.Sign() == 0 {
			asked = "everything vested"
		}
		refused.refuse("call %d withdraws %s; you asked for %s", i+1, asked, FormatTokens(p.Amount))
		return
	}
	checkAmount(refused, i, amount, f)
}

// carriedBy reports whether a vester call's rootIndex, decodableArgs and
// proof nodes are exactly p's.
func (p *Proof) carriedBy(rootIndex uint32, decodableArgs []byte, nodes [][32]byte) bool {
	if rootIndex != p.RootIndex || !bytes.Equal(decodableArgs, p.DecodableArgs) || len(nodes) != len(p.Siblings) {
		return false
	}
	for j, n := range nodes {
		if common.Hash(n) != p.Siblings[j] {
			return false
		}
	}
	return true
}

// checkAndDecode applies checkCommon to call i and decodes it; ok is false,
// and refused says why, when allot cannot decode its calldata.
func checkAndDecode(refused *RefusedError, a *Approval, i int, c Call, signer common.Address, chainID uint64, pins Pins) (knownMethod, []any, bool) {
	checkCommon(refused, a, i, c, signer, chainID, pins)
	m, values, ok := decodeKnown(c.Data)
	if !ok {
		refused.refuse("call %d to %s: calldata allot cannot decode (%d bytes)", i+1, c.To.Hex(), len(c.Data))
	}
	return m, values, ok
}

// checkCommon holds every call to the chain, the signer and the fee
// ceiling, and says in a's facts when a call sends exactly the ceiling.
func checkCommon(refused *RefusedError, a *Approval, i int, c Call, signer common.Address, chainID uint64, pins Pins) {
	if c.ChainID != 0 && c.ChainID != chainID {
		refused.refuse("call %d is for chain %d; the profile's chain is %d", i+1, c.ChainID, chainID)
	}
	if c.From != signer {
		refused.refuse("call %d is to be sent by %s, not by the signer %s", i+1, c.From.Hex(), signer.Hex())
	}
	switch max := pins.maxFee(); c.Value.Cmp(max) {
	case 1:
		refused.refuse("call %d sends %s ether, more than max_native_fee %s ether", i+1, FormatUnits(c.Value), FormatUnits(max))
	case 0:
		if max.Sign() > 0 {
			a.Facts = append(a.Facts, Line{"fee at the cap", fmt.Sprintf("call %d sends %s ether, exactly max_native_fee: the most this profile lets a call send", i+1, FormatUnits(c.Value))})
		}
	}
}

// withValues copies calls with a nil value made zero, so that every check
// compares values.
func withValues(calls []Call) []Call {
	out := slices.Clone(calls)
	for i := range out {
		if out[i].Value == nil {
			out[i].Value = new(big.Int)
		}
	}
	return out
}

// describe names a known call in a few words, for a refusal.
func describe(m knownMethod, values []any, c Call) string {
	switch m.method.RawName {
	case "approve":
		spender, _ := values[0].(common.Address)
		amount, _ := values[1].(*big.Int)
		if amount != nil && amount.Cmp(maxUint256) == 0 {
			return fmt.Sprintf("an UNLIMITED approve of token %s to %s", c.To.Hex(), spender.Hex())
		}
		return fmt.Sprintf("an approve of %s tokens of %s to %s", FormatTokens(amount), c.To.Hex(), spender.Hex())
	case "transfer":
		to, _ := values[0].(common.Address)
		amount, _ := values[1].(*big.Int)
		return fmt.Sprintf("a transfer of %s tokens of %s to %s", FormatTokens(amount), c.To.Hex(), to.Hex())
	}
	return fmt.Sprintf("a %s %s at %s", m.contract, m.method.RawName, c.To.Hex())
}

// StakePolicy is what a stake must match.
type StakePolicy struct {
	PoolID  string
	Signer  common.Address
	ChainID uint64
	// Amount is what the user asked to stake, in base units.
	Amount *big.Int
	// Pool is the pool's staking contract as the token's contract list
	// names it (the pool's contractId); zero when the list has none.
	Pool common.Address
	Pins Pins
}

// CheckStake applies the signing policy to a stake's calls (D11, D17). A
// stake may sign exactly: an optional approve(pool, amount) on the pool's
// token (its stakingToken() on the chain), of exactly the amount staked,
// sending nothing; then stake(amount) on the pool's staking contract,
// sending exactly the pool's platformFee() read from the chain, which the
// stake parameters advertise; the amount the one asked. The staking
// contract must be pinned, with its code as pinned; the token must be
// pinned too when the profile pins tokens, else it is the pinned staking
// contract's stakingToken(). Anything else is a *RefusedError.
func CheckStake(ctx context.Context, node Node, p StakePolicy, calls []Call) (*Approval, error) {
	refused := &RefusedError{Subject: "stake in pool " + sanitize.Truncate(p.PoolID, 60)}
	a := &Approval{Subject: refused.Subject}
	calls = withValues(calls)
	var token common.Address
	var fee *big.Int
	switch {
	case p.Amount == nil || p.Amount.Sign() <= 0:
		refused.refuse("no amount to stake was asked for")
	case p.Pool == (common.Address{}):
		refused.refuse("the token's contract list names no staking contract for this pool")
	case node == nil:
		refused.unchecked("no chain connection (rpc_url): the pool's token and fee cannot be read")
	default:
		token, fee = establishStake(ctx, node, p, refused, a)
	}
	if n := len(calls); n < 1 || n > 2 {
		refused.refuse("a stake signs a stake, with an approve before it at most; there are %d calls", n)
	}
	for i, c := range calls {
		m, values, ok := checkAndDecode(refused, a, i, c, p.Signer, p.ChainID, p.Pins)
		if !ok {
			continue
		}
		last := i == len(calls)-1
		switch {
		case m.method.RawName == "stake" && last:
			amount, _ := values[0].(*big.Int)
			if c.To != p.Pool {
				refused.refuse("call %d stakes in %s, not in the pool's staking contract %s", i+1, c.To.Hex(), p.Pool.Hex())
			}
			if p.Amount != nil && amount.Cmp(p.Amount) != 0 {
				refused.refuse("call %d stakes %s tokens; you asked for %s", i+1, FormatTokens(amount), FormatTokens(p.Amount))
			}
			if fee != nil && c.Value.Cmp(fee) != 0 {
				refused.refuse("call %d sends %s ether; the pool's platform fee on the chain is %s ether", i+1, FormatUnits(c.Value), FormatUnits(fee))
			}
		case m.method.RawName == "approve" && i == 0 && !last:
			spender, _ := values[0].(common.Address)
			amount, _ := values[1].(*big.Int)
			if token != (common.Address{}) && c.To != token {
				refused.refuse("call 1 approves token %s, not the pool's token %s", c.To.Hex(), token.Hex())
			}
			if spender != p.Pool {
				refused.refuse("call 1 approves %s to spend, not the pool's staking contract %s", spender.Hex(), p.Pool.Hex())
			}
			if p.Amount == nil || amount.Cmp(p.Amount) != 0 {
				refused.refuse("call 1 approves %s tokens; the stake is %s, and no more may be approved", FormatTokens(amount), FormatTokens(p.Amount))
			}
			if c.Value.Sign() != 0 {
				refused.refuse("call 1 sends %s ether with an approve, which takes none", FormatUnits(c.Value))
			}
		default:
			refused.refuse("call %d is %s: a stake signs only an approve of the stake, then the stake", i+1, describe(m, values, c))
		}
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.calls = slices.Clone(calls)
	return a, nil
}

// establishStake holds the pool's staking contract to the pins, reads its
// fee and token from the chain, and holds the token to the pins.
func establishStake(ctx context.Context, node Node, p StakePolicy, refused *RefusedError, a *Approval) (common.Address, *big.Int) {
	pool := checkPinned(ctx, node, refused, PinStaking, p.Pool, p.Pins, "pool's staking contract")
	if pool == "" {
		return common.Address{}, nil
	}
	fee, err := PlatformFee(ctx, node, p.Pool)
	if err != nil {
		refused.unchecked("the pool's platform fee could not be read from the chain: %v", err)
		return common.Address{}, nil
	}
	a.Facts = append(a.Facts,
		Line{"staking contract", p.Pool.Hex() + " (the pool's contract in the token's list)" + pool},
		Line{"platform fee", FormatUnits(fee) + " ether (read from the chain)"})
	token, err := StakingToken(ctx, node, p.Pool)
	if err != nil {
		refused.unchecked("the pool's token could not be read from the chain: %v", err)
		return common.Address{}, fee
	}
	if len(p.Pins.Tokens) > 0 {
		if note := checkPinned(ctx, node, refused, PinToken, token, p.Pins, "pool's token"); note != "" {
			a.Facts = append(a.Facts, Line{"token", token.Hex() + " (the pool's stakingToken() on chain)" + note})
		}
		return token, fee
	}
	// No tokens pinned: the pinned staking contract, whose code is the
	// code pinned, names its token.
	switch _, err := CodeHash(ctx, node, token); {
	case errors.Is(err, ErrNoContract):
		refused.refuse("the pool's token %s has no code on the chain", token.Hex())
	case err != nil:
		refused.unchecked("the code of the pool's token could not be read: %v", err)
	default:
		a.Facts = append(a.Facts, Line{"token", token.Hex() + " (the stakingToken() of the pinned staking contract; no tokens pinned)"})
	}
	return token, fee
}
