package wallet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/wallet/vesterabi"
	"allot/wallet/vesting"
)

// A transfer of beneficiary (D18): transferBeneficiaryAddress(newAddress,
// rootIndex, decodableArgs, proof) changes where every later claim of an
// allocation pays. The vester lets the allocation's current withdrawal
// address send it when the leaf is transferableByBeneficiary; what it
// gives away is the allocation's future, so the policy holds it to the
// one transfer asked for, and the review says in plain words where the
// tokens will go from then on.

// TransferPolicy is what a transfer of beneficiary must match.
type TransferPolicy struct {
	AllocationID string
	// Signer is the account that sends it: a key, or a Safe.
	Signer  common.Address
	ChainID uint64
	// NewAddress is the withdrawal address the user asked for.
	NewAddress common.Address
	// Proof is the allocation's proof from the merkle-proof operation;
	// Candidates the contracts the service lists that may be its vester.
	Proof      *Proof
	Candidates []common.Address
	Pins       Pins
}

// TransferCall is the transfer of the allocation of proof to newAddress,
// built by allot from the proof (the service builds none): one
// transferBeneficiaryAddress to vester, sending nothing, from sender.
func TransferCall(vester, sender common.Address, chainID uint64, proof *Proof, newAddress common.Address) (Call, error) {
	siblings := make([][32]byte, len(proof.Siblings))
	for i, h := range proof.Siblings {
		siblings[i] = h
	}
	data, err := vesterABI.Pack(vesterabi.TransferBeneficiary, newAddress, proof.RootIndex, proof.DecodableArgs, siblings)
	if err != nil {
		return Call{}, fmt.Errorf("build the transfer: %w", err)
	}
	return Call{ChainID: chainID, From: sender, To: vester, Data: data, Value: new(big.Int)}, nil
}

// CheckTransfer applies the signing policy to a transfer of beneficiary's
// calls. It signs exactly one transferBeneficiaryAddress of the
// allocation asked for, where:
//   - the proof is the merkle-proof operation's for that allocation, and
//     the call carries it;
//   - the call goes to the pinned vester that holds the proof's root,
//     whose code is the code pinned, and sends nothing;
//   - the leaf is transferableByBeneficiary, and the allocation's
//     withdrawal address on the vester is the signer's (only it may send
//     the transfer);
//   - the new address is the one asked for, not zero and not the current
//     withdrawal address; the review says what holds it (a wallet, a Safe,
//     a contract);
//   - it is for the profile's chain and from the signer.
//
// Anything else is a *RefusedError with every reason found; a chain that
// cannot be read refuses it too.
func CheckTransfer(ctx context.Context, node Node, p TransferPolicy, calls []Call) (*Approval, error) {
	refused := &RefusedError{Subject: "transfer of allocation " + sanitize.Truncate(p.AllocationID, 60)}
	a := &Approval{Subject: refused.Subject}
	calls = withValues(calls)
	if p.NewAddress == (common.Address{}) {
		refused.refuse("the new withdrawal address is zero: the vester refuses it, and tokens sent there are lost")
	}
	vester := establishTransfer(ctx, node, p, refused, a)
	if len(calls) != 1 {
		refused.refuse("a transfer signs exactly one transferBeneficiaryAddress; there are %d calls", len(calls))
	}
	for i, c := range calls {
		m, values, ok := checkAndDecode(refused, a, i, c, p.Signer, p.ChainID, p.Pins)
		if !ok {
			continue
		}
		if m.method.RawName != vesterabi.TransferBeneficiary {
			refused.refuse("call %d is %s: a transfer signs only the vester's transferBeneficiaryAddress", i+1, describe(m, values, c))
			continue
		}
		to, _ := values[0].(common.Address)
		rootIndex, _ := values[1].(uint32)
		args, _ := values[2].([]byte)
		nodes, _ := values[3].([][32]byte)
		if to != p.NewAddress {
			refused.refuse("call %d transfers the allocation to %s; you asked for %s", i+1, to.Hex(), p.NewAddress.Hex())
		}
		if vester != (common.Address{}) && c.To != vester {
			refused.refuse("call %d goes to %s, not to the vester %s that holds the allocation's root", i+1, c.To.Hex(), vester.Hex())
		}
		if p.Proof != nil && !p.Proof.carriedBy(rootIndex, args, nodes) {
			refused.refuse("call %d transfers with another leaf, proof or root index than the allocation's proof", i+1)
		}
		if c.Value.Sign() != 0 {
			refused.refuse("call %d sends %s ether; a transfer of beneficiary takes none", i+1, FormatUnits(c.Value))
		}
	}
	if err := refused.err(); err != nil {
		return nil, err
	}
	a.calls = calls
	return a, nil
}

