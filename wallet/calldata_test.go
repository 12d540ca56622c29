package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"allot/api/sandbox/chain"
	"allot/wallet/merkle"

	"github.com/ethereum/go-ethereum/common"
)

func warningKinds(s *Summary) []WarningKind {
	var out []WarningKind
	for _, w := range s.Warnings {
		out = append(out, w.Kind)
	}
	return out
}

func TestDecodeWithdrawWarnings(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	chainID := f.chain.ChainID()
	opts := func() DecodeOptions {
		return DecodeOptions{Signer: alice, ChainID: chainID, Known: f.known(), Chain: f.node}
	}
	for _, tc := range []struct {
		name   string
		call   func() Call
		opts   func(o *DecodeOptions)
		want   []WarningKind
		inText string
	}{
		{name: "clean", call: func() Call { return f.withdrawCall(t, aliceLeaf, alice, ether(10)) }},
		{name: "unknown selector", call: func() Call {
			c := f.withdrawCall(t, aliceLeaf, alice, ether(10))
			c.Data[0] ^= 0xff
			return c
		}, want: []WarningKind{WarnUnknownCalldata}, inText: "is not a call allot knows"},
		{name: "trailing bytes", call: func() Call {
			c := f.withdrawCall(t, aliceLeaf, alice, ether(10))
			c.Data = append(c.Data, 0)
			return c
		}, want: []WarningKind{WarnUnknownCalldata}},
		{name: "to not a known contract", call: func() Call { return f.withdrawCall(t, aliceLeaf, alice, ether(10)) },
			opts: func(o *DecodeOptions) { delete(o.Known, f.vester) }, want: []WarningKind{WarnUnknownContract}, inText: "not a contract allot knows"},
		{name: "beneficiary not the signer", call: func() Call { return f.withdrawCall(t, bobLeaf, alice, ether(10)) },
			want: []WarningKind{WarnNotBeneficiary}, inText: "the tokens go to " + f.bob.Address().Hex() + " (the leaf's beneficiary), not to the signer"},
		{name: "sender not the signer", call: func() Call { return f.withdrawCall(t, aliceLeaf, f.bob.Address(), ether(10)) },
			want: []WarningKind{WarnWrongSender}},
		{name: "proof does not verify", call: func() Call {
			p := f.proof(t, aliceLeaf)
			p.Siblings[0][0] ^= 1
			data, _ := chain.PackWithdraw(ether(10), 0, p.DecodableArgs, p.Siblings)
			return Call{ChainID: chainID, From: alice, To: f.vester, Data: data, Value: claimFee}
		}, want: []WarningKind{WarnProofInvalid}, inText: "does not lead to the vester's root 0"},
		{name: "unknown root", call: func() Call {
			p := f.proof(t, aliceLeaf)
			data, _ := chain.PackWithdraw(ether(10), 3, p.DecodableArgs, p.Siblings)
			return Call{ChainID: chainID, From: alice, To: f.vester, Data: data, Value: claimFee}
		}, want: []WarningKind{WarnProofInvalid}, inText: "no root number 3"},
		{name: "malformed leaf", call: func() Call {
			leaf := merkle.Leaf([]byte("junk"))
			data, _ := chain.PackWithdraw(ether(10), 0, []byte("junk"), []common.Hash{leaf})
			return Call{ChainID: chainID, From: alice, To: f.vester, Data: data, Value: claimFee}
		}, want: []WarningKind{WarnMalformedLeaf, WarnProofInvalid}},
		{name: "value is not the claim fee", call: func() Call {
			c := f.withdrawCall(t, aliceLeaf, alice, ether(10))
			c.Value = big.NewInt(0)
			return c
		}, want: []WarningKind{WarnFeeMismatch}, inText: "the contract's claim fee is 0.001 ether"},
		{name: "other chain", call: func() Call {
			c := f.withdrawCall(t, aliceLeaf, alice, ether(10))
			c.ChainID = 1
			return c
		}, want: []WarningKind{WarnWrongChain}, inText: "for chain 1"},
		{name: "no chain", call: func() Call { return f.withdrawCall(t, aliceLeaf, alice, ether(10)) },
			opts: func(o *DecodeOptions) { o.Chain = nil }, want: []WarningKind{WarnUnchecked}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts()
			if tc.opts != nil {
				tc.opts(&o)
			}
			s := DecodeCall(ctx, tc.call(), o)
			if got := warningKinds(s); !slices.Equal(got, tc.want) {
				t.Errorf("warnings %v, want %v: %v", got, tc.want, s.Warnings)
			}
			if tc.inText != "" && !slices.ContainsFunc(s.Warnings, func(w Warning) bool { return strings.Contains(w.Message, tc.inText) }) {
				t.Errorf("no warning says %q: %v", tc.inText, s.Warnings)
			}
		})
	}
}

