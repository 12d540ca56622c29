package wallet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api/sandbox/chain"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/safetest"
)

// safePolicyWorld is the real Safe 1.4.1 and MultiSendCallOnly on a chain,
// a 2-of-3 Safe read from it, and a policy whose key check approves
// everything unless told to refuse.
func safePolicyWorld(t *testing.T) (*chain.Chain, *safetest.Safes, SafePolicy) {
	c, safes, p, _ := safePolicyOwners(t)
	return c, safes, p
}

// safePolicyOwners is safePolicyWorld with the owners' keys.
func safePolicyOwners(t *testing.T) (*chain.Chain, *safetest.Safes, SafePolicy, []*ecdsa.PrivateKey) {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before a chain starts
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	c, err := chain.New(chain.Options{Balances: map[common.Address]*big.Int{from: ether(100)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	d := &safetest.Deployer{Client: c.Client(), Key: key, Commit: func() { c.Commit() }}
	safes := safetest.DeploySafes(t, d)
	var keys []*ecdsa.PrivateKey
	var owners []common.Address
	for i := 0; i < 3; i++ {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		keys, owners = append(keys, k), append(owners, crypto.PubkeyToAddress(k.PublicKey))
	}
	addr := safes.Create(t, d, safes.Singleton, owners, 2, 1)
	info, err := safe.Read(context.Background(), c.Client(), addr)
	if err != nil {
		t.Fatal(err)
	}
	p := SafePolicy{ChainID: c.ChainID(), Safe: info, MultiSend: safes.MultiSendAddr,
		Inner: func(_ context.Context, _ Pins, calls []Call) (*Approval, error) {
			for _, c := range calls {
				if c.From != addr {
					return nil, &RefusedError{Subject: "test", Reasons: []string{"a call not from the Safe"}}
				}
			}
			return &Approval{calls: calls, Facts: []Line{{"inner", "approved"}}}, nil
		}}
	return c, safes, p, keys
}

// TestSafeTxPolicy: a batch made through the pinned MultiSendCallOnly, and
// one call made as it is, are approved with the key's facts; everything
// else a hostile proposer could hand an owner is refused: a rewritten
// inner call, a MultiSend whose code is not the canonical one, a
// delegatecall to anything but the pinned MultiSendCallOnly, one call
// made by a delegatecall, a stale nonce, a gas refund, a call the key's
// policy refuses, a Safe whose singleton is not a canonical Safe.
func TestSafeTxPolicy(t *testing.T) {
	c, safes, p := safePolicyWorld(t)
	ctx := context.Background()
	token, pool := common.HexToAddress("0x00000000000000000000000000000000000070c3"), common.HexToAddress("0x000000000000000000000000000000000000b001")
	calls := []safe.InnerCall{{To: token, Data: []byte{0x09, 1}}, {To: pool, Value: big.NewInt(3), Data: []byte{0x0a, 2}}}
	batch, err := safe.Carry(calls, p.MultiSend, p.Safe.Nonce)
	if err != nil {
		t.Fatal(err)
	}
	a, err := CheckSafeTx(ctx, c.Client(), p, calls, batch)
	if err != nil {
		t.Fatalf("the batch: %v", err)
	}
	if len(a.Calls) != 2 || !hasFact(a.Facts, "MultiSendCallOnly", "canonical MultiSendCallOnly 1.4.1") || !hasFact(a.Facts, "inner", "approved") {
		t.Errorf("approved %d calls, facts %v", len(a.Calls), a.Facts)
	}
	one, _ := safe.Carry(calls[:1], p.MultiSend, p.Safe.Nonce)
	if _, err := CheckSafeTx(ctx, c.Client(), p, calls[:1], one); err != nil {
		t.Errorf("one call: %v", err)
	}

	rewritten := []safe.InnerCall{calls[0], {To: pool, Value: big.NewInt(3), Data: []byte{0x0a, 3}}}
	unpinned := p
	unpinned.MultiSend = safes.Singleton // code, but not a MultiSendCallOnly's
	viaUnpinned, _ := safe.Carry(calls, unpinned.MultiSend, p.Safe.Nonce)
	elsewhere := batch
	elsewhere.To = safes.FactoryAddr
	oneDelegated := one
	oneDelegated.Operation = safe.DelegateCall
	stale := batch
	stale.Nonce = big.NewInt(1)
	refund := batch
	refund.RefundReceiver = token
	innerRefuses := p
	innerRefuses.Inner = func(context.Context, Pins, []Call) (*Approval, error) {
		return nil, &RefusedError{Subject: "stake", Reasons: []string{"call 2 stakes 5 tokens; you asked for 4"}}
	}
	notASafe := p
	notASafe.Safe.SingletonCodeHash = common.Hash{1}
	for name, tc := range map[string]struct {
		p     SafePolicy
		calls []safe.InnerCall
		tx    safe.Tx
		want  string
	}{
		"a rewritten inner call":               {p, rewritten, batch, "does not make exactly the calls reviewed"},
		"an unpinned MultiSend":                {unpinned, calls, viaUnpinned, "is not a canonical MultiSendCallOnly"},
		"a delegatecall elsewhere":             {p, calls, elsewhere, "allot makes one only to the MultiSendCallOnly"},
		"one call by a delegatecall":           {p, calls[:1], oneDelegated, "allot makes one only to the MultiSendCallOnly"},
		"a stale nonce":                        {p, calls, stale, "the Safe's next is 0"},
		"a gas refund":                         {p, calls, refund, "refunds gas from the Safe's funds"},
		"a call the key's policy refuses":      {innerRefuses, calls, batch, "the Safe's call 2 stakes 5 tokens"},
		"a Safe whose singleton is not Safe's": {notASafe, calls, batch, "is not a Safe allot signs for"},
	} {
		_, err := CheckSafeTx(ctx, c.Client(), tc.p, tc.calls, tc.tx)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a refusal saying %q", name, err, tc.want)
		}
	}
}

func hasFact(facts []Line, label, value string) bool {
	for _, f := range facts {
		if f.Label == label && strings.Contains(f.Value, value) {
			return true
		}
	}
	return false
}

// TestSafeExecPolicy: the execTransaction of a proposal two owners signed
// is approved, from the executor, sending nothing; another calldata (a
// signature left out), another sender, a value, and a proposal one
// owner signed are refused.
func TestSafeExecPolicy(t *testing.T) {
	c, _, p, keys := safePolicyOwners(t)
	ctx := context.Background()
	calls := []safe.InnerCall{{To: common.HexToAddress("0x00000000000000000000000000000000000070c3"), Data: []byte{0x09}},
		{To: common.HexToAddress("0x000000000000000000000000000000000000b001"), Data: []byte{0x0a}}}
	prop, err := proposal.New(p.ChainID, p.Safe, proposal.Act{Op: proposal.OpStake, Subject: "pool", Amount: big.NewInt(1)}, calls, p.MultiSend)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys[:2] {
		sig, err := crypto.Sign(prop.Hashes.SafeTx[:], k)
		if err != nil {
			t.Fatal(err)
		}
		sig[64] += 27
		if err := prop.AddSignature(crypto.PubkeyToAddress(k.PublicKey), sig); err != nil {
			t.Fatal(err)
		}
	}
	executor := common.HexToAddress("0x00000000000000000000000000000000000e8ec0")
	policy := ExecPolicy{SafePolicy: p, Executor: executor}
	data, err := safe.ExecData(prop.Tx, prop.Packed())
	if err != nil {
		t.Fatal(err)
	}
	exec := Call{ChainID: p.ChainID, From: executor, To: p.Safe.Address, Data: data, Value: new(big.Int)}
	a, err := CheckSafeExec(ctx, c.Client(), policy, prop, []Call{exec})
	if err != nil || len(a.Calls()) != 1 || !hasFact(a.Facts, "signatures", "2 of 2 owners signed") {
		t.Fatalf("the execution: %v, facts %v", err, a)
	}
	oneSig, _ := safe.ExecData(prop.Tx, prop.Signatures[0].Bytes)
	otherSender, withValue, shortData := exec, exec, exec
	otherSender.From = p.Safe.Address
	withValue.Value = big.NewInt(1)
	shortData.Data = oneSig
	for name, call := range map[string]Call{"another calldata": shortData, "another sender": otherSender, "a value": withValue} {
		if _, err := CheckSafeExec(ctx, c.Client(), policy, prop, []Call{call}); !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
	prop.Signatures = prop.Signatures[:1]
	if _, err := CheckSafeExec(ctx, c.Client(), policy, prop, []Call{exec}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "1 of 2 signatures") {
		t.Errorf("one signature: %v", err)
	}
}