// LeafTransferBar says why the leaf of alloc lets no holder transfer it
// (D18), "" when it lets one: the vester reverts NotTransferable unless
// the leaf is transferableByBeneficiary. The signing policy refuses for
// it, and the dashboard offers no transfer, in the same words.
func LeafTransferBar(alloc vesting.Allocation) string {
	if alloc.TransferableByBeneficiary {
		return ""
	}
	return "the allocation's leaf is not transferableByBeneficiary: its holder may not transfer it (the vester reverts NotTransferable)"
}

// HolderTransferBar says why signer may not transfer an allocation whose
// tokens go to current (its withdrawal address now, Standing.Recipient),
// "" when it may: only that address sends the transfer (D18).
func HolderTransferBar(current, signer common.Address) string {
	if current == signer {
		return ""
	}
	return fmt.Sprintf("the allocation's tokens go to %s, not to %s: only its current withdrawal address may transfer it", current.Hex(), signer.Hex())
}

// establishTransfer reads what the transfer must match from the proof and
// the chain (the vester, the leaf's rule, the withdrawal address now),
// says it in a's facts, and returns the vester (zero when not found).
func establishTransfer(ctx context.Context, node Node, p TransferPolicy, refused *RefusedError, a *Approval) common.Address {
	args, root, ok := establishLeaf(p.Proof, p.AllocationID, "transfer", refused)
	if !ok {
		return common.Address{}
	}
	if bar := LeafTransferBar(args.Allocation); bar != "" {
		refused.refuse("%s", bar)
	}
	if node == nil {
		refused.unchecked("no chain connection (rpc_url): the vester and the allocation's withdrawal address cannot be read")
		return common.Address{}
	}
	cp := ClaimPolicy{AllocationID: p.AllocationID, Proof: p.Proof, Candidates: p.Candidates, Pins: p.Pins}
	vester, ok := findPinnedVester(ctx, node, cp, root, refused)
	if !ok {
		return common.Address{}
	}
	if note := checkPinned(ctx, node, refused, PinVester, vester, p.Pins, "vester"); note != "" {
		a.Facts = append(a.Facts, Line{"vester", fmt.Sprintf("%s holds root %d (read from the chain)%s", vester.Hex(), p.Proof.RootIndex, note)})
	}
	s, err := ReadStanding(ctx, node, vester, p.AllocationID)
	if err != nil {
		refused.unchecked("the allocation's withdrawal address on the vester could not be read: %v", err)
		return vester
	}
	current := s.Recipient(args.Allocation.OriginalBeneficiary)
	switch {
	case current != p.Signer:
		refused.refuse("%s", HolderTransferBar(current, p.Signer))
	case p.NewAddress == current:
		refused.refuse("the allocation's tokens go to %s already", current.Hex())
	}
	if p.NewAddress != (common.Address{}) {
		a.Facts = append(a.Facts, Line{"transfer", fmt.Sprintf("the allocation's future tokens will go to %s, %s, no longer to %s",
			p.NewAddress.Hex(), holderKind(ctx, node, p.NewAddress), selfName(ctx, node, current))})
	}
	if s.Revoked() {
		a.Facts = append(a.Facts, Line{"state", "revoked: nothing of the allocation vests any more, wherever it is transferred"})
	}
	return vester
}

// selfName names the account that gives an allocation away, as its
// holder reads the review: "this Safe 0x…" or "you, 0x…".
func selfName(ctx context.Context, node Node, addr common.Address) string {
	if strings.HasPrefix(holderKind(ctx, node, addr), "a Safe") {
		return "this Safe " + addr.Hex()
	}
	return "you, " + addr.Hex()
}
