package cli

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api/sandbox/chain"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/merkle"

	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
)

// batchOut is what `allot claim --all/--ids ... --send -o json` prints.
type batchOut struct {
	Transactions []sentStatus        `json:"transactions"`
	Allocations  [][]string          `json:"allocations"`
	Skipped      []map[string]string `json:"skipped"`
}

func decodeBatch(t *testing.T, r result) batchOut {
	t.Helper()
	var out batchOut
	decodeJSON(t, r, &out)
	return out
}

// nothingLeft asserts that each allocation of ids has nothing claimable
// now, as the chain says.
func nothingLeft(t *testing.T, s *session.Session, ids []string) {
	t.Helper()
	claim, skipped := s.ClaimableOf(context.Background(), ids, nil)
	if len(claim) != 0 {
		t.Errorf("still claimable after the batch: %+v", claim)
	}
	for _, sk := range skipped {
		if !strings.HasPrefix(sk.Why, "nothing is claimable now") {
			t.Errorf("allocation %s: %s, want nothing claimable", sk.ID, sk.Why)
		}
	}
}

// TestClaimAllOfAWallet: `allot claim --all --wallet W --sender W` claims
// every claimable allocation of W among the sandbox's after one review.
// The sandbox's vesters ask a claim fee, so each allocation is a
// transaction of its own, on consecutive nonces, each journaled; then
// each has nothing claimable. The revoked one is skipped, with why.
func TestClaimAllOfAWallet(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	s := sandboxSession(t)
	w := s.Fixtures.Wallets[0]
	pass := map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}
	nonce, err := s.Chain.PendingNonceAt(ctx, common.HexToAddress(w.Address))
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, s, pass, "claim", "--all", "--wallet", w.Address, "--sign", "--sender", w.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim --all: exit %d\n%s", r.code, r.stderr)
	}
	out := decodeBatch(t, r)
	if len(out.Transactions) < 2 || len(out.Allocations) != len(out.Transactions) {
		t.Fatalf("%d transactions for %v, want one per allocation, two at least\n%s", len(out.Transactions), out.Allocations, r.stderr)
	}
	var ids []string
	for i, tx := range out.Transactions {
		if tx.Status != "success" || len(out.Allocations[i]) != 1 {
			t.Errorf("transaction %d: %+v for %v, want a success for one allocation", i+1, tx, out.Allocations[i])
		}
		ids = append(ids, out.Allocations[i]...)
		got, _, err := s.Chain.TransactionByHash(ctx, tx.Hash)
		if err != nil {
			t.Fatal(err)
		}
		if got.Nonce() != nonce+uint64(i) {
			t.Errorf("transaction %d has nonce %d, want %d: consecutive", i+1, got.Nonce(), nonce+uint64(i))
		}
	}
	for _, want := range []string{"a withdraw (a claim fee is due)", "claim 1 of ", "total", "from " + itoa(len(ids)) + " allocations"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review does not say %q:\n%s", want, r.stderr)
		}
	}
	revoked := false
	for _, sk := range out.Skipped {
		revoked = revoked || strings.Contains(sk["why"], "revoked")
	}
	if !revoked {
		t.Errorf("skipped %v: want wallet 0's revoked allocation among them, with why", out.Skipped)
	}
	nothingLeft(t, s, ids)
	entries := journaltest.Entries(t, s.StateDir)
	if signed := journaltest.Of(entries, journal.KindSignature, "claim"); len(signed) != len(ids) {
		t.Errorf("the journal holds %d claim signatures, want %d", len(signed), len(ids))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// freeVester is the hostile sandbox with a vester of its own that asks no
// claim fee, holding the root of wallets 0 and 1's first allocations and
// funded, pinned first in the profile, and the service's claims
// rewritten to it: the batch of those two allocations goes as one
// multicall.
type freeVester struct {
	*sessiontest.Hostile
	ids    []string // wallet 0's and wallet 1's first allocations
	vester common.Address
}

func newFreeVester(t *testing.T) *freeVester {
	t.Helper()
	ctx := context.Background()
	h := sessiontest.NewHostile(t, t.TempDir())
	s := h.Session
	f := &freeVester{Hostile: h, ids: s.Fixtures.AllocationIDs[:2]}
	proof, err := s.API.MerkleProof(ctx, f.ids[0])
	if err != nil {
		t.Fatal(err)
	}
	p, err := wallet.ProofFromAPI(proof)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.CheckAllocation(ctx, f.ids[0])
	if err != nil || v.Standing == nil {
		t.Fatalf("allocation %s: %v", f.ids[0], err)
	}
	root := merkle.ProcessProof(merkle.Leaf(p.DecodableArgs), p.Siblings)
	err = h.Sandbox.Chain.Transact(ctx, func(b *chain.Batch) {
		f.vester = b.DeployVester(v.Standing.Token, new(big.Int))
		b.AddRoot(f.vester, root)
		b.Mint(v.Standing.Token, b.Deployer(), big.NewInt(1e18).Mul(big.NewInt(1e18), big.NewInt(1e6)))
		b.Fund(f.vester, big.NewInt(1e18).Mul(big.NewInt(1e18), big.NewInt(1e6)))
	})
	if err != nil {
		t.Fatal(err)
	}
	pins := h.Session.Profile.Pins
	pins.Vesters = append([]string{f.vester.Hex()}, pins.Vesters...)
	hash, err := wallet.CodeHash(ctx, s.Chain, f.vester)
	if err != nil {
		t.Fatal(err)
	}
	pins.CodeHashes[f.vester.Hex()] = hash.Hex()
	h.PinIn(t, pins)
	h.Rewrite("/claim", func(r map[string]any) {
		ins := instruction(r)
		ins["to"], ins["value"] = f.vester.Hex(), "0"
	})
	return f
}

// TestClaimBatchInOneMulticall: with no claim fee due, the claims of two
// allocations (of two holders, sent by wallet 0) go in one multicall,
// after one review that says each and the total; then neither has
// anything left to claim.
func TestClaimBatchInOneMulticall(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	f := newFreeVester(t)
	w := f.Session.Fixtures.Wallets[0]
	r := runCLI(t, f.Session, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "claim", "--ids", strings.Join(f.ids, ","),
		"--sign", "--sender", w.Address, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("claim --ids: exit %d\n%s", r.code, r.stderr)
	}
	out := decodeBatch(t, r)
	if len(out.Transactions) != 1 || out.Transactions[0].Status != "success" || len(out.Allocations) != 1 || len(out.Allocations[0]) != 2 {
		t.Fatalf("transactions %+v for %v, want one multicall of both\n%s", out.Transactions, out.Allocations, r.stderr)
	}
	for _, want := range []string{"one multicall of 2 withdraws (no claim fee is due on any)", "multicall(bytes[])",
		"call 2 allocation:", "claim 2 of 2:", "fee 0 ether", "from 2 allocations; you pay 0 ether in claim fees"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review does not say %q:\n%s", want, r.stderr)
		}
	}
	nothingLeft(t, f.Session, f.ids)
}

