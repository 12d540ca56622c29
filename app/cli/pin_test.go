package cli

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/config"
	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/merkle"
)

// activePool is the first active pool of the sandbox's first token, and
// the address its contract entry names.
func activePool(t *testing.T, s *session.Session) (api.Pool, common.Address) {
	t.Helper()
	ctx := context.Background()
	pools, err := s.API.AllPools(ctx, s.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	contracts, err := s.API.Contracts(ctx, s.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pools.Items {
		for _, c := range contracts.Items {
			if p.Status == "ACTIVE" && c.ID == p.ContractID {
				return p, common.HexToAddress(c.Address)
			}
		}
	}
	t.Fatal("no active pool")
	return api.Pool{}, common.Address{}
}

// TestHostileStakingContractIsRefused: the service lists its own "Meridian
// Staking v3" for the pool, whose stakingToken() is the real token and
// whose stake() sends the approved tokens to the attacker. Without pins
// allot signed the approve and the stake; now nothing is signed for a
// staking contract the profile does not pin, and the refusal names the
// command that pins it.
func TestHostileStakingContractIsRefused(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	ctx := context.Background()
	pool, real := activePool(t, h.Session)
	token, err := wallet.StakingToken(ctx, h.Session.Chain, real) // what the fake would take
	if err != nil {
		t.Fatal(err)
	}
	fake := h.DeployFakeStaking(t, real)
	h.Rewrite("/contracts", func(r map[string]any) {
		for _, c := range r["items"].([]any) {
			if c := c.(map[string]any); c["id"] == pool.ContractID {
				c["address"], c["name"] = fake.Hex(), "Meridian Staking v3"
			}
		}
	})
	h.Rewrite("/parameters/stake", func(r map[string]any) { r["to"] = fake.Hex() })
	amount := pool.MinimumStakeAmount.String()

	for _, tc := range []struct {
		name string
		pins config.Pins
		want string
	}{
		{"a profile without pins", config.Pins{},
			"the pool's staking contract " + fake.Hex() + " is not pinned in the profile (its code hash is 0x"},
		{"a profile pinning the sandbox's deployment", h.Session.Profile.Pins,
			"check it on an explorer, then pin it: allot pin staking " + fake.Hex()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *h.Session
			s.Profile.Pins = tc.pins
			s.StateDir = t.TempDir()
			before := h.nonce(t)
			r := runCLI(t, &s, map[string]string{"ALLOT_PASSPHRASE": h.passphrase},
				"stake", "--pool", pool.ID, "--amount", amount, "--account", h.wallet, "--send", "--yes", "--wait")
			checkRefused(t, r, s.StateDir, "stake", pool.ID, tc.want, before, h.nonce(t))
			if stolen, err := wallet.TokenBalance(ctx, h.Session.Chain, token, sessiontest.Attacker); err != nil || stolen.Sign() != 0 {
				t.Errorf("the attacker holds %v tokens (%v)", stolen, err)
			}
		})
	}
}

// TestHostileSkimVesterIsRefused: the service lists first a vester that
// answers the real root and the real fee plus a skim, and passes the claim
// on to the real vester, keeping the skim. Without pins allot signed it
// (the user got the tokens and never noticed); now it is refused.
func TestHostileSkimVesterIsRefused(t *testing.T) {
	t.Parallel()
	h := newHostileClaim(t)
	ctx := context.Background()
	contracts, err := h.Session.API.Contracts(ctx, h.Session.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	root := merkle.ProcessProof(merkle.Leaf(h.proof.DecodableArgs), h.proof.Siblings)
	check, err := wallet.FindVester(ctx, h.Session.Chain, wallet.VesterCandidates(contracts.Items), h.proof.RootIndex, root)
	if err != nil {
		t.Fatal(err)
	}
	real := check.Vester
	fee, err := wallet.ClaimFee(ctx, h.Session.Chain, real, h.allocation)
	if err != nil {
		t.Fatal(err)
	}
	skim := big.NewInt(1e15)
	fake := h.DeploySkimVester(t, real, skim)
	if got, err := wallet.ClaimFee(ctx, h.Session.Chain, fake, h.allocation); err != nil || got.Cmp(new(big.Int).Add(fee, skim)) != 0 {
		t.Fatalf("the skim vester states a fee of %v (%v), want %v + %v", got, err, fee, skim)
	}
	h.ListContract("c-skim", "Team & Advisors Vesting", "VESTING", fake)
	h.Rewrite("/claim", func(r map[string]any) {
		instruction(r)["to"] = fake.Hex()
		instruction(r)["value"] = new(big.Int).Add(fee, skim).String()
	})
	attackerBefore, err := h.Sandbox.Chain.Client().BalanceAt(ctx, sessiontest.Attacker, nil)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		pins config.Pins
		want string
	}{
		{"a profile without pins", config.Pins{},
			"the vester " + fake.Hex() + " is not pinned in the profile (its code hash is 0x"},
		{"a profile pinning the sandbox's deployment", h.Session.Profile.Pins,
			"call 1 goes to " + fake.Hex() + ", not to the vester " + real.Hex()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *h.Session
			s.Profile.Pins = tc.pins
			s.StateDir = t.TempDir()
			before := h.nonce(t)
			r := runCLI(t, &s, map[string]string{"ALLOT_PASSPHRASE": h.passphrase},
				"claim", h.allocation, "--sign", "--account", h.wallet, "--send", "--yes", "--wait")
			checkRefused(t, r, s.StateDir, "claim", h.allocation, tc.want, before, h.nonce(t))
		})
	}
	after, err := h.Sandbox.Chain.Client().BalanceAt(ctx, sessiontest.Attacker, nil)
	if err != nil || after.Cmp(attackerBefore) != 0 {
		t.Errorf("the attacker's balance went from %v to %v (%v)", attackerBefore, after, err)
	}
}

