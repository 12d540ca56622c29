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

	"allot/sanitize"
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
	// Chain reads the on-chain root; nil skips that check.
	Chain ethereum.ContractCaller
	// Vester is the distribution's vester contract: the `to` of its claim
	// instructions, or the distribution's contract in the contract list.
	// The zero address skips the on-chain check.
	Vester common.Address
}

// Verification is the outcome of VerifyProof: each check on its own, and
// what the leaf says.
type Verification struct {
	Proof *Proof
	// Leaf is keccak256(decodableArgs), computed here.
	Leaf common.Hash
	// LeafOK: Leaf equals the hash the service stated, or it stated none.
	LeafOK bool
	// ComputedRoot is the proof folded from Leaf.
	ComputedRoot common.Hash
	// OnChainRoot is merkleRoots(rootIndex) of the vester, and OnChainOK
	// whether it equals ComputedRoot; both nil when not checked.
	OnChainRoot *common.Hash
	OnChainOK   *bool
	// ChainErr says why the on-chain root could not be read, when it was
	// asked for.
	ChainErr error
	// WalletOK: the wallet the service names is the leaf's beneficiary; nil
	// when the service names none or the leaf does not decode.
	WalletOK *bool

	// Args is the leaf's content; nil when it does not decode, ArgsErr says
	// why.
	Args    *vesting.Args
	ArgsErr error
	// ScheduleErr says what makes the schedule unusable (vesting.Validate),
	// nil when it is sound. The proof may still verify.
	ScheduleErr error
	// At is when the unlocked amounts were computed.
	At          time.Time
	UnlockedPPM uint64
	Unlocked    *big.Int // base units, as the production vester computes it (D16)
	// Unclaimable says why the production vester cannot pay this leaf out
	// at At, and until when (a *vesting.UnclaimableError); Unlocked is nil
	// then. A warning, not a failed check: the proof itself may be sound.
	Unclaimable error
	Timeline    []vesting.Point
}

// VerifyProof checks p per D8 and decodes its leaf. It does not fail: every
// check's outcome is in the result, and OK tells whether all that could be
// checked passed.
func VerifyProof(ctx context.Context, p *Proof, opts VerifyOptions) *Verification {
	v := &Verification{Proof: p, At: opts.Now}
	if v.At.IsZero() {
		v.At = time.Now()
	}
	v.At = v.At.UTC()
	v.Leaf = merkle.Leaf(p.DecodableArgs)
	v.LeafOK = p.Hash == nil || *p.Hash == v.Leaf
	v.ComputedRoot = merkle.ProcessProof(v.Leaf, p.Siblings)

	if opts.Chain != nil && opts.Vester != (common.Address{}) {
		root, err := MerkleRoot(ctx, opts.Chain, opts.Vester, p.RootIndex)
		if errors.Is(err, ErrNoRoot) {
			ok := false
			v.OnChainRoot, v.OnChainOK = &root, &ok
		} else if err != nil {
			v.ChainErr = fmt.Errorf("read root %d of vester %s: %w", p.RootIndex, opts.Vester.Hex(), err)
		} else {
			ok := root == v.ComputedRoot && root != (common.Hash{})
			v.OnChainRoot, v.OnChainOK = &root, &ok
		}
	}

	args, err := vesting.Decode(p.DecodableArgs)
	if err != nil {
		v.ArgsErr = err
		return v
	}
	v.Args = &args
	if p.WalletAddress != nil {
		ok := *p.WalletAddress == args.Allocation.OriginalBeneficiary
		v.WalletOK = &ok
	}
	v.ScheduleErr = args.Schedule.Validate()
	v.UnlockedPPM = args.Schedule.UnlockedPPM(v.At)
	v.Unlocked, v.Unclaimable = args.Vested(v.At)
	v.Timeline = args.Schedule.Timeline()
	return v
}

// OK reports whether every check that could run passed: the leaf, the
// decoding of decodableArgs, the wallet named against the leaf's
// beneficiary, and the on-chain root. A check that did not run (no chain,
// no hash stated) does not count; ChainErr is not a failed check.
func (v *Verification) OK() bool {
	return len(v.Failures()) == 0
}

// Failures says in plain words which checks failed.
func (v *Verification) Failures() []string {
	var out []string
	if !v.LeafOK {
		out = append(out, fmt.Sprintf("leaf %s is not the stated hash %s", v.Leaf.Hex(), v.Proof.Hash.Hex()))
	}
	if v.ArgsErr != nil {
		out = append(out, fmt.Sprintf("decodableArgs do not decode: %v", v.ArgsErr))
	}
	if v.WalletOK != nil && !*v.WalletOK {
		out = append(out, fmt.Sprintf("the proof names wallet %s, the leaf's beneficiary is %s",
			v.Proof.WalletAddress.Hex(), v.Args.Allocation.OriginalBeneficiary.Hex()))
	}
	if v.OnChainOK != nil && !*v.OnChainOK {
		if *v.OnChainRoot == (common.Hash{}) {
			out = append(out, fmt.Sprintf("the vester has no root number %d", v.Proof.RootIndex))
		} else {
			out = append(out, fmt.Sprintf("the proof leads to root %s, the vester's root %d is %s",
				v.ComputedRoot.Hex(), v.Proof.RootIndex, v.OnChainRoot.Hex()))
		}
	}
	return out
}
