package wallet

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"allot/internal/sanitize"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// Proof is the merkle proof of one allocation (D8), as the service's
// merkle-proof operation returns it.
type Proof struct {
	ID            string
	DecodableArgs []byte
	// Hash is the leaf the service states; nil when it sent null or nothing.
	Hash *common.Hash
	// WalletAddress is the wallet the service names; nil when absent.
	WalletAddress  *common.Address
	Siblings       []common.Hash
	RootIndex      uint32
	DistributionID string
	// Source is the proof object as it was read, shown again as "proof" in
	// a Verification's JSON.
	Source json.RawMessage
}

// MaxProofJSON bounds the JSON DecodeProof reads: the largest decodableArgs
// in hex, a full-depth proof, and room for the other fields.
const MaxProofJSON = 2*vesting.MaxArgsSize + 64<<10

// ErrProofFormat is wrapped by DecodeProof errors.
var ErrProofFormat = errors.New("not a merkle proof")

// DecodeProof reads a merkle proof from JSON: the service's result object,
// the whole response envelope ({"isProcessed": ..., "result": {...}}), or
// any object holding the proof under "proof" (what `allot proof ID -o json
// --verify` prints). It is tolerant of what people paste: hex with or
// without 0x, a rootIndex written as a string, a missing or null hash.
func DecodeProof(data []byte) (*Proof, error) {
	if len(data) > MaxProofJSON {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrProofFormat, len(data), MaxProofJSON)
	}
	obj, raw, err := findProofObject(bytes.TrimSpace(data))
	if err != nil {
		return nil, err
	}
	p := &Proof{Source: raw}
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if s, ok, err := stringField(obj, "id"); err != nil {
		fail("id: %v", err)
	} else if ok {
		p.ID = sanitize.Truncate(s, 100)
	}
	if s, ok, err := stringField(obj, "distributionId"); err != nil {
		fail("distributionId: %v", err)
	} else if ok {
		p.DistributionID = sanitize.Truncate(s, 100)
	}
	switch s, ok, err := stringField(obj, "decodableArgs"); {
	case err != nil:
		fail("decodableArgs: %v", err)
	case !ok || s == "":
		fail("decodableArgs: missing")
	default:
		if p.DecodableArgs, err = decodeHex(s); err != nil {
			fail("decodableArgs: %v", err)
		}
	}
	if s, ok, err := stringField(obj, "hash"); err != nil {
		fail("hash: %v", err)
	} else if ok && s != "" {
		if h, err := decodeHash(s); err != nil {
			fail("hash: %v", err)
		} else {
			p.Hash = &h
		}
	}
	if s, ok, err := stringField(obj, "walletAddress"); err != nil {
		fail("walletAddress: %v", err)
	} else if ok && s != "" {
		if !common.IsHexAddress(s) {
			fail("walletAddress: not an address")
		} else {
			a := common.HexToAddress(s)
			p.WalletAddress = &a
		}
	}
	if p.Siblings, err = siblingsField(obj); err != nil {
		fail("proof: %v", err)
	}
	if p.RootIndex, err = rootIndexField(obj); err != nil {
		fail("rootIndex: %v", err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrProofFormat, strings.Join(problems, "; "))
	}
	return p, nil
}

// findProofObject returns the object that holds decodableArgs, looking into
// "result" and "proof" wrappers a few levels deep.
func findProofObject(data []byte) (map[string]json.RawMessage, json.RawMessage, error) {
	raw := json.RawMessage(data)
	for range 4 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return nil, nil, fmt.Errorf("%w: want a JSON object", ErrProofFormat)
		}
		obj = foldKeys(obj)
		if _, ok := obj["decodableargs"]; ok {
			return obj, raw, nil
		}
		next, ok := obj["result"]
		if !ok || !isObject(next) {
			next, ok = obj["proof"]
		}
		if !ok || !isObject(next) {
			break
		}
		raw = next
	}
	return nil, nil, fmt.Errorf("%w: no object with decodableArgs", ErrProofFormat)
}

// foldKeys lower-cases the keys, so that fields match as encoding/json
// matches them: without regard to case.
func foldKeys(obj map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(obj))
	for k, v := range obj {
		out[strings.ToLower(k)] = v
	}
	return out
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// stringField reads a string or null; ok is false when absent or null.
func stringField(obj map[string]json.RawMessage, name string) (string, bool, error) {
	raw, present := obj[strings.ToLower(name)]
	if !present || string(bytes.TrimSpace(raw)) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, errors.New("not a string")
	}
	return strings.TrimSpace(s), true, nil
}