// TestSigningOnceDoesNotPin: "known" means pinned, never "signed for
// once": a staking contract signed for under a profile that pins it is
// refused under a profile that does not, though the journal holds the
// signature.
func TestSigningOnceDoesNotPin(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	r := f.run(t, "stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex(), "--send", "--yes", "--wait", "-o", "json")
	if r.code != 0 {
		t.Fatalf("the pinned stake: exit %d\n%s", r.code, r.stderr)
	}
	f.sess.Profile.Pins.Staking = nil
	r = f.run(t, "stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex(), "--send", "--yes", "--wait")
	want := "the pool's staking contract " + f.pool.Hex() + " is not pinned in the profile"
	if r.code != 1 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "signed for in this journal") {
		t.Errorf("the second stake, unpinned: exit %d, want a refusal saying %q:\n%s", r.code, want, r.stderr)
	}
}

// TestPinnedCodeChangedIsRefused: a pinned contract whose code is not the
// code pinned (an upgrade, or a node swapping code) is refused, and the
// refusal offers no pin command: it must be checked again first.
func TestPinnedCodeChangedIsRefused(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	f.sess.Profile.Pins.CodeHashes[f.vester.Hex()] = common.Hash{0xc0, 0xde}.Hex()
	r := f.run(t, "claim", testAllocation, "--sender", f.user.Hex(), "--sign", "--account", f.user.Hex(), "--send", "--yes")
	want := "the code of the vester " + f.vester.Hex() + " changed since it was pinned"
	if r.code != 1 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "allot pin vester") {
		t.Errorf("exit %d, want a refusal saying %q and no pin command:\n%s", r.code, want, r.stderr)
	}
}