func TestDecodeWithdrawDetails(t *testing.T) {
	f := newFixture(t)
	alice := f.alice.Address()
	s := DecodeCall(context.Background(), f.withdrawCall(t, aliceLeaf, alice, big.NewInt(1_500_000_000_000_000_000)),
		DecodeOptions{Signer: alice, ChainID: f.chain.ChainID(), Known: f.known(), Chain: f.node})
	if s.Title() != "vester withdraw" || s.Signature != "withdraw(uint256,uint32,bytes,bytes32[])" || s.Known != "Test vester" {
		t.Errorf("title %q, signature %q, known %q", s.Title(), s.Signature, s.Known)
	}
	wantArgs := []Arg{
		{Name: "withdrawalAmount", Type: "uint256", Value: "1500000000000000000", Units: "1.5"},
		{Name: "rootIndex", Type: "uint32", Value: "0"},
		{Name: "decodableArgs", Type: "bytes", Value: fmt.Sprintf("%d bytes", len(f.args[aliceLeaf]))},
		{Name: "proof", Type: "bytes32[]", Value: "3 hashes"},
	}
	if !slices.Equal(s.Args, wantArgs) {
		t.Errorf("args %+v\nwant %+v", s.Args, wantArgs)
	}
	w := s.Withdraw
	if w == nil || w.Allocation == nil || w.Allocation.Allocation.ID != "7f3c2a10-0000-4000-8000-00000000a11c" ||
		w.ProofLength != 3 || w.RootIndex != 0 || w.OnChainRoot == nil || *w.OnChainRoot != f.tree.Root() {
		t.Errorf("withdrawal %+v", w)
	}
	if s.ValueEther() != "0.001" {
		t.Errorf("value %s ether", s.ValueEther())
	}
	// The ether sent is named as the fee it pays, once the chain says so.
	if lines := s.Lines(); lines[len(lines)-1] != (Line{"ether sent", "0.001 = the claim fee (read from the chain)"}) {
		t.Errorf("last line %+v", lines[len(lines)-1])
	}
	c := f.withdrawCall(t, aliceLeaf, alice, big.NewInt(1))
	c.Value = big.NewInt(0)
	wrong := DecodeCall(context.Background(), c, DecodeOptions{Signer: alice, ChainID: f.chain.ChainID(), Known: f.known(), Chain: f.node})
	if lines := wrong.Lines(); lines[len(lines)-1] != (Line{"ether sent", "0"}) || wrong.Pays != "" {
		t.Errorf("ether that is not the fee is named %+v", lines[len(lines)-1])
	}
}

func TestDecodeStakeApproveTransfer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	opts := DecodeOptions{Signer: alice, ChainID: f.chain.ChainID(), Known: f.known(), Chain: f.node}
	stake, _ := chain.PackStake(ether(5))
	approve, _ := chain.PackApprove(f.pool, big.NewInt(2_500_000_000_000_000_000))
	transfer, _ := tokenABI.Pack("transfer", f.bob.Address(), big.NewInt(1))
	for _, tc := range []struct {
		name  string
		call  Call
		title string
		args  []Arg
		want  []WarningKind
	}{
		{"stake", Call{From: alice, To: f.pool, Data: stake, Value: platformFee}, "staking pool stake",
			[]Arg{{Name: "amount", Type: "uint256", Value: "5000000000000000000", Units: "5"}}, nil},
		{"stake without its fee", Call{From: alice, To: f.pool, Data: stake, Value: big.NewInt(0)}, "staking pool stake", nil,
			[]WarningKind{WarnFeeMismatch}},
		{"approve", Call{From: alice, To: f.token, Data: approve, Value: big.NewInt(0)}, "ERC-20 token approve",
			[]Arg{{Name: "spender", Type: "address", Value: f.pool.Hex()}, {Name: "value", Type: "uint256", Value: "2500000000000000000", Units: "2.5"}}, nil},
		{"approve with value", Call{From: alice, To: f.token, Data: approve, Value: big.NewInt(1)}, "ERC-20 token approve", nil,
			[]WarningKind{WarnFeeMismatch}},
		{"transfer", Call{From: alice, To: f.token, Data: transfer}, "ERC-20 token transfer",
			[]Arg{{Name: "to", Type: "address", Value: f.bob.Address().Hex()}, {Name: "value", Type: "uint256", Value: "1", Units: "0.000000000000000001"}}, nil},
		{"empty calldata", Call{From: alice, To: f.token}, "unknown call to " + f.token.Hex(), nil, []WarningKind{WarnUnknownCalldata}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DecodeCall(ctx, tc.call, opts)
			if s.Title() != tc.title {
				t.Errorf("title %q, want %q", s.Title(), tc.title)
			}
			if tc.args != nil && !slices.Equal(s.Args, tc.args) {
				t.Errorf("args %+v, want %+v", s.Args, tc.args)
			}
			if got := warningKinds(s); !slices.Equal(got, tc.want) {
				t.Errorf("warnings %v, want %v: %v", got, tc.want, s.Warnings)
			}
		})
	}
}

