package wallet

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"allot/internal/isotime"
	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// fakeVester is a node with a vester that speaks the production interface
// (D18) and its token, answering from its fields: each state of an
// allocation's life, without a chain.
type fakeVester struct {
	Node // unused methods: a call to one is a test bug, and panics
	head time.Time

	vester, token common.Address
	root          common.Hash
	fee           *big.Int
	// schedules(id): withdrawalAddress, terminatedTimestamp, withdrawn.
	withdrawalAddress common.Address
	terminated        uint32
	withdrawn         *big.Int
	balance           *big.Int
	handlers          []common.Address
	// noSchedules makes the vester revert schedules and token, as a vester
	// without the production interface does.
	noSchedules bool
	// code is the code of other contracts than the vester (handlers),
	// slots the storage every contract but the vester answers.
	code  map[common.Address][]byte
	slots map[common.Hash]common.Hash
	calls []string
}

var (
	fakeVesterAddress = common.HexToAddress("0x00000000000000000000000000000000000f0001")
	fakeTokenAddress  = common.HexToAddress("0x00000000000000000000000000000000000f0002")
)

func newFakeVester(root common.Hash, head time.Time) *fakeVester {
	return &fakeVester{head: head, vester: fakeVesterAddress, token: fakeTokenAddress, root: root,
		fee: new(big.Int), withdrawn: new(big.Int), balance: ether(10_000), handlers: []common.Address{{}}}
}

func (f *fakeVester) CallContract(_ context.Context, msg ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	if msg.To == nil || len(msg.Data) < 4 {
		return nil, nil
	}
	if *msg.To == f.token {
		m, err := tokenABI.MethodById(msg.Data[:4])
		if err != nil || m.Name != "balanceOf" {
			return nil, revertWith("0x")
		}
		args, _ := m.Inputs.Unpack(msg.Data[4:])
		if args[0].(common.Address) != f.vester {
			return m.Outputs.Pack(new(big.Int))
		}
		return m.Outputs.Pack(f.balance)
	}
	if *msg.To != f.vester {
		return nil, nil // no code
	}
	m, err := vesterABI.MethodById(msg.Data[:4])
	if err != nil {
		return nil, revertWith("0x")
	}
	f.calls = append(f.calls, m.Name)
	switch m.Name {
	case "merkleRoots":
		args, _ := m.Inputs.Unpack(msg.Data[4:])
		if args[0].(*big.Int).Sign() != 0 {
			return nil, revertWith("0x4e487b710000000000000000000000000000000000000000000000000000000000000032")
		}
		return m.Outputs.Pack(f.root)
	case "getClaimFee":
		return m.Outputs.Pack(f.fee)
	case "schedules":
		if f.noSchedules {
			return nil, revertWith("0x")
		}
		return m.Outputs.Pack(f.withdrawalAddress, f.terminated, f.withdrawn, new(big.Int), new(big.Int), new(big.Int))
	case "token":
		if f.noSchedules {
			return nil, revertWith("0x")
		}
		return m.Outputs.Pack(f.token)
	case "getPostClaimHandlers":
		return m.Outputs.Pack(f.handlers)
	}
	return nil, revertWith("0x")
}

// fakeVesterCode is the code the fake answers for its vester, so that the
// profile can pin it.
var fakeVesterCode = []byte{0x60, 0x00}

// handlerCode is the code of the post-claim handler as it was pinned.
var handlerCode = []byte{0x60, 0x02}

func (f *fakeVester) CodeAt(_ context.Context, addr common.Address, _ *big.Int) ([]byte, error) {
	if addr == f.vester {
		return fakeVesterCode, nil
	}
	return f.code[addr], nil
}

func (f *fakeVester) StorageAt(_ context.Context, addr common.Address, key common.Hash, _ *big.Int) ([]byte, error) {
	if addr == f.vester {
		return make([]byte, 32), nil
	}
	word := f.slots[key]
	return word[:], nil
}

func (f *fakeVester) HeaderByNumber(context.Context, *big.Int) (*types.Header, error) {
	return &types.Header{Number: big.NewInt(7), Time: uint64(f.head.Unix())}, nil
}

// revertWith is a node's answer to a call that reverted with data.
func revertWith(data string) error { return dataError{"execution reverted", data} }