// TestPinCommand pins the contracts a claim needs in a configuration file
// written by hand: the file keeps its comments, the claim refused before
// is signed after, and `pin rm` takes the pin back out.
func TestPinCommand(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "# mine\n[profiles.test]   # the chain fixture\nbase_url = \"http://127.0.0.1:1\" # not used\n\n[profiles.test.pins]\nvesters = [\n  # none yet\n]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f.sess.ConfigPath = path
	f.sess.Profile.Pins = config.Pins{}
	claim := func() result {
		return f.run(t, "claim", testAllocation, "--sender", f.user.Hex(), "--sign", "--account", f.user.Hex(), "--send", "--yes", "--wait", "-o", "json")
	}
	if r := claim(); r.code != 1 || !strings.Contains(r.stderr, "then pin it: allot pin vester "+f.vester.Hex()) ||
		!strings.Contains(r.stderr, "  allot --profile test pin vester "+f.vester.Hex()+"\n") {
		t.Fatalf("the claim before pinning: exit %d\n%s", r.code, r.stderr)
	}

	r := f.run(t, "pin", "vester", f.vester.Hex())
	hash, _ := wallet.CodeHash(context.Background(), f.sess.Chain, f.vester)
	if r.code != 0 || !strings.Contains(r.stdout, "pinned vester "+f.vester.Hex()+" in profile \"test\"") || !strings.Contains(r.stdout, hash.Hex()) {
		t.Fatalf("pin vester: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"listed:", `the service lists it as "Test vester" (VESTING)`, "code hash:", hash.Hex()} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("pin vester did not say %q:\n%s", want, r.stderr)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "# mine\n[profiles.test]   # the chain fixture\n") || !strings.Contains(string(data), "  # none yet\n  \""+f.vester.Hex()+"\",\n]") {
		t.Errorf("the file after pinning: %v\n%s", err, data)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("the file's mode after pinning: %v, %v: want the user's 0644 kept", info.Mode().Perm(), err)
	}
	if r := claim(); r.code != 0 {
		t.Errorf("the claim after pinning: exit %d\n%s", r.code, r.stderr)
	}
	if r := f.run(t, "pin", "list"); r.code != 0 || !strings.Contains(r.stdout, "vester  "+f.vester.Hex()+"  "+hash.Hex()) {
		t.Errorf("pin list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	noCode := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	if r := f.run(t, "pin", "staking", noCode.Hex()); r.code != 1 || !strings.Contains(r.stderr, "has no code on the chain: there is no contract to pin") {
		t.Errorf("pin of an address with no code: exit %d\n%s", r.code, r.stderr)
	}

	if r := f.run(t, "pin", "rm", "vester", f.vester.Hex()); r.code != 0 {
		t.Fatalf("pin rm: exit %d\n%s", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), f.vester.Hex()) {
		t.Errorf("the file after pin rm still names the vester:\n%s", data)
	}
	if r := claim(); r.code != 1 {
		t.Errorf("the claim after pin rm: exit %d, want a refusal\n%s", r.code, r.stderr)
	}
}

// forgingNode answers calls to forged as the contract at real would: a
// node that vouches for an address with no code.
type forgingNode struct {
	wallet.Node
	forged, real common.Address
}

func (n forgingNode) CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if call.To != nil && *call.To == n.forged {
		to := n.real
		call.To = &to
	}
	return n.Node.CallContract(ctx, call, block)
}

// TestNoCodeIsRefused: a node answers merkleRoots and getClaimFee for an
// address with no code, which the service aims the claim at and the
// profile even pins: refused, pinned or not, nothing sent there.
func TestNoCodeIsRefused(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	empty := common.HexToAddress("0x00000000000000000000000000000000000e3971")
	f.sess.Chain = forgingNode{f.sess.Chain, empty, f.vester}
	f.svc.contracts = append([]api.Contract{{ID: "c-empty", Name: "Vester v2", Type: "VESTING", Address: empty.Hex()}}, f.svc.contracts...)
	f.svc.claim = func(sender common.Address) []api.EVMInstruction {
		in := f.withdraw(t, 0, sender, ether(1))
		in.To = empty.Hex()
		return []api.EVMInstruction{in}
	}
	for _, tc := range []struct {
		name string
		pin  bool
	}{{"not pinned", false}, {"pinned", true}} {
		t.Run(tc.name, func(t *testing.T) {
			pins := f.sess.Profile.Pins
			if tc.pin {
				pins.Vesters = []string{empty.Hex()}
				pins.CodeHashes = map[string]string{empty.Hex(): common.Hash{1}.Hex()}
			} else {
				pins.Vesters = nil
			}
			s := *f.sess
			s.Profile.Pins = pins
			r := runCLI(t, &s, map[string]string{"ALLOT_PASSPHRASE": testPassphrase},
				"claim", testAllocation, "--sender", f.user.Hex(), "--sign", "--account", f.user.Hex(), "--send", "--yes")
			want := "the vester " + empty.Hex() + " has no code on the chain"
			if r.code != 1 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "allot pin vester "+empty.Hex()) {
				t.Errorf("exit %d, want a refusal saying %q, offering no pin:\n%s", r.code, want, r.stderr)
			}
		})
	}
}

// codeForgingNode answers the code of real for every address: a node that
// vouches for addresses no one deployed a contract at.
type codeForgingNode struct {
	wallet.Node
	real common.Address
}

func (n codeForgingNode) CodeAt(ctx context.Context, _ common.Address, block *big.Int) ([]byte, error) {
	return n.Node.CodeAt(ctx, n.real, block)
}

// TestPinOfAReservedAddressIsRefused: `allot pin` of the zero address, a
// precompile or 0x…dEaD is refused, and the file left alone, even when
// the node answers code for it.
func TestPinOfAReservedAddressIsRefused(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.test]\nbase_url = \"http://127.0.0.1:1\"\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	f.sess.ConfigPath = path
	f.sess.Chain = codeForgingNode{f.sess.Chain, f.vester}
	for _, addr := range []string{"0x000000000000000000000000000000000000dEaD", "0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000001"} {
		r := f.run(t, "pin", "staking", addr)
		if r.code != 1 || !strings.Contains(r.stderr, "no contract to trust, whatever code a node answers for it") {
			t.Errorf("pin %s: exit %d\n%s", addr, r.code, r.stderr)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != src {
		t.Errorf("the file changed:\n%s", data)
	}
}