func TestParseInstruction(t *testing.T) {
	from, to := "0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"
	c, err := ParseInstruction(31337, from, to, "0xa9059cbb", "1000000000000000")
	if err != nil || c.ChainID != 31337 || c.To != common.HexToAddress(to) || c.Value.Cmp(claimFee) != 0 || len(c.Data) != 4 {
		t.Fatalf("ParseInstruction = %+v, %v", c, err)
	}
	for _, tc := range []struct{ name, from, to, data, value string }{
		{"bad from", "alice", to, "0x", "0"},
		{"bad to", from, "0x22", "0x", "0"},
		{"bad data", from, to, "0xzz", "0"},
		{"negative value", from, to, "0x", "-1"},
		{"decimal value", from, to, "0x", "1.5"},
		{"huge value", from, to, "0x", "1" + strings.Repeat("0", 80)},
	} {
		if _, err := ParseInstruction(1, tc.from, tc.to, tc.data, tc.value); !errors.Is(err, ErrCall) {
			t.Errorf("%s: %v, want ErrCall", tc.name, err)
		}
	}
	s, err := ParseStake(from, to, "0x", "0.01")
	if err != nil || s.Value.Cmp(platformFee) != 0 || s.ChainID != 0 {
		t.Errorf("ParseStake = %+v, %v", s, err)
	}
	if _, err := ParseStake(from, to, "0x", "0.0000000000000000001"); !errors.Is(err, ErrAmount) {
		t.Errorf("fee finer than wei: %v, want ErrAmount", err)
	}
}

func FuzzDecodeCalldata(f *testing.F) {
	stake, _ := chain.PackStake(big.NewInt(5))
	approve, _ := chain.PackApprove(common.Address{1}, big.NewInt(5))
	withdraw, _ := chain.PackWithdraw(big.NewInt(5), 1, []byte("decodable"), []common.Hash{{1}, {2}})
	multicall, _ := vesterABI.Pack("multicall", [][]byte{withdraw, stake})
	for _, seed := range [][]byte{nil, {1, 2, 3}, stake, approve, withdraw, withdraw[:len(withdraw)-7], multicall} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := DecodeCall(context.Background(), Call{Data: data}, DecodeOptions{})
		if s.Decoded() == s.Has(WarnUnknownCalldata) {
			t.Fatalf("decoded %v but unknown-calldata warning %v", s.Decoded(), s.Has(WarnUnknownCalldata))
		}
		if s.Decoded() && len(s.Args) == 0 {
			t.Fatal("decoded without arguments")
		}
	})
}

func TestSummaryJSON(t *testing.T) {
	f := newFixture(t)
	alice := f.alice.Address()
	s := DecodeCall(context.Background(), f.withdrawCall(t, bobLeaf, alice, ether(2)),
		DecodeOptions{Signer: alice, ChainID: f.chain.ChainID(), Known: f.known(), Chain: f.node})
	var got map[string]any
	if err := json.Unmarshal(mustJSON(t, s), &got); err != nil {
		t.Fatal(err)
	}
	w := got["withdrawal"].(map[string]any)
	args := got["args"].([]any)
	warnings := got["warnings"].([]any)
	if got["function"] != "withdraw" || got["to"] != f.vester.Hex() || got["toLabel"] != "Test vester" || got["valueEther"] != "0.001" ||
		got["valueWei"] != "1000000000000000" || len(args) != 4 || args[0].(map[string]any)["units"] != "2" ||
		w["amount"] != "2" || w["beneficiary"] != f.bob.Address().Hex() || w["allocationId"] != "7f3c2a10-0000-4000-8000-000000000b0b" ||
		w["onChainRoot"] != f.tree.Root().Hex() || len(warnings) != 1 || warnings[0].(map[string]any)["kind"] != string(WarnNotBeneficiary) {
		t.Errorf("JSON %s", mustJSON(t, s))
	}
}
