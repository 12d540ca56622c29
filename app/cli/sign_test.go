package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/wallet"
)

func TestClaimSignWithoutSendPrintsSignedTransaction(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	r := f.run(t, "claim", testAllocation, "--sign", "--account", f.user.Hex(), "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var out struct {
		Transactions []struct {
			Op      string          `json:"op"`
			Hash    common.Hash     `json:"hash"`
			Raw     string          `json:"raw"`
			Summary json.RawMessage `json:"summary"`
		} `json:"transactions"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Transactions) != 1 {
		t.Fatalf("want one signed transaction (%v):\n%s", err, r.stdout)
	}
	got := out.Transactions[0]
	raw, err := hexutil.Decode(got.Raw)
	if err != nil {
		t.Fatal(err)
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), &tx)
	if err != nil || from != f.user || tx.Hash() != got.Hash || *tx.To() != f.vester || tx.Value().Cmp(claimFee) != 0 {
		t.Errorf("signed transaction: from %s, hash %s, to %s, value %s; want the user's claim to the vester with the fee", from.Hex(), tx.Hash().Hex(), tx.To().Hex(), tx.Value())
	}
	var summary struct {
		Function string
		Warnings []struct{ Kind, Message string }
	}
	json.Unmarshal(got.Summary, &summary)
	if summary.Function != "withdraw" || len(summary.Warnings) != 0 {
		t.Errorf("summary: function %q, warnings %v; want withdraw and no warning", summary.Function, summary.Warnings)
	}
	// The user read the call on stderr before it was signed.
	for _, want := range []string{"Transaction 1 of 1 (claim): vester withdraw", "withdrawalAmount", "= 1,000.00 tokens", "Test vester (VESTING)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !hasLine(r.stderr, "ether sent:", "0.001 = the claim fee (read from the chain)") {
		t.Errorf("stderr does not show the claim fee as the ether sent:\n%s", r.stderr)
	}
	// Signed, journaled, not sent.
	if nonce, _ := f.sess.Chain.NonceAt(context.Background(), f.user, nil); nonce != 0 {
		t.Errorf("the account's nonce is %d: something was sent", nonce)
	}
	all := journaltest.Entries(t, f.sess.StateDir)
	if sigs := journaltest.Of(all, journal.KindSignature, "claim"); len(sigs) != 1 || sigs[0].Ref != got.Hash.Hex() || strings.Contains(string(sigs[0].Data), got.Raw[2:]) {
		t.Errorf("journal signatures %+v: want one, naming the hash, without the raw transaction", sigs)
	}
	if sent := journaltest.Of(all, journal.KindTransaction, "claim"); len(sent) != 0 {
		t.Errorf("journal has %d transaction entries for a transaction not sent", len(sent))
	}
}

func TestClaimSendWaitReportsReceipt(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	before := f.balance(t)
	r := f.run(t, "claim", testAllocation, "--sign", "--account", f.user.Hex(), "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	sent := decodeSent(t, r)
	if len(sent) != 1 || sent[0].Status != "success" || sent[0].Block == 0 || sent[0].GasUsed == 0 || sent[0].Confirmations < 1 || sent[0].RevertReason != "" {
		t.Fatalf("statuses %+v: want one success, mined, confirmed", sent)
	}
	if got := new(big.Int).Sub(f.balance(t), before); got.Cmp(ether(1000)) != 0 {
		t.Errorf("the claim moved %s base units, want 1000 tokens", got)
	}
	var states []string
	for _, e := range journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindTransaction, "claim") {
		if e.Ref != sent[0].Hash.Hex() {
			t.Errorf("journal entry for %s, want %s", e.Ref, sent[0].Hash.Hex())
		}
		states = append(states, e.Status)
	}
	if strings.Join(states, ",") != "sending,pending,success" {
		t.Errorf("journaled states %v, want sending, pending, success", states)
	}
}

func TestClaimSendWithoutWaitIsPending(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	r := f.run(t, "claim", testAllocation, "--sender", f.user.Hex(), "--sign", "--send", "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "pending" || sent[0].Block != 0 {
		t.Errorf("statuses %+v, want one pending", sent)
	}
}

func TestClaimRevertedOnChainExitsOne(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	// 1000 tokens are unlocked. Two claims of 600 each pass the policy and
	// their estimates while neither is mined; mined in that order, the
	// second reverts.
	f.svc.claim = func(sender common.Address) []api.EVMInstruction {
		return []api.EVMInstruction{f.withdraw(t, 0, sender, ether(600))}
	}
	f.hold.Store(true)
	claim := []string{"claim", testAllocation, "--amount", "600", "--sign", "--account", f.user.Hex(), "--send", "--yes"}
	if r := f.run(t, claim...); r.code != 0 {
		t.Fatalf("first claim: exit %d\n%s", r.code, r.stderr)
	}
	// The chain makes blocks again once the second claim is in its pool.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if n, err := f.sess.Chain.PendingNonceAt(context.Background(), f.user); err == nil && n >= 2 {
				f.hold.Store(false)
				return
			}
		}
	}()
	r := f.run(t, append(claim, "--wait", "-o", "json")...)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	sent := decodeSent(t, r)
	if len(sent) != 1 || sent[0].Status != "reverted" || !strings.Contains(sent[0].RevertReason, "InsufficientFunds(): more than is withdrawable") {
		t.Fatalf("statuses %+v: want reverted with InsufficientFunds", sent)
	}
	if !strings.Contains(r.stderr, "reverted: InsufficientFunds(): more than is withdrawable") {
		t.Errorf("stderr does not give the decoded reason:\n%s", r.stderr)
	}
	var states []string
	for _, e := range journaltest.Of(journaltest.Entries(t, f.sess.StateDir), journal.KindTransaction, "claim") {
		if e.Ref == sent[0].Hash.Hex() {
			states = append(states, e.Status)
		}
	}
	if strings.Join(states, ",") != "sending,pending,reverted" {
		t.Errorf("journaled states of the reverted transaction %v, want sending, pending, reverted", states)
	}
}

func TestStakeApprovesThenStakes(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	before := f.balance(t)
	r := f.run(t, "stake", "--pool", testPoolID, "--amount", "10", "--account", f.user.Hex(), "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	sent := decodeSent(t, r)
	if len(sent) != 2 || sent[0].Status != "success" || sent[1].Status != "success" {
		t.Fatalf("statuses %+v: want the approve, then the stake, both mined", sent)
	}
	if got := new(big.Int).Sub(before, f.balance(t)); got.Cmp(ether(10)) != 0 {
		t.Errorf("the stake moved %s base units, want 10 tokens", got)
	}
	for _, want := range []string{"Sign-in message", "may move 0.00 tokens of yours", "an approve of exactly 10.00 tokens comes first", "(approve): ERC-20 token approve", "(stake): staking pool stake"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !hasLine(r.stderr, "ether sent:", "0.01 = the platform fee (read from the chain)") {
		t.Errorf("stderr does not show the platform fee as the ether sent:\n%s", r.stderr)
	}
	all := journaltest.Entries(t, f.sess.StateDir)
	if len(journaltest.Of(all, journal.KindSignature, "signin")) != 1 || len(journaltest.Of(all, journal.KindSignature, "approve")) != 1 || len(journaltest.Of(all, journal.KindSignature, "stake")) != 1 {
		t.Errorf("journal: want one sign-in, one approve and one stake signature")
	}
	// The approve was exactly the stake: none is left over.
	allowance, err := wallet.Allowance(context.Background(), f.sess.Chain, f.token, f.user, f.pool)
	if err != nil || allowance.Sign() != 0 {
		t.Errorf("allowance left: %v (%v), want 0", allowance, err)
	}
}

func TestSigningRefusals(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	stranger := common.HexToAddress("0x00000000000000000000000000000000005ea1ed")
	unknown := func(to common.Address) func(common.Address) []api.EVMInstruction {
		return func(sender common.Address) []api.EVMInstruction {
			return []api.EVMInstruction{{ChainID: f.chain.ChainID(), From: sender.Hex(), To: to.Hex(), Data: "0xdeadbeef", Value: "0"}}
		}
	}
	otherChain := func(sender common.Address) []api.EVMInstruction {
		in := f.withdraw(t, 0, sender, ether(1))
		in.ChainID = 5
		return []api.EVMInstruction{in}
	}
	// --amount 1: what the stand-in service withdraws; a claim of all must
	// withdraw all that is claimable.
	claim := []string{"claim", testAllocation, "--amount", "1", "--sign", "--account", f.user.Hex()}
	for _, tc := range []struct {
		name    string
		claim   func(common.Address) []api.EVMInstruction
		profile func(*session.Session)
		environ map[string]string
		args    []string
		code    int
		want    string
	}{
		{name: "unknown calldata", claim: unknown(f.vester), args: claim, code: 1, want: "calldata allot cannot decode"},
		{name: "instruction for another chain", claim: otherChain, args: claim, code: 1, want: "call 1 is for chain 5"},
		{name: "node on another chain than the profile", claim: otherChain,
			profile: func(s *session.Session) { s.Profile.ChainID = 5 }, args: claim, code: 1, want: fmt.Sprintf("the node is on chain %d", f.sess.Profile.ChainID)},
		{name: "another wallet's allocation", claim: func(sender common.Address) []api.EVMInstruction {
			return []api.EVMInstruction{f.withdraw(t, 1, sender, ether(1))}
		}, args: claim, code: 1, want: "another leaf, proof or root index than the allocation's proof"},
		{name: "wrong passphrase", environ: map[string]string{"ALLOT_PASSPHRASE": "wrong"}, args: claim, code: 1, want: "wrong passphrase"},
		{name: "no passphrase", environ: map[string]string{}, args: claim, code: 1, want: "no passphrase"},
		{name: "missing passphrase file", args: append(claim, "--passphrase-file", "/nonexistent/passphrase"), code: 1, want: "/nonexistent/passphrase"},
		{name: "no rpc_url", profile: func(s *session.Session) { s.Chain = nil }, args: claim, code: 1, want: `set rpc_url in profile "test"`},
		{name: "account not in the keystore", args: []string{"claim", testAllocation, "--sign", "--account", stranger.Hex()}, code: 1, want: "no such account"},
		{name: "stake without rpc_url", profile: func(s *session.Session) { s.Chain = nil },
			args: []string{"stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex()}, code: 1, want: "stake needs an EVM node"},
		{name: "send without sign", args: []string{"claim", testAllocation, "--sender", f.user.Hex(), "--send"}, code: 2, want: "--send needs --sign"},
		{name: "passphrase file without sign", args: []string{"claim", testAllocation, "--sender", f.user.Hex(), "--passphrase-file", "pass"}, code: 2, want: "--passphrase-file needs --sign"},
		{name: "wait without send", args: append(claim, "--wait"), code: 2, want: "--wait needs --send"},
		{name: "sender is not the account", args: append(claim, "--sender", stranger.Hex()), code: 2, want: "is not the signing --account"},
		{name: "stake without amount", args: []string{"stake", "--pool", testPoolID, "--account", f.user.Hex()}, code: 2, want: "--amount X is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.svc.claim = tc.claim
			if tc.claim == nil {
				f.svc.claim = func(sender common.Address) []api.EVMInstruction {
					return []api.EVMInstruction{f.withdraw(t, 0, sender, ether(1))}
				}
			}
			s := *f.sess
			s.StateDir = t.TempDir()
			if tc.profile != nil {
				tc.profile(&s)
			}
			environ := tc.environ
			if environ == nil {
				environ = map[string]string{"ALLOT_PASSPHRASE": testPassphrase}
			}
			claimsBefore := f.svc.claimRequests()
			r := runCLI(t, &s, environ, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", r.code, tc.code, tc.want, r.stderr)
			}
			for _, e := range journaltest.Entries(t, s.StateDir) {
				if e.Kind == journal.KindSignature || e.Kind == journal.KindTransaction {
					t.Errorf("journal: %s %s %s: nothing should have been signed", e.Kind, e.Op, e.Ref)
				}
			}
			// What the command line can check is checked before the claim
			// request, which the service records as a transaction.
			if tc.code == 2 || strings.Contains(tc.name, "rpc_url") || strings.Contains(tc.name, "keystore") ||
				tc.name == "no passphrase" || tc.name == "missing passphrase file" {
				if n := f.svc.claimRequests() - claimsBefore; n != 0 {
					t.Errorf("%d claim requests sent before the refusal, want none", n)
				}
			}
		})
	}
	if nonce, _ := f.sess.Chain.NonceAt(context.Background(), f.user, nil); nonce != 0 {
		t.Errorf("the account's nonce is %d after refusals", nonce)
	}
}

func TestNoFlagOverridesThePolicy(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	for _, args := range [][]string{
		{"claim", testAllocation, "--sign", "--account", f.user.Hex(), "--force"},
		{"stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex(), "--force"},
	} {
		if r := f.run(t, args...); r.code != 2 || !strings.Contains(r.stderr, "unknown flag --force") {
			t.Errorf("%s --force: exit %d, want 2: there is no --force\n%s", args[0], r.code, r.stderr)
		}
	}
}

// TestSandboxChainClaimAndStake runs the whole flow on the embedded
// sandbox and its in-process chain.
func TestSandboxChainClaimAndStake(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	s := sandboxSession(t)
	if s.Chain == nil {
		t.Fatal("the embedded sandbox runs no chain")
	}
	w := s.Fixtures.Wallets[0]
	pass := map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}
	var allocation string
	for _, id := range s.Fixtures.AllocationIDs {
		p, err := s.API.MerkleProof(context.Background(), id)
		if err == nil && strings.EqualFold(p.WalletAddress, w.Address) {
			allocation = id
			break
		}
	}
	if allocation == "" {
		t.Fatalf("no allocation of %s in the sandbox", w.Address)
	}
	r := runCLI(t, s, pass, "claim", allocation, "--sign", "--account", w.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("claim statuses %+v, want one success\n%s", sent, r.stderr)
	}
	if strings.Contains(r.stderr, "WARNING") {
		t.Errorf("the sandbox's own claim carries warnings:\n%s", r.stderr)
	}

	// Every demo wallet holds every token: stake the minimum into the first
	// active pool.
	pool, _ := activePool(t, s)
	r = runCLI(t, s, pass, "stake", "--pool", pool.ID, "--amount", pool.MinimumStakeAmount.String(), "--account", w.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("stake: exit %d\n%s", r.code, r.stderr)
	}
	sent := decodeSent(t, r)
	if len(sent) == 0 || sent[len(sent)-1].Status != "success" {
		t.Fatalf("stake statuses %+v, want the stake mined\n%s", sent, r.stderr)
	}
	if len(sent) == 2 && !strings.Contains(r.stderr, "(approve): ERC-20 token approve") {
		t.Errorf("two transactions but no approve first:\n%s", r.stderr)
	}
}

// runOnTerminal runs the command line as a user at a terminal would, who
// types answer.
func runOnTerminal(t *testing.T, s *session.Session, environ map[string]string, answer string, args ...string) result {
	t.Helper()
	var stdout, stderr strings.Builder
	e := &env{IO: IO{Stdin: strings.NewReader(answer), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return environ[k] }, Terminal: func() bool { return true }}, sess: s}
	code := report(&stderr, run(context.Background(), e, args))
	return result{stdout.String(), stderr.String(), code}
}

func TestSendAsksFirstOnATerminal(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	pass := map[string]string{"ALLOT_PASSPHRASE": testPassphrase}
	args := []string{"claim", testAllocation, "--sign", "--account", f.user.Hex(), "--send", "--wait"}
	for _, answer := range []string{"\n", "n\n", "yes please\n", ""} {
		r := runOnTerminal(t, f.sess, pass, answer, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "Sign and send this transaction? [y/N]") || !strings.Contains(r.stderr, "not signed: you did not answer yes") {
			t.Errorf("answer %q: exit %d, want 1, not signed:\n%s", answer, r.code, r.stderr)
		}
		// What is sent was shown before the question, and before the key
		// was unlocked.
		review, _, _ := strings.Cut(r.stderr, "Sign and send")
		for _, label := range []string{"chain:", "nonce:", "gas limit:", "max fee:"} {
			if !strings.Contains(review, label) {
				t.Errorf("answer %q: the review before the question lacks %q:\n%s", answer, label, r.stderr)
			}
		}
	}
	for _, e := range journaltest.Entries(t, f.sess.StateDir) {
		if e.Kind == journal.KindSignature || e.Kind == journal.KindTransaction {
			t.Errorf("journal: %s %s: nothing was to be signed without a yes", e.Kind, e.Op)
		}
	}
	if nonce, _ := f.sess.Chain.NonceAt(context.Background(), f.user, nil); nonce != 0 {
		t.Fatalf("nonce %d: something was sent without a yes", nonce)
	}
	r := runOnTerminal(t, f.sess, pass, "y\n", append(args, "-o", "json")...)
	if r.code != 0 {
		t.Fatalf("answer y: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Errorf("answer y: %+v, want one success", sent)
	}
}

func TestSendWithoutATerminalNeedsYes(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	for _, args := range [][]string{
		{"claim", testAllocation, "--sign", "--account", f.user.Hex(), "--send"},
		{"stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex(), "--send"},
	} {
		before := f.svc.claimRequests()
		r := f.run(t, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--send without --yes: stdin is not a terminal, so nothing can ask you to confirm") {
			t.Errorf("%s --send: exit %d, want 2, refused for want of --yes:\n%s", args[0], r.code, r.stderr)
		}
		if n := f.svc.claimRequests() - before; n != 0 {
			t.Errorf("%s: %d claim requests sent before the refusal", args[0], n)
		}
	}
	if r := f.run(t, "claim", testAllocation, "--sign", "--account", f.user.Hex(), "--yes"); r.code != 2 || !strings.Contains(r.stderr, "--yes needs --send") {
		t.Errorf("--yes without --send: exit %d\n%s", r.code, r.stderr)
	}
	if len(journaltest.Entries(t, f.sess.StateDir)) != 0 {
		t.Error("the journal records something; nothing was to be done")
	}
}
