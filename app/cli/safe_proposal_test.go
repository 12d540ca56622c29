package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api"
	"allot/core/session/sessiontest"
	"allot/wallet"
	"allot/wallet/safe/safetest"
	"allot/wallet/safe/txbuilder"
)

// treasury is the real Safe 1.4.1 contracts on the sandbox's chain and a
// 2-of-3 Safe of demo wallets 0, 1 and 2, holding the tokens of a stake in
// the first active pool and ether for its fee.
type treasury struct {
	h      *sessiontest.Hostile
	safes  *safetest.Safes
	safe   common.Address
	pool   api.Pool
	amount string // the pool's minimum stake, in tokens
	dir    string
}

func newTreasury(t *testing.T) *treasury {
	t.Helper()
	safetest.Dir(t, safetest.Contracts) // skips before a chain starts
	h := sessiontest.NewHostile(t, t.TempDir())
	s, fx := h.Session, h.Session.Fixtures
	last := fx.Wallets[len(fx.Wallets)-1]
	keyJSON, err := os.ReadFile(last.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, last.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	d := &safetest.Deployer{Client: h.Sandbox.Chain.Client(), Key: key.PrivateKey, Commit: func() { h.Sandbox.Chain.Commit() }}
	tr := &treasury{h: h, safes: safetest.DeploySafes(t, d), dir: t.TempDir()}
	owners := []common.Address{common.HexToAddress(fx.Wallets[0].Address), common.HexToAddress(fx.Wallets[1].Address), common.HexToAddress(fx.Wallets[2].Address)}
	tr.safe = tr.safes.Create(t, d, tr.safes.Singleton, owners, 2, 1)

	ctx := context.Background()
	pools, err := s.API.AllPools(ctx, fx.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pools.Items {
		if p.Status == "ACTIVE" {
			tr.pool = p
			break
		}
	}
	tr.amount = tr.pool.MinimumStakeAmount.String()
	pins, err := s.SigningPins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := s.StakePolicy(ctx, pins, tr.pool, tr.safe, nil)
	if err != nil || sp.Pool == (common.Address{}) {
		t.Fatalf("the pool's staking contract: %v", err)
	}
	token, err := wallet.StakingToken(ctx, s.Chain, sp.Pool)
	if err != nil {
		t.Fatal(err)
	}
	units, err := api.BaseUnits(tr.pool.MinimumStakeAmount.Decimal)
	if err != nil {
		t.Fatal(err)
	}
	d.Send(t, &token, hexutil.MustDecode(tokenABI("transfer", tr.safe, units)))
	d.SendValue(t, &tr.safe, nil, ether(1))
	return tr
}

func (tr *treasury) wallet(i int) (string, map[string]string) {
	w := tr.h.Session.Fixtures.Wallets[i]
	return w.Address, map[string]string{"ALLOT_PASSPHRASE": w.Passphrase}
}

func (tr *treasury) path(name string) string { return filepath.Join(tr.dir, name) }

func (tr *treasury) run(t *testing.T, environ map[string]string, args ...string) result {
	t.Helper()
	return runCLI(t, tr.h.Session, environ, args...)
}

// TestSafeStakeProposedSignedExecuted: a treasury of three signers stakes
// from its 2-of-3 Safe. Owner 0 proposes the stake (approve + stake in one
// MultiSendCallOnly call) and signs; the Safe cannot execute it with one
// signature; owner 1 signs; a fourth key executes it, paying the gas; the
// service lists the stake for the Safe's address, and the proposal says
// it was executed. On the way every proposal that is not what the owners
// signed is refused with its reason: a foreign signature, a signature of
// another hash, a changed call, a stale nonce; and a MultiSend whose code
// is not the canonical MultiSendCallOnly's is never signed for.
func TestSafeStakeProposedSignedExecuted(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	owner0, pass0 := tr.wallet(0)
	owner1, pass1 := tr.wallet(1)
	executor, pass3 := tr.wallet(3)
	file := tr.path("stake.json")
	stake := []string{"stake", "--pool", tr.pool.ID, "--amount", tr.amount, "--account", tr.safe.Hex(), "--owner", owner0, "--proposal", file, "--yes"}

	r := tr.run(t, pass0, stake...)
	if r.code == 0 || !strings.Contains(r.stderr, "the MultiSendCallOnly 0x9641d764fc13c8B624c04430C7356C1C7C8102e2 has no code") {
		t.Fatalf("through the canonical MultiSendCallOnly, not deployed on the sandbox's chain: exit %d\n%s", r.code, r.stderr)
	}
	r = tr.run(t, pass0, append(stake, "--multisend", tr.safes.Singleton.Hex())...)
	if r.code == 0 || !strings.Contains(r.stderr, "is not a canonical MultiSendCallOnly") || !strings.Contains(r.stderr, "nothing was signed") {
		t.Fatalf("through a MultiSend that is not the canonical one: exit %d\n%s", r.code, r.stderr)
	}

	r = tr.run(t, pass0, append(stake, "--multisend", tr.safes.MultiSendAddr.Hex(), "-o", "json")...)
	if r.code != 0 {
		t.Fatalf("propose: exit %d\n%s", r.code, r.stderr)
	}
	var shown proposalJSON
	decodeJSON(t, r, &shown)
	if shown.State != "signatures missing" || len(shown.Signed) != 1 || shown.Operation != "delegatecall" || len(shown.Calls) != 2 {
		t.Fatalf("proposed %+v", shown)
	}
	for _, label := range []string{"Domain hash", "Message hash", "safeTxHash", "canonical MultiSendCallOnly 1.4.1", "approve", "stake"} {
		if !strings.Contains(r.stderr, label) {
			t.Errorf("the review lacks %q:\n%s", label, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(tr.h.Session.StateDir, "safe-proposals", shown.SafeTxHash+".json")); err != nil {
		t.Errorf("no copy in the state directory: %v", err)
	}

	r = tr.run(t, pass3, "safe", "exec", file, "--account", executor, "--send", "--yes")
	if r.code != ExitCheckFail || !strings.Contains(r.stderr, "1 of 2 signatures") {
		t.Errorf("below the threshold: exit %d\n%s", r.code, r.stderr)
	}
	tr.refusesTampered(t, file, pass3, executor)

	r = tr.run(t, pass1, "safe", "sign", file, "--owner", owner1, "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("sign: exit %d\n%s", r.code, r.stderr)
	}
	decodeJSON(t, r, &shown)
	if shown.State != "ready" || len(shown.Signed) != 2 {
		t.Fatalf("signed %+v", shown)
	}

	r = tr.run(t, pass3, "safe", "exec", file, "--account", executor, "--send", "--wait", "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exec: exit %d\n%s", r.code, r.stderr)
	}
	if sent := decodeSent(t, r); len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("exec statuses %+v\n%s", sent, r.stderr)
	}
	t.Logf("exec review:\n%s", r.stderr)
	r = tr.run(t, nil, "stakes", "--pool", tr.pool.ID, "--wallet", tr.safe.Hex(), "-o", "json")
	if r.code != 0 || !strings.Contains(strings.ToLower(r.stdout), strings.ToLower(tr.safe.Hex())) {
		t.Errorf("the service lists no stake of the Safe: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = tr.run(t, nil, "safe", "show", file, "-o", "json")
	decodeJSON(t, r, &shown)
	if shown.State != "executed" || shown.Executed == "" {
		t.Errorf("after exec: %+v", shown)
	}
	r = tr.run(t, nil, "safe", "show", tr.path("signed-by-0.json"))
	if r.code != 0 || !strings.Contains(r.stdout, "stale nonce") || !strings.Contains(r.stdout, "1 of 2") {
		t.Errorf("a proposal at the nonce the Safe used: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = tr.run(t, pass3, "safe", "exec", tr.path("signed-by-0.json"), "--account", executor, "--send", "--yes")
	if r.code != ExitCheckFail || !strings.Contains(r.stderr, "the Safe's nonce is 1") {
		t.Errorf("a stale nonce: exit %d\n%s", r.code, r.stderr)
	}
}

// refusesTampered writes copies of the proposal at file changed as a
// hostile teammate or a corrupted transfer would, and sees safe exec
// refuse each with its reason before anything is signed; it keeps the
// proposal as signed by owner 0 alone in signed-by-0.json.
func (tr *treasury) refusesTampered(t *testing.T, file string, pass map[string]string, executor string) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tr.path("signed-by-0.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	hash := common.HexToHash(doc["hashes"].(map[string]any)["safeTxHash"].(string))
	stranger, _ := crypto.GenerateKey()
	owner1Key := tr.key(t, 1)
	sig := func(k *keystore.Key, h common.Hash) string {
		s, err := crypto.Sign(h[:], k.PrivateKey)
		if err != nil {
			t.Fatal(err)
		}
		s[64] += 27
		return hexutil.Encode(s)
	}
	strangerKey := &keystore.Key{PrivateKey: stranger, Address: crypto.PubkeyToAddress(stranger.PublicKey)}
	for name, tc := range map[string]struct {
		change func(map[string]any)
		want   string
	}{
		"a foreign signature": {func(d map[string]any) {
			d["signatures"] = append(d["signatures"].([]any), map[string]any{"owner": strangerKey.Address.Hex(), "signature": sig(strangerKey, hash)})
		}, "not an owner of the Safe"},
		"a signature of another hash": {func(d map[string]any) {
			d["signatures"] = append(d["signatures"].([]any), map[string]any{"owner": owner1Key.Address.Hex(), "signature": sig(owner1Key, common.Hash{1})})
		}, "not a signature of this Safe transaction"},
		"a changed call": {func(d map[string]any) {
			call := d["calls"].([]any)[1].(map[string]any)
			data := call["data"].(string)
			call["data"] = data[:len(data)-1] + string("01"[(int(data[len(data)-1])+1)%2])
		}, "the calls differ from what was reviewed"},
	} {
		var copied map[string]any
		_ = json.Unmarshal(raw, &copied)
		tc.change(copied)
		out, _ := json.Marshal(copied)
		path := tr.path(strings.ReplaceAll(name, " ", "-") + ".json")
		if err := os.WriteFile(path, out, 0o600); err != nil {
			t.Fatal(err)
		}
		r := tr.run(t, pass, "safe", "exec", path, "--account", executor, "--send", "--yes")
		if r.code != ExitCheckFail || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, want a refusal saying %q:\n%s", name, r.code, tc.want, r.stderr)
		}
	}
}

func (tr *treasury) key(t *testing.T, i int) *keystore.Key {
	t.Helper()
	w := tr.h.Session.Fixtures.Wallets[i]
	keyJSON, err := os.ReadFile(w.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, w.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// TestSafeTxBuilderRoundTrip: the act's --tx-builder file holds its calls;
// a proposal exported as a Transaction Builder file is read back by safe import with the checksum it was written with,
// each call reviewed under the policy, and makes the same Safe
// transaction, signed by another owner; a file changed after it was made
// is refused by its checksum.
func TestSafeTxBuilderRoundTrip(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	owner0, pass0 := tr.wallet(0)
	owner2, pass2 := tr.wallet(2)
	file := tr.path("stake.json")
	r := tr.run(t, pass0, "stake", "--pool", tr.pool.ID, "--amount", tr.amount, "--account", tr.safe.Hex(), "--owner", owner0,
		"--proposal", file, "--tx-builder", tr.path("direct.json"), "--multisend", tr.safes.MultiSendAddr.Hex(), "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("propose: exit %d\n%s", r.code, r.stderr)
	}
	var proposed proposalJSON
	decodeJSON(t, r, &proposed)
	direct, err := os.Open(tr.path("direct.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if b, err := txbuilder.Read(direct); err != nil || len(b.Transactions) != len(proposed.Calls) || b.Safe != tr.safe {
		t.Errorf("the act's --tx-builder file: %+v (%v)", b, err)
	}

	r = tr.run(t, nil, "safe", "export", file, "-o", "tx-builder")
	if r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.stderr)
	}
	var exported struct {
		Meta struct {
			Checksum string `json:"checksum"`
		} `json:"meta"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &exported); err != nil || exported.Meta.Checksum == "" {
		t.Fatalf("the export has no checksum (%v):\n%s", err, r.stdout)
	}
	builder := tr.path("batch.json")
	if err := os.WriteFile(builder, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	imported := tr.path("imported.json")
	r = tr.run(t, pass2, "safe", "import", builder, "--safe", tr.safe.Hex(), "--owner", owner2, "--proposal", imported,
		"--multisend", tr.safes.MultiSendAddr.Hex(), "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("import: exit %d\n%s", r.code, r.stderr)
	}
	var got proposalJSON
	decodeJSON(t, r, &got)
	if !strings.Contains(r.stderr, "its checksum "+exported.Meta.Checksum+" is its content's") {
		t.Errorf("the import does not name the checksum %s:\n%s", exported.Meta.Checksum, r.stderr)
	}
	if got.SafeTxHash != proposed.SafeTxHash || got.Act != "stake" || got.Subject != tr.pool.ID || len(got.Signed) != 1 || got.Signed[0] != common.HexToAddress(owner2).Hex() {
		t.Errorf("imported %+v, want the proposal %s signed by %s", got, proposed.SafeTxHash, owner2)
	}

	tampered := strings.Replace(mustRead(t, builder), `"value": "0"`, `"value": "1"`, 1)
	bad := tr.path("tampered.json")
	if err := os.WriteFile(bad, []byte(tampered), 0o600); err != nil {
		t.Fatal(err)
	}
	r = tr.run(t, pass2, "safe", "import", bad, "--safe", tr.safe.Hex(), "--owner", owner2, "--yes")
	if r.code != ExitCheckFail || !strings.Contains(r.stderr, "checksum does not match") {
		t.Errorf("a changed file: exit %d\n%s", r.code, r.stderr)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestSafeClaimForItsHolder: the Safe sends the claim of wallet 1's
// allocation (anyone may: docs/deployment.md D19): proposed by owner 0, signed by owner 2,
// executed by a fourth key; the vester records the withdraw, and the
// Safe, not the holder, paid the fee.
func TestSafeClaimForItsHolder(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	s := tr.h.Session
	ctx := context.Background()
	owner0, pass0 := tr.wallet(0)
	owner2, pass2 := tr.wallet(2)
	executor, pass3 := tr.wallet(3)
	holder := s.Fixtures.Wallets[1].Address
	id, vester := claimableOf(t, s, holder, tr.safe.Hex())
	before, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	fee, err := wallet.ClaimFee(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	safeBefore := nativeBalance(t, s, tr.safe.Hex())
	file := tr.path("claim.json")
	r := tr.run(t, pass0, "claim", id, "--account", tr.safe.Hex(), "--owner", owner0, "--proposal", file, "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("propose: exit %d\n%s", r.code, r.stderr)
	}
	// The review says who pays in the Safe's case: the Safe the fee, the
	// executor the gas; the tokens go to the holder, not to the Safe.
	for _, want := range []string{"the Safe pays", "ether; whoever executes it pays the gas", "not to the Safe"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the Safe's claim review does not say %q:\n%s", want, r.stderr)
		}
	}
	var shown proposalJSON
	decodeJSON(t, r, &shown)
	if shown.Act != "claim" || shown.Operation != "call" || len(shown.Calls) != 1 || shown.Calls[0].To != vester.Hex() {
		t.Fatalf("proposed %+v", shown)
	}
	if r = tr.run(t, pass2, "safe", "sign", file, "--owner", owner2, "--yes"); r.code != 0 {
		t.Fatalf("sign: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "2 of 2") || !strings.Contains(r.stdout, "ready") {
		t.Errorf("signed:\n%s", r.stdout)
	}
	r = tr.run(t, pass3, "safe", "exec", file, "--account", executor, "--send", "--wait", "--yes", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("exec: exit %d, %+v\n%s", r.code, sent, r.stderr)
	}
	after, err := wallet.ReadStanding(ctx, s.Chain, vester, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Withdrawn.Cmp(before.Withdrawn) <= 0 {
		t.Errorf("withdrawn %s -> %s: the claim did not happen", before.Withdrawn, after.Withdrawn)
	}
	if paid := new(big.Int).Sub(safeBefore, nativeBalance(t, s, tr.safe.Hex())); paid.Cmp(fee) != 0 {
		t.Errorf("the Safe paid %s wei, the fee is %s", paid, fee)
	}
}

// TestSafeHostileClaimIsRefused: a service that rewrites the claim it
// builds for the Safe cannot make an owner sign it: a transfer of the
// Safe's tokens, or a withdraw to another contract, is refused by the
// key's policy held over the Safe's call, nothing is signed and no
// proposal is written; with --read-only nothing is even asked.
func TestSafeHostileClaimIsRefused(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	s := tr.h.Session
	owner0, pass0 := tr.wallet(0)
	holder := s.Fixtures.Wallets[1].Address
	id, _ := claimableOf(t, s, holder, tr.safe.Hex())
	attacker := common.HexToAddress("0x00000000000000000000000000000000a77ac4e2")
	for _, tc := range []struct {
		name    string
		rewrite func(map[string]any)
		want    string
	}{
		{"a transfer of the Safe's tokens", func(r map[string]any) {
			instruction(r)["data"] = tokenABI("transfer", attacker, big.NewInt(1e18))
		}, "the Safe's call 1 is a transfer of 1.00 tokens"},
		{"a withdraw to another contract", func(r map[string]any) {
			instruction(r)["to"] = attacker.Hex()
		}, "the Safe's call 1 goes to " + attacker.Hex() + ", not to the vester"},
	} {
		tr.h.Rewrite("/claim", tc.rewrite)
		file := tr.path(strings.ReplaceAll(tc.name, " ", "-") + ".json")
		r := tr.run(t, pass0, "claim", id, "--account", tr.safe.Hex(), "--owner", owner0, "--proposal", file, "--yes")
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "nothing was signed") {
			t.Errorf("%s: exit %d, want a refusal saying %q:\n%s", tc.name, r.code, tc.want, r.stderr)
		}
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Errorf("%s: a proposal was written (%v)", tc.name, err)
		}
	}
	// Last: --read-only stays on the session. A read-only profile signs
	// no proposal either.
	tr.h.Rewrite("/claim", func(map[string]any) {})
	r := tr.run(t, pass0, "--read-only", "claim", id, "--account", tr.safe.Hex(), "--owner", owner0, "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "--read-only") {
		t.Errorf("read-only: exit %d\n%s", r.code, r.stderr)
	}
}