func siblingsField(obj map[string]json.RawMessage) ([]common.Hash, error) {
	raw, present := obj["proof"]
	if !present || string(bytes.TrimSpace(raw)) == "null" {
		return nil, errors.New("missing")
	}
	var nodes []string
	if err := json.Unmarshal(raw, &nodes); err != nil {
		return nil, errors.New("not a list of hex strings")
	}
	if len(nodes) > merkle.MaxProofLength {
		return nil, fmt.Errorf("%d nodes, more than %d", len(nodes), merkle.MaxProofLength)
	}
	out := make([]common.Hash, len(nodes))
	for i, s := range nodes {
		h, err := decodeHash(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("node %d: %v", i, err)
		}
		out[i] = h
	}
	return out, nil
}

func rootIndexField(obj map[string]json.RawMessage) (uint32, error) {
	raw, present := obj["rootindex"]
	if !present {
		return 0, errors.New("missing")
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		// A string holding the number, as some tools write large integers.
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, errors.New("not a number")
		}
		n = json.Number(strings.TrimSpace(s))
	}
	v, err := strconv.ParseUint(n.String(), 10, 32)
	if err != nil {
		return 0, errors.New("not a root index (0 to 4294967295)")
	}
	return uint32(v), nil
}

func decodeHex(s string) ([]byte, error) {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, errors.New("not hexadecimal")
	}
	return b, nil
}

func decodeHash(s string) (common.Hash, error) {
	b, err := decodeHex(s)
	if err != nil {
		return common.Hash{}, err
	}
	if len(b) != common.HashLength {
		return common.Hash{}, fmt.Errorf("%d bytes, want %d", len(b), common.HashLength)
	}
	return common.BytesToHash(b), nil
}

// VerifyOptions configure VerifyProof.
type VerifyOptions struct {
	// Now is when unlocks are computed; zero means time.Now(). For what a
	// claim could take, pass the chain's head block time.
	Now time.Time
	// Chain reads the on-chain root; nil leaves that check NOT CHECKED.
	Chain ethereum.ContractCaller
	// Vester, when set, is the only contract asked for the root: a root it
	// does not hold is a failed check.
	Vester common.Address
	// Candidates are the contracts that may be the vester (VesterCandidates),
	// asked when Vester is zero: the one holding the computed root is the
	// vester (FindVester), and none holding it is a failed check.
	Candidates []common.Address
	// Unchecked, when set, says why the root cannot be checked (no chain,
	// the contracts could not be listed): the root check is NOT CHECKED.
	Unchecked error
}

// CheckState is the outcome of one check. The zero value is NotChecked:
// a check never passes by default.
type CheckState int

const (
	// NotChecked: the check could not run; the Check's Reason says why.
	NotChecked CheckState = iota
	Pass
	Fail
)

func (s CheckState) String() string {
	switch s {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	default:
		return "NOT CHECKED"
	}
}

