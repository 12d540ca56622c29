package wallet

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"allot/api/sandbox/chain"
	"allot/wallet/merkle"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// attacker is where a hostile service would send the tokens or the ether.
var attacker = common.HexToAddress("0x00000000000000000000000000000000a77ac4e5")

// claimPolicy is the policy of alice's claim of her own allocation, asking
// for all that is claimable, over the fixture's contracts, the vester
// pinned.
func (f *fixture) claimPolicy(t testing.TB, leaf int) ClaimPolicy {
	return ClaimPolicy{
		AllocationID: testAllocations(f.alice.Address(), f.bob.Address())[leaf].Allocation.ID,
		Signer:       f.alice.Address(),
		ChainID:      f.chain.ChainID(),
		Proof:        f.proof(t, leaf),
		Candidates:   []common.Address{f.pool, f.token, f.vester},
		Pins:         f.pins(t, PinVester, f.vester),
	}
}

// pins pins addrs as kind, with the code each has now.
func (f *fixture) pins(t testing.TB, kind PinKind, addrs ...common.Address) Pins {
	t.Helper()
	var p Pins
	p.SetList(kind, addrs)
	f.recordCode(t, &p, addrs...)
	return p
}

// recordCode records the code hashes of addrs in p, as a pin does.
func (f *fixture) recordCode(t testing.TB, p *Pins, addrs ...common.Address) {
	t.Helper()
	if p.CodeHashes == nil {
		p.CodeHashes = map[common.Address]common.Hash{}
	}
	for _, a := range addrs {
		hash, err := CodeHash(context.Background(), f.node, a)
		if err != nil {
			t.Fatal(err)
		}
		p.CodeHashes[a] = hash
	}
}

// forgingNode answers for an address with no code what the contract at
// real answers: a node that vouches for what is not there.
type forgingNode struct {
	Node
	forged, real common.Address
}

func (n forgingNode) CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if call.To != nil && *call.To == n.forged {
		to := n.real
		call.To = &to
	}
	return n.Node.CallContract(ctx, call, block)
}

// failingNode is a node whose contract calls cannot reach it.
type failingNode struct{ Node }

func (failingNode) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return nil, errors.New("dial tcp 127.0.0.1:1: connection refused")
}

// TestHolderKind: the review of a claim sent for another says whether the
// tokens go to a contract (a Safe, a treasury) or to a wallet.
func TestHolderKind(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if got := holderKind(ctx, f.node, f.vester); got != "a contract" {
		t.Errorf("the vester is %q, want a contract", got)
	}
	if got := holderKind(ctx, f.node, f.alice.Address()); got != "a wallet" {
		t.Errorf("alice is %q, want a wallet", got)
	}
}

