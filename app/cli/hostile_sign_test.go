package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api"
	"allot/api/sandbox/chain"
	"allot/assets"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session/sessiontest"
	"allot/wallet"
)

// attacker is where a hostile service sends what it can.
var attacker = common.HexToAddress("0x00000000000000000000000000000000a77ac4e5")

// hostileClaim is a claimable allocation of the sandbox's first wallet,
// behind a service that rewrites its answers.
type hostileClaim struct {
	*sessiontest.Hostile
	wallet, passphrase string
	allocation         string
	proof              *wallet.Proof
}

func newHostileClaim(t *testing.T) *hostileClaim {
	t.Helper()
	h := &hostileClaim{Hostile: sessiontest.NewHostile(t, t.TempDir())}
	fx := h.Session.Fixtures
	h.wallet, h.passphrase = fx.Wallets[0].Address, fx.Wallets[0].Passphrase
	for _, id := range fx.AllocationIDs {
		p, err := h.Session.API.MerkleProof(context.Background(), id)
		if err == nil && strings.EqualFold(p.WalletAddress, h.wallet) {
			h.allocation = id
			if h.proof, err = wallet.ProofFromAPI(p); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if h.allocation == "" {
		t.Fatalf("no allocation of %s in the sandbox", h.wallet)
	}
	return h
}

func (h *hostileClaim) run(t *testing.T, args ...string) result {
	t.Helper()
	return runCLI(t, h.Session, map[string]string{"ALLOT_PASSPHRASE": h.passphrase}, args...)
}

func (h *hostileClaim) nonce(t *testing.T) uint64 {
	t.Helper()
	n, err := h.Session.Chain.PendingNonceAt(context.Background(), common.HexToAddress(h.wallet))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// instructions are the claim answer's, to rewrite in place.
func instructions(result map[string]any) []any {
	groups, _ := result["parameters"].([]any)
	group, _ := groups[0].(map[string]any)
	list, _ := group["instructions"].([]any)
	return list
}

func setInstructions(result map[string]any, list []any) {
	groups, _ := result["parameters"].([]any)
	groups[0].(map[string]any)["instructions"] = list
}

func instruction(result map[string]any) map[string]any {
	return instructions(result)[0].(map[string]any)
}

var tokenABI = func() func(method string, args ...any) string {
	parsed, err := assets.ABI(assets.TokenContract)
	if err != nil {
		panic(err)
	}
	return func(method string, args ...any) string {
		data, err := parsed.Pack(method, args...)
		if err != nil {
			panic(err)
		}
		return hexutil.Encode(data)
	}
}()

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// checkRefused asserts that a run was refused by the signing policy with
// want among its reasons: exit 1, the reasons on stderr, nothing signed or
// sent, the refusal journaled.
func checkRefused(t *testing.T, r result, stateDir, op, subject, want string, nonceBefore, nonceAfter uint64) {
	t.Helper()
	if r.code != 1 || !strings.Contains(r.stderr, "REFUSED by the signing policy; nothing was signed:") || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, want 1, refused with %q:\n%s", r.code, want, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout holds %q: nothing was signed", r.stdout)
	}
	if nonceAfter != nonceBefore {
		t.Errorf("the account's nonce went from %d to %d: a transaction reached the chain", nonceBefore, nonceAfter)
	}
	all := journaltest.Entries(t, stateDir)
	for _, e := range all {
		if e.Kind == journal.KindTransaction || e.Kind == journal.KindSignature && e.Op != "signin" {
			t.Errorf("journal: %s %s %s: nothing should have been signed", e.Kind, e.Op, e.Ref)
		}
	}
	refusals := journaltest.Of(all, journal.KindRefusal, op)
	if len(refusals) != 1 || refusals[0].Ref != subject || !strings.Contains(string(refusals[0].Data), strings.ReplaceAll(want, `"`, `\"`)) {
		t.Errorf("journal refusals %+v: want one of %s %s, with the reason %q", refusals, op, subject, want)
	}
}

func TestHostileClaimIsRefused(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	h := newHostileClaim(t)
	ctx := context.Background()
	var token, vester common.Address
	contracts, err := h.Session.API.Contracts(ctx, h.Session.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range contracts.Items {
		if c.Type == "VESTING" && vester == (common.Address{}) {
			vester = common.HexToAddress(c.Address)
		}
	}
	// A second vester of the token, on the same chain, holding another
	// root: it answers merkleRoots, not with this proof's root.
	var other common.Address
	err = h.Sandbox.Chain.Transact(ctx, func(b *chain.Batch) {
		token = b.DeployToken("Other", "OTH")
		other = b.DeployVester(token, big.NewInt(1))
		b.AddRoot(other, common.Hash{0x0e})
	})
	if err != nil {
		t.Fatal(err)
	}
	withRoot := func(index uint32) string {
		data, err := chain.PackWithdraw(new(big.Int), index, h.proof.DecodableArgs, h.proof.Siblings)
		if err != nil {
			t.Fatal(err)
		}
		return hexutil.Encode(data)
	}
	fifty := new(big.Int).Mul(big.NewInt(50), big.NewInt(1e18)).String()

	for _, tc := range []struct {
		name    string
		rewrite map[string]func(map[string]any)
		want    string
	}{
		{"an unlimited approve to an attacker", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			instruction(r)["data"] = tokenABI("approve", attacker, maxUint256)
		}}, "call 1 is an UNLIMITED approve of token"},
		{"a transfer", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			instruction(r)["data"] = tokenABI("transfer", attacker, big.NewInt(1e18))
		}}, "call 1 is a transfer of 1.00 tokens"},
		{"a withdraw to a non-vester", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			instruction(r)["to"] = attacker.Hex()
		}}, "call 1 goes to " + attacker.Hex() + ", not to the vester"},
		{"a withdraw with 50 ether", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			instruction(r)["value"] = fifty
		}}, "call 1 sends 50 ether, more than max_native_fee 0.01 ether"},
		{"a valid withdraw and an extra call", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			extra := map[string]any{}
			for k, v := range instruction(r) {
				extra[k] = v
			}
			extra["data"] = tokenABI("transfer", attacker, big.NewInt(1e18))
			setInstructions(r, append(instructions(r), extra))
		}}, "a claim signs exactly one vester withdraw; the service's answer holds 2 calls"},
		{"another chain", map[string]func(map[string]any){"/claim": func(r map[string]any) {
			instruction(r)["chainId"] = 1
		}}, "call 1 is for chain 1"},
		{"a vester that does not hold the root", map[string]func(map[string]any){
			"/contracts": func(r map[string]any) {
				for _, c := range r["items"].([]any) {
					if c := c.(map[string]any); c["type"] == "VESTING" || c["type"] == "AIRDROP" {
						c["address"] = other.Hex()
					}
				}
			},
			"/claim": func(r map[string]any) { instruction(r)["to"] = other.Hex() },
		}, "call 1 goes to " + other.Hex() + ", not to the vester " + vester.Hex()},
		{"a root index past the vester's roots", map[string]func(map[string]any){
			"/merkle-proof": func(r map[string]any) { r["rootIndex"] = 99 },
			"/claim":        func(r map[string]any) { instruction(r)["data"] = withRoot(99) },
		}, "no pinned vester holds root 99"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, suffix := range []string{"/claim", "/contracts", "/merkle-proof"} {
				h.Rewrite(suffix, tc.rewrite[suffix])
			}
			h.Session.StateDir = t.TempDir()
			before := h.nonce(t)
			r := h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait")
			checkRefused(t, r, h.Session.StateDir, "claim", h.allocation, tc.want, before, h.nonce(t))
		})
	}

	// The same service, answering honestly, is signed and mined.
	for _, suffix := range []string{"/claim", "/contracts", "/merkle-proof"} {
		h.Rewrite(suffix, nil)
	}
	r := h.run(t, "claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("the honest claim: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Errorf("the honest claim: %+v, want one success", sent)
	}
	for _, want := range []string{"Checked by the signing policy:", vester.Hex() + " holds root", "(read from the chain) · pinned in the profile, its code as pinned (0x", "claimable"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "found on chain") {
		t.Errorf("the review says \"found on chain\" of what only the node vouches for:\n%s", r.stderr)
	}
}