// MarshalText writes the state as String does, for JSON.
func (s CheckState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Check is the outcome of one check: for a failure, what was found; for a
// check that could not run, why. Reason is empty on a pass.
type Check struct {
	State  CheckState
	Reason string
}

func passed() Check                           { return Check{State: Pass} }
func failed(format string, args ...any) Check { return Check{Fail, fmt.Sprintf(format, args...)} }
func unchecked(format string, args ...any) Check {
	return Check{NotChecked, fmt.Sprintf(format, args...)}
}

// severity orders the states: a failure outweighs a check that could not
// run, which outweighs a pass.
func (s CheckState) severity() int {
	switch s {
	case Pass:
		return 0
	case NotChecked:
		return 1
	default:
		return 2
	}
}

// and joins two findings of one check: the worse state, with the reasons
// of that state.
func (c Check) and(o Check) Check {
	switch {
	case o.State.severity() > c.State.severity():
		return o
	case o.State.severity() < c.State.severity(), o.Reason == "":
		return c
	case c.Reason == "":
		return o
	}
	return Check{c.State, c.Reason + "; " + o.Reason}
}

// Verification is the outcome of VerifyProof: each check on its own, and
// what the leaf says.
type Verification struct {
	Proof *Proof
	// Leaf is keccak256(decodableArgs), computed here.
	Leaf common.Hash
	// ComputedRoot is the proof folded from Leaf.
	ComputedRoot common.Hash

	// LeafCheck: the leaf is the hash the service stated (or it stated
	// none), decodableArgs decode, and the wallet the service names is the
	// leaf's beneficiary.
	LeafCheck Check
	// RootCheck: a vester of the token holds ComputedRoot as its root
	// number RootIndex.
	RootCheck Check
	// ScheduleCheck: the leaf's schedule is sound (vesting.Validate).
	ScheduleCheck Check

	// Vester is the contract that holds ComputedRoot; zero unless
	// RootCheck passed. OnChainRoot is the root read from the vester asked
	// (Vester, or VerifyOptions.Vester); nil when none was read.
	Vester      common.Address
	OnChainRoot *common.Hash
	// Holders are every candidate that holds ComputedRoot, Vester first
	// among them, in the order the candidates were given (the profile's
	// pinned vesters first); empty unless Candidates were asked.
	Holders []common.Address
	// Trust says, one line for each of Holders, whether the profile pins
	// it (session.VesterTrusts, which reads the pins): a line beside the
	// root's verdict, which it never changes; only signing needs the pin.
	Trust []VesterTrust
	// StateCheck: the vester's record of the allocation (schedules), its
	// token and its balance were read (D18). It does not judge the state:
	// a revoked allocation passes, as its proof may be sound.
	StateCheck Check
	// Standing is the allocation's record on the vester, Payout what a
	// withdraw(0) pays at At; both nil unless StateCheck passed.
	Standing *Standing
	Payout   *Payout
	// WalletOK: the wallet the service names is the leaf's beneficiary; nil
	// when the service names none or the leaf does not decode.
	WalletOK *bool

	// Args is the leaf's content; nil when it does not decode, ArgsErr says
	// why.
	Args    *vesting.Args
	ArgsErr error
	// ScheduleErr says what makes the schedule unusable (vesting.Validate),
	// nil when it is sound.
	ScheduleErr error
	// At is when the unlocked amounts were computed.
	At          time.Time
	UnlockedPPM uint64
	// Unlocked is what the leaf's schedule alone has vested at At, in base
	// units, as the production vester computes it (D16); for a cancelled
	// or revoked allocation the vester counts Payout.Vested instead.
	Unlocked *big.Int
	// Unclaimable says why the production vester cannot pay this leaf out
	// at At, and until when (a *vesting.UnclaimableError); Unlocked is nil
	// then. A warning, not a failed check: the proof itself may be sound.
	Unclaimable error
	Timeline    []vesting.Point
}

// VerifyProof checks p per D8 and decodes its leaf. It does not fail: every
// check's outcome is in the result, PASS, FAIL or NOT CHECKED with the
// reason, and Outcome sums them up.
func VerifyProof(ctx context.Context, p *Proof, opts VerifyOptions) *Verification {
	v := &Verification{Proof: p, At: opts.Now}
	if v.At.IsZero() {
		v.At = time.Now()
	}
	v.At = v.At.UTC()
	v.Leaf = merkle.Leaf(p.DecodableArgs)
	v.ComputedRoot = merkle.ProcessProof(v.Leaf, p.Siblings)
	v.LeafCheck = passed()
	if p.Hash != nil && *p.Hash != v.Leaf {
		v.LeafCheck = failed("leaf %s is not the stated hash %s", v.Leaf.Hex(), p.Hash.Hex())
	}
	v.checkRoot(ctx, opts)
	v.ScheduleCheck = unchecked("the leaf does not decode")
	v.StateCheck = unchecked("the leaf does not decode, so the allocation to read is unknown")

	args, err := vesting.Decode(p.DecodableArgs)
	if err != nil {
		v.ArgsErr = err
		v.LeafCheck = v.LeafCheck.and(failed("decodableArgs do not decode: %v", err))
		return v
	}
	v.Args = &args
	if p.WalletAddress != nil {
		ok := *p.WalletAddress == args.Allocation.OriginalBeneficiary
		v.WalletOK = &ok
		if !ok {
			v.LeafCheck = v.LeafCheck.and(failed("the proof names wallet %s, the leaf's beneficiary is %s",
				p.WalletAddress.Hex(), args.Allocation.OriginalBeneficiary.Hex()))
		}
	}
	v.ScheduleErr = args.Schedule.Validate()
	v.ScheduleCheck = passed()
	if v.ScheduleErr != nil {
		v.ScheduleCheck = failed("%v", v.ScheduleErr)
	}
	v.readStanding(ctx, opts.Chain, args)
	v.UnlockedPPM = args.Schedule.UnlockedPPM(v.At)
	v.Unlocked, v.Unclaimable = args.Vested(v.At)
	v.Timeline = args.Schedule.Timeline()
	return v
}

// Claimable is what a withdraw(0) pays at At (D18): what is vested and
// not withdrawn, no more than the vester holds; nil when the allocation's
// record was not read or the vester cannot compute what is vested.
func (v *Verification) Claimable() *big.Int {
	if v.Payout == nil || v.Payout.Unclaimable != nil {
		return nil
	}
	return v.Payout.Withdrawable
}

// readStanding reads the allocation's record from the vester that holds
// its root, and what a claim pays at At.
func (v *Verification) readStanding(ctx context.Context, chain ethereum.ContractCaller, args vesting.Args) {
	if v.RootCheck.State != Pass {
		v.StateCheck = unchecked("no vester was established for the proof, so its record of the allocation was not read")
		return
	}
	s, err := ReadStanding(ctx, chain, v.Vester, args.Allocation.ID)
	switch {
	case errors.Is(err, ErrNoSchedules):
		v.StateCheck = unchecked("vester %s does not answer schedules(allocationId): what was withdrawn, where the tokens go and whether the allocation was cancelled are unknown", v.Vester.Hex())
		return
	case err != nil:
		v.StateCheck = unchecked("read the allocation's record on vester %s: %v", v.Vester.Hex(), err)
		return
	}
	p := s.Payout(args, v.At)
	v.Standing, v.Payout, v.StateCheck = s, &p, passed()
}

// checkRoot compares the computed root with the vester's: the one given,
// or the one of the candidates that holds it.
func (v *Verification) checkRoot(ctx context.Context, opts VerifyOptions) {
	index := v.Proof.RootIndex
	switch {
	case opts.Unchecked != nil:
		v.RootCheck = unchecked("%v", opts.Unchecked)
	case opts.Chain == nil:
		v.RootCheck = unchecked("no chain to read the vester's root from: set rpc_url in the profile")
	case opts.Vester != (common.Address{}):
		root, err := MerkleRoot(ctx, opts.Chain, opts.Vester, index)
		switch {
		case errors.Is(err, ErrNoRoot):
			v.RootCheck = failed("the vester %s has no root %d", opts.Vester.Hex(), index)
		case errors.Is(err, ErrNoContract):
			v.RootCheck = failed("%s is not a vester: it has no code or no merkleRoots", opts.Vester.Hex())
		case err != nil:
			v.RootCheck = unchecked("read root %d of vester %s: %v", index, opts.Vester.Hex(), err)
		default:
			v.OnChainRoot = &root
			if root != v.ComputedRoot {
				v.RootCheck = failed("the proof leads to root %s, root %d of vester %s is %s",
					v.ComputedRoot.Hex(), index, opts.Vester.Hex(), root.Hex())
				return
			}
			v.Vester, v.RootCheck = opts.Vester, passed()
		}
	default:
		found, err := FindVester(ctx, opts.Chain, opts.Candidates, index, v.ComputedRoot)
		switch {
		case err == nil:
			root := v.ComputedRoot
			v.Vester, v.OnChainRoot, v.RootCheck = found.Vester, &root, passed()
			v.Holders = Holders(ctx, opts.Chain, opts.Candidates, index, root)
		case errors.Is(err, ErrNoVester):
			v.RootCheck = failed("no vester of this token holds this root: %d contracts asked for root %d", found.Asked, index)
		default:
			v.RootCheck = unchecked("%v", err)
		}
	}
}

// Checks are the checks in the order they are shown, named.
func (v *Verification) Checks() []NamedCheck {
	return []NamedCheck{{"leaf", v.LeafCheck}, {"on-chain root", v.RootCheck}, {"schedule", v.ScheduleCheck}, {"on-chain state", v.StateCheck}}
}

// NamedCheck is a check with the name it is shown under.
type NamedCheck struct {
	Name string
	Check
}

// Outcome sums the checks up: FAIL when any failed, else NOT CHECKED when
// any could not run, PASS only when every check passed.
func (v *Verification) Outcome() CheckState {
	outcome := Pass
	for _, n := range v.Checks() {
		if n.State.severity() > outcome.severity() {
			outcome = n.State
		}
	}
	return outcome
}

// OK reports whether every check passed; a check that could not run is not
// a pass.
func (v *Verification) OK() bool { return v.Outcome() == Pass }

// Failures says in plain words which checks failed, one line each.
func (v *Verification) Failures() []string { return v.reasons(Fail) }

// Unchecked says which checks could not run, and why.
func (v *Verification) Unchecked() []string { return v.reasons(NotChecked) }

func (v *Verification) reasons(state CheckState) []string {
	var out []string
	for _, n := range v.Checks() {
		if n.State == state {
			out = append(out, n.Name+": "+n.Reason)
		}
	}
	return out
}