func TestCheckClaim(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	// A second vester of the same token, holding another root: it answers
	// merkleRoots, but not with this proof's root.
	var other common.Address
	err := f.chain.Transact(ctx, func(b *chain.Batch) {
		other = b.DeployVester(f.token, claimFee)
		b.AddRoot(other, common.Hash{0x0e})
	})
	if err != nil {
		t.Fatal(err)
	}
	approve, _ := tokenABI.Pack("approve", attacker, maxUint256)
	transfer, _ := tokenABI.Pack("transfer", attacker, ether(250))
	withdraw := func(amount *big.Int) Call { return f.withdrawCall(t, aliceLeaf, alice, amount) }
	with := func(c Call, change func(*Call)) Call { change(&c); return c }

	for _, tc := range []struct {
		name   string
		calls  func() []Call
		policy func(*ClaimPolicy)
		node   Node
		// noChain: the profile has no rpc_url.
		noChain bool
		// refused lists what the reasons must say; empty: approved.
		refused   []string
		unchecked bool
		// unpinned: refused only for these missing pins.
		unpinned []Unpinned
		facts    []string
	}{
		{name: "a withdraw of part of what is claimable, as asked", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { p.Amount = ether(10) },
			facts:  []string{f.vester.Hex() + " holds root 0 (read from the chain) · pinned in the profile, its code as pinned (0x", "0.001 ether (read from the chain)", "250.00 tokens: 250.00 vested"}},
		{name: "a withdraw of all that is claimable", calls: func() []Call { return []Call{withdraw(ether(250))} }},
		{name: "withdraw(0): all that is vested", calls: func() []Call { return []Call{withdraw(new(big.Int))} }},
		{name: "the amount asked", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { p.Amount = ether(10) }},
		{name: "a pinned vester", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) {
				p.Pins.Vesters = []common.Address{other, f.vester}
				f.recordCode(t, &p.Pins, other)
				p.Candidates, p.Amount = nil, ether(10)
			},
			facts: []string{"holds root 0 (read from the chain) · pinned in the profile"}},
		{name: "another's allocation: anyone may send it, the tokens go to the beneficiary",
			calls:  func() []Call { return []Call{f.withdrawCall(t, aliceLeaf, f.bob.Address(), ether(1))} },
			policy: func(p *ClaimPolicy) { p.Signer, p.Amount = f.bob.Address(), ether(1) },
			facts: []string{alice.Hex() + ", the leaf's beneficiary; NOT the signer " + f.bob.Address().Hex(),
				"you pay: " + FormatUnits(claimFee) + " ether and gas; 1.00 tokens go to " + alice.Hex() + ", a wallet, not to you"}},

		{name: "an unlimited approve to an attacker", calls: func() []Call {
			return []Call{{ChainID: f.chain.ChainID(), From: alice, To: f.token, Data: approve, Value: new(big.Int)}}
		}, refused: []string{"call 1 is an UNLIMITED approve of token " + f.token.Hex() + " to " + attacker.Hex()}},
		{name: "a transfer", calls: func() []Call {
			return []Call{{ChainID: f.chain.ChainID(), From: alice, To: f.token, Data: transfer, Value: new(big.Int)}}
		}, refused: []string{"call 1 is a transfer of 250.00 tokens"}},
		{name: "a withdraw to a contract that is not the vester",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = attacker })} },
			refused: []string{"call 1 goes to " + attacker.Hex() + ", not to the vester " + f.vester.Hex()}},
		{name: "a withdraw to the other vester",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = other })} },
			refused: []string{"not to the vester " + f.vester.Hex()}},
		{name: "a withdraw with 50 ether",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.Value = ether(50) })} },
			refused: []string{"sends 50 ether, more than max_native_fee 0.01 ether", "the vester's claim fee is 0.001 ether"}},
		{name: "a withdraw without the fee",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.Value = new(big.Int) })} },
			refused: []string{"sends 0 ether; the vester's claim fee is 0.001 ether"}},
		{name: "a valid withdraw and an extra call", calls: func() []Call {
			return []Call{withdraw(ether(10)), {ChainID: f.chain.ChainID(), From: alice, To: f.token, Data: transfer, Value: new(big.Int)}}
		}, refused: []string{"exactly one vester withdraw; the service's answer holds 2 calls", "call 2 is a transfer"}},
		{name: "no call", calls: func() []Call { return nil }, refused: []string{"holds 0 calls"}},
		{name: "another chain",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.ChainID = 5 })} },
			refused: []string{"call 1 is for chain 5"}},
		{name: "another sender",
			calls:   func() []Call { return []Call{f.withdrawCall(t, aliceLeaf, f.bob.Address(), ether(10))} },
			refused: []string{"not by the signer " + alice.Hex()}},
		{name: "calldata allot cannot decode",
			calls:   func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.Data = append(c.Data, 0) })} },
			refused: []string{"calldata allot cannot decode"}},
		{name: "a fee at max_native_fee", calls: func() []Call { return []Call{withdraw(ether(250))} },
			policy: func(p *ClaimPolicy) { p.Pins.MaxNativeFee = claimFee },
			facts:  []string{"fee at the cap: call 1 sends 0.001 ether, exactly max_native_fee"}},
		{name: "1 wei when all was asked", calls: func() []Call { return []Call{withdraw(big.NewInt(1))} },
			refused: []string{"call 1 withdraws 0.000000000000000001 tokens; you asked for all that is claimable (250.00 tokens), which is 0 (everything vested) or exactly that"}},
		{name: "part of what is claimable when all was asked", calls: func() []Call { return []Call{withdraw(ether(249))} },
			refused: []string{"call 1 withdraws 249.00 tokens; you asked for all that is claimable (250.00 tokens)"}},
		{name: "more than claimable", calls: func() []Call { return []Call{withdraw(ether(251))} },
			policy:  func(p *ClaimPolicy) { p.Amount = ether(251) },
			refused: []string{"withdraws 251.00 tokens; 250.00 are claimable now"}},
		{name: "another amount than asked", calls: func() []Call { return []Call{withdraw(ether(11))} },
			policy: func(p *ClaimPolicy) { p.Amount = ether(10) }, refused: []string{"withdraws 11.00 tokens; you asked for 10.00"}},
		{name: "everything when an amount was asked", calls: func() []Call { return []Call{withdraw(new(big.Int))} },
			policy: func(p *ClaimPolicy) { p.Amount = ether(10) }, refused: []string{"withdraws everything vested; you asked for 10"}},
		{name: "another allocation's leaf in the call",
			calls:   func() []Call { return []Call{f.withdrawCall(t, bobLeaf, alice, ether(1))} },
			refused: []string{"another leaf, proof or root index than the allocation's proof"}},
		{name: "a vester that does not hold the root", calls: func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = other })} },
			policy:  func(p *ClaimPolicy) { p.Pins = f.pins(t, PinVester, other); p.Candidates = []common.Address{other} },
			refused: []string{"no pinned vester holds root 0", "and no other contract of this token does"}},
		{name: "no pinned vester and no listed one that holds the root", calls: func() []Call { return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = other })} },
			policy:  func(p *ClaimPolicy) { p.Pins = Pins{}; p.Candidates = []common.Address{other} },
			refused: []string{"no contract of this token holds root 0"}},
		{name: "a pinned list without the vester", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy:  func(p *ClaimPolicy) { p.Pins.Vesters = []common.Address{other}; p.Candidates = []common.Address{other} },
			refused: []string{"no pinned vester holds root 0"}},
		{name: "a vester the profile does not pin", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { p.Pins, p.Amount = Pins{}, ether(10) },
			refused: []string{"the vester " + f.vester.Hex() + " is not pinned in the profile (its code hash is 0x",
				"check it on an explorer, then pin it: allot pin vester " + f.vester.Hex()},
			unpinned: []Unpinned{{PinVester, f.vester}}},
		{name: "a listed vester that is not pinned, beside one that is", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy:   func(p *ClaimPolicy) { p.Pins, p.Amount = f.pins(t, PinVester, other), ether(10) },
			refused:  []string{"the vester " + f.vester.Hex() + " is not pinned in the profile"},
			unpinned: []Unpinned{{PinVester, f.vester}}},
		{name: "a vester pinned without its code hash", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy:   func(p *ClaimPolicy) { p.Pins.CodeHashes, p.Amount = nil, ether(10) },
			refused:  []string{"is pinned without the hash of its code", "allot pin vester " + f.vester.Hex()},
			unpinned: []Unpinned{{PinVester, f.vester}}},
		{name: "a pinned vester whose code changed", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy:  func(p *ClaimPolicy) { p.Pins.CodeHashes[f.vester] = common.Hash{1} },
			refused: []string{"the code of the vester " + f.vester.Hex() + " changed since it was pinned"}},
		{name: "a pinned address with no code, for which the node answers", calls: func() []Call {
			return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = attacker })}
		}, node: forgingNode{f.node, attacker, f.vester},
			policy: func(p *ClaimPolicy) {
				p.Pins.Vesters = []common.Address{attacker}
				p.Pins.CodeHashes[attacker] = common.Hash{1}
			},
			refused: []string{"the vester " + attacker.Hex() + " has no code on the chain"}},
		{name: "an unpinned address with no code, for which the node answers", calls: func() []Call {
			return []Call{with(withdraw(ether(10)), func(c *Call) { c.To = attacker })}
		}, node: forgingNode{f.node, attacker, f.vester},
			policy:  func(p *ClaimPolicy) { p.Pins = Pins{}; p.Candidates = []common.Address{attacker} },
			refused: []string{"the vester " + attacker.Hex() + " has no code on the chain"}},
		{name: "a root index past the vester's roots", calls: func() []Call {
			pr := f.proof(t, aliceLeaf)
			data, _ := chain.PackWithdraw(ether(10), 3, pr.DecodableArgs, pr.Siblings)
			return []Call{{ChainID: f.chain.ChainID(), From: alice, To: f.vester, Data: data, Value: claimFee}}
		}, policy: func(p *ClaimPolicy) { p.Proof.RootIndex = 3 }, refused: []string{"holds root 3"}},
		{name: "a proof of another allocation", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { p.AllocationID = "7f3c2a10-0000-4000-8000-000000000b0b" }, refused: []string{"not of 7f3c2a10-0000-4000-8000-000000000b0b, the one asked for"}},
		{name: "a proof whose stated leaf is another", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { h := merkle.Leaf([]byte("x")); p.Proof.Hash = &h }, refused: []string{"is not the hash it states"}},
		{name: "a fee above max_native_fee", calls: func() []Call { return []Call{withdraw(ether(10))} },
			policy: func(p *ClaimPolicy) { p.Pins.MaxNativeFee = big.NewInt(1) }, refused: []string{"more than max_native_fee 0.000000000000000001 ether"}},
		{name: "no chain", calls: func() []Call { return []Call{withdraw(ether(10))} }, noChain: true,
			refused: []string{"no chain connection (rpc_url)"}, unchecked: true},
		{name: "a chain that cannot be read", calls: func() []Call { return []Call{withdraw(ether(10))} }, node: failingNode{f.node},
			refused: []string{"the vester could not be established"}, unchecked: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := f.claimPolicy(t, aliceLeaf)
			if tc.policy != nil {
				tc.policy(&p)
			}
			node := f.node
			switch {
			case tc.noChain:
				node = nil
			case tc.node != nil:
				node = tc.node
			}
			calls := tc.calls()
			a, err := CheckClaim(ctx, node, p, calls)
			if len(tc.refused) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := a.Calls(); len(got) != len(calls) || got[0].To != calls[0].To {
					t.Errorf("approved calls %+v, want the calls checked", got)
				}
				var text []string
				for _, l := range a.Facts {
					text = append(text, l.Label+": "+l.Value)
				}
				for _, want := range tc.facts {
					if !strings.Contains(strings.Join(text, "\n"), want) {
						t.Errorf("facts lack %q:\n%s", want, strings.Join(text, "\n"))
					}
				}
				return
			}
			var refused *RefusedError
			if !errors.As(err, &refused) || !errors.Is(err, ErrRefused) || a != nil {
				t.Fatalf("CheckClaim = %v, %v; want a *RefusedError", a, err)
			}
			for _, want := range tc.refused {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal does not say %q:\n%v", want, err)
				}
			}
			if errors.Is(err, ErrUnchecked) != tc.unchecked {
				t.Errorf("errors.Is(err, ErrUnchecked) = %v, want %v", !tc.unchecked, tc.unchecked)
			}
			if refused.OnlyUnpinned() != (tc.unpinned != nil) || !slices.Equal(refused.Unpinned, tc.unpinned) {
				t.Errorf("OnlyUnpinned %v, Unpinned %v; want %v", refused.OnlyUnpinned(), refused.Unpinned, tc.unpinned)
			}
		})
	}
}