// standingCase is the fake vester's allocation in one state of its life,
// and what a withdraw(0) pays then.
type standingCase struct {
	name   string
	change func(*fakeVester)
	state  string
	// claimable is what withdraw(0) pays, in ether; vested at VestedAt.
	claimable, vested int64
	transferred       bool
	underfunded       bool
}

// aliceHead is when the fake's chain is read: a day after genesis, when
// alice's calendar allocation has vested its first 25% (250 of 1,000).
var aliceHead = testStart.Add(24 * time.Hour)

var standingCases = []standingCase{
	{name: "active, nothing claimed", state: "active", claimable: 250, vested: 250},
	{name: "claimed in part", change: func(f *fakeVester) { f.withdrawn = ether(100) }, state: "active", claimable: 150, vested: 250},
	{name: "cancelled before its first unlock", change: func(f *fakeVester) { f.terminated = uint32(testStart.Unix()) - 10 },
		state: "cancelled", claimable: 0, vested: 0},
	{name: "cancelled after its first unlock", change: func(f *fakeVester) {
		f.terminated, f.withdrawn = uint32(testStart.Add(time.Hour).Unix()), ether(50)
	}, state: "cancelled", claimable: 200, vested: 250},
	{name: "revoked", change: func(f *fakeVester) { f.terminated = 1 }, state: "revoked", claimable: 0, vested: 0},
	{name: "revoked after a claim", change: func(f *fakeVester) { f.terminated, f.withdrawn = 1, ether(100) }, state: "revoked", claimable: 0, vested: 0},
	{name: "transferred", change: func(f *fakeVester) { f.withdrawalAddress = attacker }, state: "active", claimable: 250, vested: 250, transferred: true},
	{name: "underfunded", change: func(f *fakeVester) { f.balance, f.withdrawn = ether(40), ether(10) }, state: "active", claimable: 40, vested: 250, underfunded: true},
}

func aliceArgs(t testing.TB) vesting.Args {
	t.Helper()
	data, err := vesting.Encode(testAllocations(common.Address{0xa1}, common.Address{0xb0})[aliceLeaf])
	if err != nil {
		t.Fatal(err)
	}
	args, err := vesting.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return args
}

func TestStandingStates(t *testing.T) {
	args := aliceArgs(t)
	beneficiary := args.Allocation.OriginalBeneficiary
	for _, tc := range standingCases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeVester(common.Hash{1}, aliceHead)
			if tc.change != nil {
				tc.change(f)
			}
			s, err := ReadStanding(context.Background(), f, f.vester, args.Allocation.ID)
			if err != nil {
				t.Fatal(err)
			}
			p := s.Payout(args, aliceHead)
			if s.State() != tc.state || s.Transferred(beneficiary) != tc.transferred || p.Underfunded() != tc.underfunded {
				t.Errorf("state %s transferred %t underfunded %t; want %s, %t, %t",
					s.State(), s.Transferred(beneficiary), p.Underfunded(), tc.state, tc.transferred, tc.underfunded)
			}
			if p.Withdrawable.Cmp(ether(tc.claimable)) != 0 || p.Vested.Cmp(ether(tc.vested)) != 0 {
				t.Errorf("withdrawable %s vested %s; want %d, %d tokens", FormatUnits(p.Withdrawable), FormatUnits(p.Vested), tc.claimable, tc.vested)
			}
			if s.Token != f.token || s.VesterBalance.Cmp(f.balance) != 0 {
				t.Errorf("token %s balance %v; want the vester's token() and its balance", s.Token.Hex(), s.VesterBalance)
			}
			if want := map[bool]common.Address{true: attacker, false: beneficiary}[tc.transferred]; s.Recipient(beneficiary) != want {
				t.Errorf("recipient %s, want %s", s.Recipient(beneficiary).Hex(), want.Hex())
			}
		})
	}
}

// A vester without the production vester's record is NOT CHECKED with
// the reason, never a guess; withdrawn(string) is never asked.
func TestReadStandingNotProduction(t *testing.T) {
	f := newFakeVester(common.Hash{1}, aliceHead)
	f.noSchedules = true
	_, err := ReadStanding(context.Background(), f, f.vester, "a")
	if !errors.Is(err, ErrNoSchedules) {
		t.Errorf("err = %v; want ErrNoSchedules", err)
	}
	if _, err := ReadStanding(context.Background(), f, common.Address{0x42}, "a"); !errors.Is(err, ErrNoSchedules) {
		t.Errorf("no code: err = %v; want ErrNoSchedules", err)
	}
	if _, err := ReadStanding(context.Background(), failingCaller{}, f.vester, "a"); err == nil || errors.Is(err, ErrNoSchedules) {
		t.Errorf("unreachable node: err = %v; want a read error, not ErrNoSchedules", err)
	}
	if _, ok := vesterABI.Methods["withdrawn"]; ok {
		t.Error("the vester's interface declares withdrawn(string), which the production vester does not have")
	}
}