// TestHostileBatchInnerCallIsRefused: a service that rewrites one claim
// of a batch (a withdraw of 1 wei, which would take a whole claim for
// almost nothing) has the whole multicall refused, naming that
// allocation; nothing is signed or sent.
func TestHostileBatchInnerCallIsRefused(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	f := newFreeVester(t)
	res, err := f.Session.API.MerkleProof(ctx, f.ids[1])
	if err != nil {
		t.Fatal(err)
	}
	p, err := wallet.ProofFromAPI(res)
	if err != nil {
		t.Fatal(err)
	}
	data, err := chain.PackWithdraw(big.NewInt(1), p.RootIndex, p.DecodableArgs, p.Siblings)
	if err != nil {
		t.Fatal(err)
	}
	// The one rewrite of every claim, which knows the second allocation's
	// by its leaf.
	leaf := hexutil.Encode(p.DecodableArgs)[2:]
	f.Rewrite("/claim", func(r map[string]any) {
		ins := instruction(r)
		ins["to"], ins["value"] = f.vester.Hex(), "0"
		if text, _ := ins["data"].(string); strings.Contains(text, leaf) {
			ins["data"] = hexutil.Encode(data)
		}
	})
	w := f.Session.Fixtures.Wallets[0]
	nonce, _ := f.Session.Chain.PendingNonceAt(ctx, common.HexToAddress(w.Address))
	r := runCLI(t, f.Session, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "claim", "--ids", strings.Join(f.ids, ","),
		"--sign", "--sender", w.Address, "--send", "--yes")
	after, _ := f.Session.Chain.PendingNonceAt(ctx, common.HexToAddress(w.Address))
	checkRefused(t, r, f.Session.StateDir, "claim", "allocations "+strings.Join(f.ids, ","),
		"allocation "+f.ids[1]+" (call 1.2): call 1 withdraws 0.000000000000000001", nonce, after)
}

// TestClaimBatchFailureNamesItsAllocation: when the service fails on one
// allocation of a batch, the batch stops before anything is signed, and
// the error names that allocation.
func TestClaimBatchFailureNamesItsAllocation(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	ctx := context.Background()
	f := newFreeVester(t)
	f.Refuse(f.ids[1]+"/claim", 500, `{"message":"internal error"}`)
	w := f.Session.Fixtures.Wallets[0]
	nonce, _ := f.Session.Chain.PendingNonceAt(ctx, common.HexToAddress(w.Address))
	r := runCLI(t, f.Session, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}, "claim", "--ids", strings.Join(f.ids, ","),
		"--sign", "--sender", w.Address, "--send", "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "allocation "+f.ids[1]+": ") || r.stdout != "" {
		t.Errorf("exit %d, want a failure naming %s:\n%s%s", r.code, f.ids[1], r.stdout, r.stderr)
	}
	if after, _ := f.Session.Chain.PendingNonceAt(ctx, common.HexToAddress(w.Address)); after != nonce {
		t.Errorf("nonce %d -> %d: something was sent", nonce, after)
	}
}

// TestBatchOutcomeNamesTheFailure: when a transaction of a batch of
// three fails (the second reverts; or sending the second fails, and the
// third is not sent), the error names the allocation that failed, with
// why, and reports the rest; each allocation's outcome is said on stderr.
func TestBatchOutcomeNamesTheFailure(t *testing.T) {
	t.Parallel()
	b := &session.ClaimBatch{IDs: []string{"A", "B", "C"}, Claims: [][]string{{"A"}, {"B"}, {"C"}}}
	for _, tc := range []struct {
		name     string
		statuses []wallet.Status
		want     string
	}{
		{"the second reverted", []wallet.Status{{State: wallet.StateSuccess},
			{State: wallet.StateReverted, RevertReason: "InsufficientFunds()"}, {State: wallet.StateSuccess}},
			"the claim of allocation B: reverted: InsufficientFunds(); the rest: A: success; C: success"},
		{"sending the second failed", []wallet.Status{{State: wallet.StatePending}},
			"the claim of allocation B: not sent: sending it failed; the rest: A: pending; C: not sent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			e := &env{IO: IO{Stderr: &stderr}}
			err := batchOutcome(e, b, tc.statuses, errors.New("claim transaction 2 failed"))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing is sent again") {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
			for _, id := range b.IDs {
				if !strings.Contains(stderr.String(), "allocation "+id+": ") {
					t.Errorf("stderr does not say what became of %s:\n%s", id, stderr.String())
				}
			}
		})
	}
}
