package cli

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/wallet"
)

// platformFeeSelector is platformFee()'s.
var platformFeeSelector = []byte{0x26, 0x23, 0x2a, 0x2e}

// feeForgingNode fails simulation (it has no SimulateV1, so a stake after
// its approve gets the fallback gas limit) and answers platformFee() of
// pool with 0 on eth_call only: the policy reads 0, the chain takes 0.01
// ether, and the stake reverts once its approve is mined.
type feeForgingNode struct {
	wallet.Node
	pool common.Address
}

func (n feeForgingNode) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if msg.To != nil && *msg.To == n.pool && bytes.HasPrefix(msg.Data, platformFeeSelector) {
		return make([]byte, 32), nil
	}
	return n.Node.CallContract(ctx, msg, block)
}

// stakeRefusingNode takes every transaction but a stake in pool, which it
// refuses as a node refuses one (a JSON-RPC error): the approve before it
// is sent, and mined.
type stakeRefusingNode struct {
	wallet.Node
	pool common.Address
}

type refusal struct{}

func (refusal) Error() string  { return "txpool is full" }
func (refusal) ErrorCode() int { return -32000 }

func (n stakeRefusingNode) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if to := tx.To(); to != nil && *to == n.pool {
		return refusal{}
	}
	return n.Node.SendTransaction(ctx, tx)
}

// TestStakeLeftoverIsSaidAndReset: issue 30 item 5, measured. A stake
// whose approve was mined and whose stake failed (reverted, or refused by
// the node) says the allowance it left, read from the chain, and the
// command that takes it back; that command signs an approve of 0 under
// the policy, and the allowance is 0 after it. Run again, it has nothing
// to reset.
func TestStakeLeftoverIsSaidAndReset(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		node  func(f *chainFixture) wallet.Node
		fee   string
		fails string
	}{
		{"the stake reverted", func(f *chainFixture) wallet.Node { return feeForgingNode{Node: f.sess.Chain, pool: f.pool} }, "0", "reverted"},
		{"the stake refused by the node", func(f *chainFixture) wallet.Node { return stakeRefusingNode{Node: f.sess.Chain, pool: f.pool} }, "0.01", "the node refused it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newChainFixture(t)
			f.svc.stake = func(p map[string]string) { p["platformFee"] = tc.fee }
			honest := f.sess.Chain
			f.sess.Chain = tc.node(f)
			r := f.run(t, "stake", "--pool", testPoolID, "--amount", "10", "--account", f.user.Hex(), "--send", "--yes", "--wait")
			if r.code != 1 || !strings.Contains(r.stderr, tc.fails) {
				t.Fatalf("exit %d, want the stake %s:\n%s", r.code, tc.fails, r.stderr)
			}
			want := "Left behind: the approve was mined and the stake was not, so the staking contract " + f.pool.Hex() +
				" may still move 10.00 TT of " + f.user.Hex() + " (token " + f.token.Hex() + ")."
			if !strings.Contains(r.stderr, want) {
				t.Fatalf("stderr does not say the allowance left (%q):\n%s", want, r.stderr)
			}
			_, line, ok := strings.Cut(r.stderr, "reviewed and signed as any write):\n")
			line, _, _ = strings.Cut(line, "\n")
			_, args, found := strings.Cut(strings.TrimSpace(line), " reset-allowance ")
			if !ok || !found {
				t.Fatalf("stderr names no reset command:\n%s", r.stderr)
			}
			wantArgs := "--pool " + testPoolID + " --account " + f.user.Hex() + " --erc20 " + f.token.Hex() + " --send --wait"
			if args != wantArgs {
				t.Errorf("reset command %q, want %q", args, wantArgs)
			}

			f.sess.Chain = honest
			r = f.run(t, append([]string{"reset-allowance"}, append(strings.Fields(args), "--yes")...)...)
			if r.code != 0 {
				t.Fatalf("reset-allowance: exit %d\n%s", r.code, r.stderr)
			}
			for _, w := range []string{"Now the staking contract " + f.pool.Hex() + " may still move 10.00 TT", "(reset-allowance): ERC-20 token approve",
				"10.00 TT (read from the chain); 0 after the reset", "(the stakingToken() of the pinned staking contract; no tokens pinned)"} {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("reset-allowance's review lacks %q:\n%s", w, r.stderr)
				}
			}
			if left, err := wallet.LeftAllowance(context.Background(), honest, f.token, f.user, f.pool); err != nil || left != nil {
				t.Errorf("after the reset %+v, %v; want no allowance left", left, err)
			}
			if n := len(journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindSignature, "reset-allowance")); n != 1 {
				t.Errorf("journal: %d reset signatures, want 1", n)
			}

			r = f.run(t, "reset-allowance", "--pool", testPoolID, "--account", f.user.Hex())
			if r.code != 0 || !strings.Contains(r.stdout, "Nothing to reset") || strings.Contains(r.stderr, "Transaction 1") {
				t.Errorf("a second reset: exit %d, want nothing to reset and nothing signed:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestSuccessfulStakeLeavesNothingToSay: a stake whose approve and stake
// were both mined says nothing of an allowance.
func TestSuccessfulStakeLeavesNothingToSay(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	r := f.run(t, "stake", "--pool", testPoolID, "--amount", "10", "--account", f.user.Hex(), "--send", "--yes", "--wait")
	if r.code != 0 || strings.Contains(r.stderr, "Left behind") || strings.Contains(r.stderr, "reset-allowance") {
		t.Errorf("exit %d; a stake mined says nothing left:\n%s", r.code, r.stderr)
	}
}

// TestStakeRefusedWithoutWaitSaysWhatMayBeLeft: without --wait, a stake
// the node refused after taking its approve says that the approve may
// leave an allowance once mined, and the command that resets it.
func TestStakeRefusedWithoutWaitSaysWhatMayBeLeft(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	f.sess.Chain = stakeRefusingNode{Node: f.sess.Chain, pool: f.pool}
	r := f.run(t, "stake", "--pool", testPoolID, "--amount", "10", "--account", f.user.Hex(), "--send", "--yes")
	want := "The approve was sent and the stake was not: once the approve is mined, the staking contract " + f.pool.Hex() + " may move 10.00 of your tokens"
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "reset-allowance --pool "+testPoolID) {
		t.Errorf("exit %d; want %q and the reset command:\n%s", r.code, want, r.stderr)
	}
}