// fakeProof is a proof of alice's allocation alone in its tree: its root
// is its leaf.
func fakeProof(t testing.TB) (*Proof, common.Hash) {
	t.Helper()
	data, err := vesting.Encode(testAllocations(common.Address{0xa1}, common.Address{0xb0})[aliceLeaf])
	if err != nil {
		t.Fatal(err)
	}
	leaf := merkle.Leaf(data)
	return &Proof{ID: "alice", DecodableArgs: data, Hash: &leaf}, leaf
}

func TestVerifyProofStanding(t *testing.T) {
	p, root := fakeProof(t)
	for _, tc := range standingCases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeVester(root, aliceHead)
			if tc.change != nil {
				tc.change(f)
			}
			v := VerifyProof(context.Background(), p, VerifyOptions{Now: aliceHead, Chain: f, Candidates: []common.Address{f.vester}})
			if !v.OK() {
				t.Fatalf("outcome %s: %v %v", v.Outcome(), v.Failures(), v.Unchecked())
			}
			if c := v.Claimable(); c == nil || c.Cmp(ether(tc.claimable)) != 0 {
				t.Errorf("claimable %v, want %d tokens", c, tc.claimable)
			}
			raw, err := v.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"state":"` + tc.state + `"`, `"claimable":"` + FormatUnits(ether(tc.claimable)) + `"`,
				`"claimableBaseUnits":"` + ether(tc.claimable).String() + `"`, `"vesterBalance":"` + FormatUnits(f.balance) + `"`,
				`"withdrawn":"` + FormatUnits(f.withdrawn) + `"`, `"revoked":` + map[bool]string{true: "true", false: "false"}[tc.state == "revoked"],
				`"transferred":` + map[bool]string{true: "true", false: "false"}[tc.transferred]} {
				if !bytes.Contains(raw, []byte(want)) {
					t.Errorf("JSON lacks %s:\n%s", want, raw)
				}
			}
			if at, ok := v.Standing.CancelledAt(); ok != bytes.Contains(raw, []byte(`"cancelledAt":"`+isotime.Format(at)+`"`)) {
				t.Errorf("cancelledAt %v, %t not in JSON:\n%s", at, ok, raw)
			}
		})
	}
	t.Run("not the production vester", func(t *testing.T) {
		f := newFakeVester(root, aliceHead)
		f.noSchedules = true
		v := VerifyProof(context.Background(), p, VerifyOptions{Now: aliceHead, Chain: f, Candidates: []common.Address{f.vester}})
		if v.Outcome() != NotChecked || v.StateCheck.State != NotChecked || !strings.Contains(v.StateCheck.Reason, "does not answer schedules") {
			t.Errorf("outcome %s, state check %+v; want NOT CHECKED with the reason", v.Outcome(), v.StateCheck)
		}
		if v.Claimable() != nil {
			t.Errorf("claimable %v guessed without the vester's record", v.Claimable())
		}
		raw, _ := v.MarshalJSON()
		if !bytes.Contains(raw, []byte(`"claimable":null`)) || !bytes.Contains(raw, []byte(`"onChainState":{"state":"NOT CHECKED"`)) {
			t.Errorf("JSON:\n%s", raw)
		}
	})
}

// aliceClaim is the policy of alice's claim on the fake vester, and a
// withdraw call of amount for it (through handler when not zero).
func aliceClaim(t testing.TB, f *fakeVester, p *Proof, signer common.Address, amount *big.Int, handler common.Address) (ClaimPolicy, Call) {
	t.Helper()
	var data []byte
	var err error
	if handler == (common.Address{}) {
		data, err = vesterABI.Pack("withdraw", amount, p.RootIndex, p.DecodableArgs, [][32]byte{})
	} else {
		data, err = vesterABI.Pack("withdraw0", amount, p.RootIndex, p.DecodableArgs, [][32]byte{}, handler, []byte{1})
	}
	if err != nil {
		t.Fatal(err)
	}
	args, _ := vesting.Decode(p.DecodableArgs)
	pins := Pins{Vesters: []common.Address{f.vester}, CodeHashes: map[common.Address]common.Hash{f.vester: crypto.Keccak256Hash(fakeVesterCode)}}
	policy := ClaimPolicy{AllocationID: args.Allocation.ID, Signer: signer, ChainID: 1, Proof: p, Pins: pins}
	return policy, Call{ChainID: 1, From: signer, To: f.vester, Data: data, Value: new(big.Int)}
}

func TestCheckClaimStanding(t *testing.T) {
	p, root := fakeProof(t)
	alice := common.Address{0xa1}
	handler := common.HexToAddress("0x0000000000000000000000000000000000004a0d")
	for _, tc := range []struct {
		name    string
		change  func(*fakeVester)
		signer  common.Address
		amount  *big.Int
		handler common.Address
		pins    []common.Address
		refused string   // empty: approved
		facts   []string // what the review says
	}{
		{name: "active", amount: ether(250), facts: []string{alice.Hex() + ", the leaf's beneficiary", "250.00 tokens: 250.00 vested"}},
		{name: "revoked", change: func(f *fakeVester) { f.terminated = 1 }, amount: new(big.Int),
			refused: "the allocation was revoked on the vester: nothing of it vests"},
		{name: "more than is withdrawable after a claim", change: func(f *fakeVester) { f.withdrawn = ether(100) }, amount: ether(200),
			refused: "withdraws 200.00 tokens; 150.00 are claimable now"},
		{name: "cancelled: more than vested at the cancel", change: func(f *fakeVester) { f.terminated = uint32(testStart.Unix()) - 10 }, amount: ether(1),
			refused: "withdraws 1.00 tokens; 0.00 are claimable now"},
		{name: "cancelled: all of it", change: func(f *fakeVester) { f.terminated = uint32(testStart.Unix()) - 10 }, amount: new(big.Int),
			refused: "nothing is claimable now"},
		{name: "a vester too poor to pay it", change: func(f *fakeVester) { f.balance = ether(40) }, amount: ether(100),
			refused: "withdraws 100.00 tokens; the vester holds only 40.00, too few to pay it"},
		{name: "a vester with nothing to pay", change: func(f *fakeVester) { f.balance = new(big.Int) }, amount: new(big.Int),
			refused: "the vester holds no tokens to pay it (250.00 are owed)"},
		{name: "underfunded, all it holds", change: func(f *fakeVester) { f.balance = ether(40) }, amount: new(big.Int),
			facts: []string{"the vester holds 40.00 tokens, less than the 250.00 vested and not withdrawn"}},
		{name: "transferred", change: func(f *fakeVester) { f.withdrawalAddress = attacker }, amount: new(big.Int),
			facts: []string{attacker.Hex() + ", the withdrawal address the vester holds: NOT the leaf's beneficiary " + alice.Hex(), "NOT the signer " + alice.Hex()}},
		{name: "signed by another", signer: common.Address{0x5e}, amount: new(big.Int),
			facts: []string{alice.Hex() + ", the leaf's beneficiary; NOT the signer " + common.Address{0x5e}.Hex()}},
		{name: "not the production vester", change: func(f *fakeVester) { f.noSchedules = true }, amount: new(big.Int),
			refused: "does not answer schedules(allocationId)"},
		{name: "a handler on the vester's whitelist, no handler pinned", change: func(f *fakeVester) { f.handlers = []common.Address{{}, handler} },
			amount: new(big.Int), handler: handler,
			refused: "the post-claim handler " + handler.Hex() + " is not pinned in the profile"},
		{name: "a handler on the whitelist and the pins", change: func(f *fakeVester) { f.handlers = []common.Address{handler} },
			amount: new(big.Int), handler: handler, pins: []common.Address{handler},
			facts: []string{"handler contract " + handler.Hex() + ", not to your wallet", "pinned in the profile, its code as pinned"}},
		{name: "a pinned handler whose code was swapped", change: func(f *fakeVester) {
			f.handlers = []common.Address{handler}
			f.code[handler] = []byte{0x60, 0x01, 0xff}
		}, amount: new(big.Int), handler: handler, pins: []common.Address{handler},
			refused: "the code of the post-claim handler " + handler.Hex() + " changed since it was pinned"},
		{name: "a pinned handler without code", change: func(f *fakeVester) {
			f.handlers = []common.Address{handler}
			delete(f.code, handler)
		}, amount: new(big.Int), handler: handler, pins: []common.Address{handler},
			refused: "the post-claim handler " + handler.Hex() + " has no code on the chain"},
		{name: "a handler off the vester's whitelist", change: func(f *fakeVester) { f.handlers = []common.Address{{}} },
			amount: new(big.Int), handler: handler, refused: "which is not on the vester's whitelist of post-claim handlers"},
		{name: "a direct claim on a vester that pays only through handlers", change: func(f *fakeVester) { f.handlers = []common.Address{handler} },
			amount: new(big.Int), refused: "this vester pays only through its post-claim handlers " + handler.Hex()},
		{name: "a handler off the pins", change: func(f *fakeVester) { f.handlers = []common.Address{handler} },
			amount: new(big.Int), handler: handler, pins: []common.Address{attacker}, refused: "the post-claim handler " + handler.Hex() + " is not pinned in the profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeVester(root, aliceHead)
			f.code = map[common.Address][]byte{handler: handlerCode}
			if tc.change != nil {
				tc.change(f)
			}
			signer := alice
			if tc.signer != (common.Address{}) {
				signer = tc.signer
			}
			policy, call := aliceClaim(t, f, p, signer, tc.amount, tc.handler)
			policy.Pins.Handlers = tc.pins
			for _, h := range tc.pins {
				policy.Pins.CodeHashes[h] = crypto.Keccak256Hash(handlerCode)
			}
			a, err := CheckClaim(context.Background(), f, policy, []Call{call})
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("err = %v; want a refusal saying %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var said strings.Builder
			for _, l := range a.Facts {
				said.WriteString(l.Label + ": " + l.Value + "\n")
			}
			for _, want := range tc.facts {
				if !strings.Contains(said.String(), want) {
					t.Errorf("the review does not say %q:\n%s", want, said.String())
				}
			}
		})
	}
}

// The review's decoding of a withdraw names where the tokens really go:
// the withdrawal address the vester holds once the allocation was
// transferred, not the leaf's beneficiary.
func TestDecodeWithdrawNamesTheRecipient(t *testing.T) {
	p, root := fakeProof(t)
	f := newFakeVester(root, aliceHead)
	f.withdrawalAddress = attacker
	_, call := aliceClaim(t, f, p, common.Address{0xa1}, new(big.Int), common.Address{})
	s := DecodeCall(context.Background(), call, DecodeOptions{Signer: common.Address{0xa1}, ChainID: 1, Chain: f})
	var said []string
	for _, w := range s.Warnings {
		said = append(said, w.Message)
	}
	want := "the tokens go to " + attacker.Hex() + " (the withdrawal address the vester holds, not the leaf's beneficiary " + common.Address{0xa1}.Hex() + ")"
	if !s.Has(WarnNotBeneficiary) || !strings.Contains(strings.Join(said, "\n"), want) {
		t.Errorf("warnings %q; want one saying %q", said, want)
	}
}

// TestClaimAmountsNameTheToken: the policy says its amounts in the token
// the vester pays (ClaimPolicy.Units), as every other line of the review
// does, and "tokens" only when it is not known.
func TestClaimAmountsNameTheToken(t *testing.T) {
	p, root := fakeProof(t)
	alice := common.Address{0xa1}
	f := newFakeVester(root, aliceHead)
	policy, call := aliceClaim(t, f, p, alice, ether(250), common.Address{})
	policy.Units = func(v common.Address) string {
		if v == f.vester {
			return "MRD"
		}
		return ""
	}
	a, err := CheckClaim(context.Background(), f, policy, []Call{call})
	if err != nil {
		t.Fatal(err)
	}
	var facts strings.Builder
	for _, l := range a.Facts {
		facts.WriteString(l.Label + ": " + l.Value + "\n")
	}
	for _, want := range []string{"250.00 MRD: 250.00 vested at " + FactTime(aliceHead), "the vester holds ", " MRD\n"} {
		if !strings.Contains(facts.String(), want) {
			t.Errorf("facts lack %q:\n%s", want, facts.String())
		}
	}
	f.withdrawn = ether(100)
	_, err = CheckClaim(context.Background(), f, policy, []Call{call})
	if err == nil || !strings.Contains(err.Error(), "withdraws 250.00 MRD; 150.00 are claimable now") {
		t.Errorf("refusal %v", err)
	}
}