func TestHostileStakeIsRefused(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	ctx := context.Background()
	pools, err := h.Session.API.AllPools(ctx, h.Session.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	var pool api.Pool
	for _, p := range pools.Items {
		if p.Status == "ACTIVE" {
			pool = p
			break
		}
	}
	amount := pool.MinimumStakeAmount.String()
	stakeOf := func(tokens int64) string {
		data, err := chain.PackStake(new(big.Int).Mul(big.NewInt(tokens), big.NewInt(1e18)))
		if err != nil {
			t.Fatal(err)
		}
		return hexutil.Encode(data)
	}
	for _, tc := range []struct {
		name    string
		rewrite func(map[string]any)
		want    string
	}{
		{"a stake in another contract", func(r map[string]any) { r["to"] = attacker.Hex() }, "call 1 stakes in " + attacker.Hex()},
		{"an unlimited approve instead", func(r map[string]any) { r["data"] = tokenABI("approve", attacker, maxUint256) },
			"call 1 is an UNLIMITED approve of token"},
		{"a platform fee of 50 ether", func(r map[string]any) { r["platformFee"] = json.Number("50") },
			"sends 50 ether, more than max_native_fee 0.01 ether"},
		{"another amount", func(r map[string]any) { r["data"] = stakeOf(123456) }, "stakes 123,456.00 tokens; you asked for " + amount + ".00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.Rewrite("/parameters/stake", tc.rewrite)
			h.Session.StateDir = t.TempDir()
			before := h.nonce(t)
			r := h.run(t, "stake", "--pool", pool.ID, "--amount", amount, "--account", h.wallet, "--send", "--yes")
			checkRefused(t, r, h.Session.StateDir, "stake", pool.ID, tc.want, before, h.nonce(t))
		})
	}
}