func TestCheckClaimZeroFee(t *testing.T) {
	// A vester that asks no fee (D16: "pay the fee once" answers 0 after
	// the first claim): a 0-value withdraw is approved, and its review
	// carries no warning.
	f := newFixture(t)
	ctx := context.Background()
	var free common.Address
	err := f.chain.Transact(ctx, func(b *chain.Batch) {
		free = b.DeployVester(f.token, new(big.Int))
		b.AddRoot(free, f.tree.Root())
		b.Mint(f.token, f.chain.Deployer(), ether(100))
		b.Fund(free, ether(100))
	})
	if err != nil {
		t.Fatal(err)
	}
	call := f.withdrawCall(t, aliceLeaf, f.alice.Address(), ether(10))
	call.To, call.Value = free, new(big.Int)
	p := f.claimPolicy(t, aliceLeaf)
	p.Pins = f.pins(t, PinVester, free)
	p.Amount = ether(10)
	if _, err := CheckClaim(ctx, f.node, p, []Call{call}); err != nil {
		t.Fatalf("a correct 0-value claim is refused: %v", err)
	}
	known := f.known()
	known[free] = "Free vester"
	s := DecodeCall(ctx, call, DecodeOptions{Signer: f.alice.Address(), ChainID: f.chain.ChainID(), Known: known, Chain: f.node})
	if len(s.Warnings) != 0 {
		t.Errorf("a correct 0-value claim is flagged: %v", s.Warnings)
	}
}

func TestCheckStake(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	alice := f.alice.Address()
	stakeCall := func(amount *big.Int) Call {
		data, _ := chain.PackStake(amount)
		return Call{From: alice, To: f.pool, Data: data, Value: new(big.Int).Set(platformFee)}
	}
	approveCall := func(spender common.Address, amount *big.Int) Call {
		data, _ := tokenABI.Pack("approve", spender, amount)
		return Call{From: alice, To: f.token, Data: data, Value: new(big.Int)}
	}
	plan, err := PlanStake(ctx, f.node, stakeCall(ether(5)))
	if err != nil || plan.Approve == nil {
		t.Fatalf("PlanStake = %+v, %v; want an approve first", plan, err)
	}
	with := func(c Call, change func(*Call)) Call { change(&c); return c }
	for _, tc := range []struct {
		name    string
		calls   []Call
		policy  func(*StakePolicy)
		refused []string
		facts   []string
	}{
		{name: "the planned approve, then the stake", calls: plan.Calls(),
			facts: []string{"staking contract: " + f.pool.Hex() + " (the pool's contract in the token's list) · pinned in the profile, its code as pinned (0x",
				"platform fee: 0.01 ether (read from the chain)", "token: " + f.token.Hex() + " (the stakingToken() of the pinned staking contract; no tokens pinned)"}},
		{name: "the stake alone", calls: []Call{stakeCall(ether(5))}},
		{name: "pinned pool and token", calls: plan.Calls(), policy: func(p *StakePolicy) {
			p.Pins.Tokens = []common.Address{f.token}
			f.recordCode(t, &p.Pins, f.token)
		}, facts: []string{"token: " + f.token.Hex() + " (the pool's stakingToken() on chain) · pinned in the profile, its code as pinned"}},

		{name: "an unlimited approve", calls: []Call{approveCall(f.pool, maxUint256), stakeCall(ether(5))},
			refused: []string{"call 1 approves 115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935 tokens; the stake is 5.00"}},
		{name: "an approve to an attacker", calls: []Call{approveCall(attacker, ether(5)), stakeCall(ether(5))},
			refused: []string{"approves " + attacker.Hex() + " to spend"}},
		{name: "an approve of another token", calls: []Call{with(approveCall(f.pool, ether(5)), func(c *Call) { c.To = attacker }), stakeCall(ether(5))},
			refused: []string{"approves token " + attacker.Hex() + ", not the pool's token"}},
		{name: "a stake in another contract", calls: []Call{with(stakeCall(ether(5)), func(c *Call) { c.To = attacker })},
			refused: []string{"stakes in " + attacker.Hex()}},
		{name: "another amount", calls: []Call{stakeCall(ether(6))}, refused: []string{"stakes 6.00 tokens; you asked for 5.00"}},
		{name: "another fee", calls: []Call{with(stakeCall(ether(5)), func(c *Call) { c.Value = big.NewInt(1) })},
			refused: []string{"the pool's platform fee on the chain is 0.01 ether"}},
		{name: "a fee above max_native_fee", calls: []Call{stakeCall(ether(5))},
			policy: func(p *StakePolicy) { p.Pins.MaxNativeFee = big.NewInt(1) }, refused: []string{"more than max_native_fee"}},
		{name: "a transfer", calls: []Call{{From: alice, To: f.token, Data: must(tokenABI.Pack("transfer", attacker, ether(5))), Value: new(big.Int)}},
			refused: []string{"call 1 is a transfer of 5.00 tokens"}},
		{name: "a stake, then an extra call", calls: []Call{stakeCall(ether(5)), approveCall(attacker, ether(5))},
			refused: []string{"call 1 is a staking pool stake", "call 2 is an approve"}},
		{name: "another chain", calls: []Call{with(stakeCall(ether(5)), func(c *Call) { c.ChainID = 5 })}, refused: []string{"call 1 is for chain 5"}},
		{name: "no amount asked", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Amount = nil },
			refused: []string{"no amount to stake was asked for"}},
		{name: "no pool in the contract list", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Pool = common.Address{} },
			refused: []string{"names no staking contract for this pool"}},
		{name: "a pool without code", calls: []Call{with(stakeCall(ether(5)), func(c *Call) { c.To = attacker })},
			policy: func(p *StakePolicy) { p.Pool = attacker }, refused: []string{"has no code on the chain"}},
		{name: "a pool not pinned", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Pins.Staking = []common.Address{attacker} },
			refused: []string{"the pool's staking contract " + f.pool.Hex() + " is not pinned in the profile", "allot pin staking " + f.pool.Hex()}},
		{name: "no staking contract pinned", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Pins = Pins{} },
			refused: []string{"the pool's staking contract " + f.pool.Hex() + " is not pinned in the profile"}},
		{name: "a pool whose code changed", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Pins.CodeHashes[f.pool] = common.Hash{1} },
			refused: []string{"the code of the pool's staking contract " + f.pool.Hex() + " changed since it was pinned"}},
		{name: "a token not pinned", calls: plan.Calls(), policy: func(p *StakePolicy) { p.Pins.Tokens = []common.Address{attacker} },
			refused: []string{"the pool's token " + f.token.Hex() + " is not pinned", "allot pin token " + f.token.Hex()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := StakePolicy{PoolID: "pool-1", Signer: alice, ChainID: f.chain.ChainID(), Amount: ether(5), Pool: f.pool, Pins: f.pins(t, PinStaking, f.pool)}
			if tc.policy != nil {
				tc.policy(&p)
			}
			a, err := CheckStake(ctx, f.node, p, tc.calls)
			if len(tc.refused) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				var text []string
				for _, l := range a.Facts {
					text = append(text, l.Label+": "+l.Value)
				}
				for _, want := range tc.facts {
					if !strings.Contains(strings.Join(text, "\n"), want) {
						t.Errorf("facts lack %q:\n%s", want, strings.Join(text, "\n"))
					}
				}
				return
			}
			if !errors.Is(err, ErrRefused) || a != nil {
				t.Fatalf("CheckStake = %v, %v; want a refusal", a, err)
			}
			for _, want := range tc.refused {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal does not say %q:\n%v", want, err)
				}
			}
		})
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzPolicyCalls: whatever calldata and value a service hands out, the
// policy refuses it (there is no chain to establish anything against)
// without panicking.
func FuzzPolicyCalls(f *testing.F) {
	withdraw, _ := chain.PackWithdraw(big.NewInt(1), 0, []byte{1}, []common.Hash{{2}})
	stake, _ := chain.PackStake(big.NewInt(1))
	approve, _ := tokenABI.Pack("approve", attacker, maxUint256)
	for _, seed := range [][]byte{withdraw, stake, approve, {1, 2, 3}, nil} {
		f.Add(seed, []byte{1})
	}
	f.Fuzz(func(t *testing.T, data, value []byte) {
		calls := []Call{{ChainID: 1, From: attacker, To: attacker, Data: data, Value: new(big.Int).SetBytes(value)}}
		if _, err := CheckClaim(context.Background(), nil, ClaimPolicy{AllocationID: "a", Signer: attacker, ChainID: 1}, calls); !errors.Is(err, ErrRefused) {
			t.Fatalf("claim without a chain: %v, want a refusal", err)
		}
		if _, err := CheckStake(context.Background(), nil, StakePolicy{PoolID: "p", Signer: attacker, ChainID: 1, Amount: big.NewInt(1), Pool: attacker}, calls); !errors.Is(err, ErrRefused) {
			t.Fatalf("stake without a chain: %v, want a refusal", err)
		}
	})
}
