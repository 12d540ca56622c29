package wallet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"allot/wallet/merkle"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// proofJSON writes p as the service's merkle-proof result.
func proofJSON(p *Proof) map[string]any {
	nodes := make([]string, len(p.Siblings))
	for i, s := range p.Siblings {
		nodes[i] = s.Hex()
	}
	return map[string]any{
		"id":             p.ID,
		"decodableArgs":  hexutil.Encode(p.DecodableArgs),
		"hash":           p.Hash.Hex(),
		"walletAddress":  p.WalletAddress.Hex(),
		"proof":          nodes,
		"input":          nil,
		"merkleTreeId":   "1d4e9a3c-0000-4000-8000-000000000001",
		"distributionId": "1d4e9a3c-0000-4000-8000-000000000002",
		"rootIndex":      p.RootIndex,
		"createdAt":      "2040-01-01T00:00:00.000Z",
		"updatedAt":      "2040-01-01T00:00:00.000Z",
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeProofForms(t *testing.T) {
	alice := newKeySigner(t, "alice")
	want := &Proof{ID: "p1", DecodableArgs: []byte{1, 2, 3}, Siblings: []common.Hash{{1}, {2}}, RootIndex: 7}
	h := common.Hash{9}
	w := alice.Address()
	want.Hash, want.WalletAddress = &h, &w
	obj := proofJSON(want)
	bare := mustJSON(t, obj)

	noPrefix := proofJSON(want)
	noPrefix["decodableArgs"] = "010203"
	noPrefix["rootIndex"] = "7"
	noPrefix["proof"] = []string{strings.TrimPrefix(common.Hash{1}.Hex(), "0x"), common.Hash{2}.Hex()}

	nullHash := proofJSON(want)
	nullHash["hash"] = nil
	noHash := proofJSON(want)
	delete(noHash, "hash")
	delete(noHash, "walletAddress")

	for _, tc := range []struct {
		name     string
		data     []byte
		hash     bool
		wallet   bool
		source   []byte
		wantDist string
	}{
		{"bare result", bare, true, true, bare, "1d4e9a3c-0000-4000-8000-000000000002"},
		{"envelope", mustJSON(t, map[string]any{"isProcessed": true, "result": json.RawMessage(bare)}), true, true, bare, ""},
		{"verify output", mustJSON(t, map[string]any{"proof": json.RawMessage(bare), "leafOk": true}), true, true, bare, ""},
		{"pretty printed", func() []byte {
			var b bytes.Buffer
			json.Indent(&b, bare, "", "  ")
			return append([]byte("\n  "), b.Bytes()...)
		}(), true, true, nil, ""},
		{"no 0x, string rootIndex", mustJSON(t, noPrefix), true, true, nil, ""},
		{"null hash", mustJSON(t, nullHash), false, true, nil, ""},
		{"no hash, no wallet", mustJSON(t, noHash), false, false, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := DecodeProof(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if p.ID != "p1" || !bytes.Equal(p.DecodableArgs, want.DecodableArgs) || p.RootIndex != 7 || !reflect.DeepEqual(p.Siblings, want.Siblings) {
				t.Errorf("decoded %+v", p)
			}
			if (p.Hash != nil) != tc.hash || (p.Hash != nil && *p.Hash != h) {
				t.Errorf("hash = %v, want present %v", p.Hash, tc.hash)
			}
			if (p.WalletAddress != nil) != tc.wallet || (p.WalletAddress != nil && *p.WalletAddress != w) {
				t.Errorf("wallet = %v, want present %v", p.WalletAddress, tc.wallet)
			}
			if tc.source != nil && !bytes.Equal(p.Source, tc.source) {
				t.Errorf("source = %s, want %s", p.Source, tc.source)
			}
			if tc.wantDist != "" && p.DistributionID != tc.wantDist {
				t.Errorf("distribution = %q", p.DistributionID)
			}
		})
	}
}

func TestDecodeProofRefuses(t *testing.T) {
	base := func() map[string]any {
		h := common.Hash{9}
		w := common.Address{1}
		return proofJSON(&Proof{ID: "p1", DecodableArgs: []byte{1}, Hash: &h, WalletAddress: &w, Siblings: []common.Hash{{1}}})
	}
	with := func(key string, v any) []byte {
		o := base()
		if v == nil {
			delete(o, key)
		} else {
			o[key] = v
		}
		return mustJSON(t, o)
	}
	tooLong := make([]string, 65)
	for i := range tooLong {
		tooLong[i] = common.Hash{}.Hex()
	}
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"not JSON", "want a JSON object", []byte("<html>")},
		{"array", "want a JSON object", []byte(`[1,2]`)},
		{"no proof object", "no object with decodableArgs", []byte(`{"result": {"items": []}}`)},
		{"empty decodableArgs", "decodableArgs: missing", with("decodableArgs", "")},
		{"odd hex", "decodableArgs: not hexadecimal", with("decodableArgs", "0x123")},
		{"hash too short", "hash: 31 bytes", with("hash", "0x"+strings.Repeat("ab", 31))},
		{"bad wallet", "walletAddress: not an address", with("walletAddress", "alice")},
		{"no proof", "proof: missing", with("proof", nil)},
		{"proof not a list", "proof: not a list", with("proof", "0x01")},
		{"bad node", "proof: node 0: 2 bytes", with("proof", []string{"0xabcd"})},
		{"proof too long", "65 nodes, more than 64", with("proof", tooLong)},
		{"negative root", "rootIndex: not a root index", with("rootIndex", -1)},
		{"huge root", "rootIndex: not a root index", with("rootIndex", 1<<40)},
		{"no root", "rootIndex: missing", with("rootIndex", nil)},
		{"too large", "more than", bytes.Repeat([]byte(" "), MaxProofJSON+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeProof(tc.data)
			if !errors.Is(err, ErrProofFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrProofFormat saying %q", err, tc.want)
			}
		})
	}
}

func TestVerifyProof(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	at := testStart.Add(time.Hour)
	// forge rewrites decodableArgs and states the matching hash: only the
	// root can tell.
	forge := func(p *Proof) {
		p.DecodableArgs = reencode(t, p.DecodableArgs, func(a *vesting.Args) {
			a.Allocation.TotalAllocation = new(big.Int).Mul(a.Allocation.TotalAllocation, big.NewInt(10))
		})
		leaf := merkle.Leaf(p.DecodableArgs)
		p.Hash = &leaf
	}
	candidates := []common.Address{f.pool, f.token, f.vester}
	for _, tc := range []struct {
		name                 string
		tamper               func(p *Proof)
		opts                 func(o *VerifyOptions)
		leaf, root, schedule CheckState
		outcome              CheckState
		reason               string // in Failures or Unchecked
	}{
		{name: "valid, vester found", leaf: Pass, root: Pass, schedule: Pass, outcome: Pass},
		{name: "valid, vester given", opts: func(o *VerifyOptions) { o.Vester, o.Candidates = f.vester, nil },
			leaf: Pass, root: Pass, schedule: Pass, outcome: Pass},
		{name: "valid without stated hash", tamper: func(p *Proof) { p.Hash = nil }, leaf: Pass, root: Pass, schedule: Pass, outcome: Pass},
		{name: "no chain", opts: func(o *VerifyOptions) { o.Chain = nil },
			leaf: Pass, root: NotChecked, schedule: Pass, outcome: NotChecked, reason: "set rpc_url"},
		{name: "contracts unknown", opts: func(o *VerifyOptions) { o.Unchecked = errors.New("list the contracts: connection refused") },
			leaf: Pass, root: NotChecked, schedule: Pass, outcome: NotChecked, reason: "connection refused"},
		{name: "no candidate holds the root", opts: func(o *VerifyOptions) { o.Candidates = candidates[:2] },
			leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "no vester of this token holds this root"},
		{name: "forged leaf with its hash", tamper: forge,
			leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "no vester of this token holds this root"},
		{name: "forged leaf, vester given", tamper: forge, opts: func(o *VerifyOptions) { o.Vester = f.vester },
			leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "the proof leads to root"},
		{name: "tampered stated hash", tamper: func(p *Proof) { p.Hash = &common.Hash{1} },
			leaf: Fail, root: Pass, schedule: Pass, outcome: Fail, reason: "is not the stated hash"},
		{name: "tampered sibling", tamper: func(p *Proof) {
			p.Siblings = append([]common.Hash(nil), p.Siblings...)
			p.Siblings[1][31] ^= 1
		}, leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "no vester of this token holds this root"},
		{name: "wrong root index, vester given", tamper: func(p *Proof) { p.RootIndex = 1 }, opts: func(o *VerifyOptions) { o.Vester = f.vester },
			leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "has no root 1"},
		{name: "vester given is not a vester", opts: func(o *VerifyOptions) { o.Vester = common.Address{0x42} },
			leaf: Pass, root: Fail, schedule: Pass, outcome: Fail, reason: "is not a vester"},
		{name: "vester given unreadable", opts: func(o *VerifyOptions) { o.Chain, o.Vester = failingCaller{}, f.vester },
			leaf: Pass, root: NotChecked, schedule: Pass, outcome: NotChecked, reason: "connection refused"},
		{name: "candidates unreadable", opts: func(o *VerifyOptions) { o.Chain = failingCaller{} },
			leaf: Pass, root: NotChecked, schedule: Pass, outcome: NotChecked, reason: "could not be read"},
		{name: "wallet not the beneficiary", tamper: func(p *Proof) { p.WalletAddress = &common.Address{7} },
			leaf: Fail, root: Pass, schedule: Pass, outcome: Fail, reason: "the leaf's beneficiary is"},
		{name: "schedule over 100%, no chain", tamper: func(p *Proof) { p.DecodableArgs = overfull(t, p.DecodableArgs); p.Hash = nil },
			opts: func(o *VerifyOptions) { o.Chain = nil }, leaf: Pass, root: NotChecked, schedule: Fail, outcome: Fail, reason: "schedule: "},
		{name: "leaf does not decode", tamper: func(p *Proof) { p.DecodableArgs = []byte("junk"); p.Hash = nil },
			leaf: Fail, root: Fail, schedule: NotChecked, outcome: Fail, reason: "do not decode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := f.proof(t, aliceLeaf)
			if tc.tamper != nil {
				tc.tamper(p)
			}
			opts := VerifyOptions{Now: at, Chain: f.node, Candidates: candidates}
			if tc.opts != nil {
				tc.opts(&opts)
			}
			v := VerifyProof(ctx, p, opts)
			got := []CheckState{v.LeafCheck.State, v.RootCheck.State, v.ScheduleCheck.State, v.Outcome()}
			if want := []CheckState{tc.leaf, tc.root, tc.schedule, tc.outcome}; !slices.Equal(got, want) {
				t.Errorf("leaf, root, schedule, outcome = %v, want %v (failures %q, unchecked %q)", got, want, v.Failures(), v.Unchecked())
			}
			if v.OK() != (tc.outcome == Pass) {
				t.Errorf("OK = %v with outcome %v", v.OK(), tc.outcome)
			}
			said := strings.Join(append(v.Failures(), v.Unchecked()...), "\n")
			if !strings.Contains(said, tc.reason) {
				t.Errorf("failures and unchecked %q do not say %q", said, tc.reason)
			}
			for _, n := range v.Checks() {
				if (n.State == Pass) != (n.Reason == "") {
					t.Errorf("%s is %v with reason %q: a pass has no reason, the others one", n.Name, n.State, n.Reason)
				}
			}
			if (v.Vester == f.vester) != (tc.root == Pass) {
				t.Errorf("vester %s with root %v", v.Vester.Hex(), tc.root)
			}
		})
	}
}

// overfull re-encodes args with its first unlock one millionth larger: the
// percents then add up to 100.0001%.
func overfull(t *testing.T, args []byte) []byte {
	return reencode(t, args, func(a *vesting.Args) {
		a.Schedule.UnlockPercents = slices.Clone(a.Schedule.UnlockPercents)
		a.Schedule.UnlockPercents[0] = new(big.Int).Add(a.Schedule.UnlockPercents[0], big.NewInt(1))
	})
}

// reencode decodes args, changes them and encodes them again.
func reencode(t *testing.T, args []byte, change func(a *vesting.Args)) []byte {
	t.Helper()
	a, err := vesting.Decode(args)
	if err != nil {
		t.Fatal(err)
	}
	change(&a)
	out, err := vesting.Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVerifyProofWithdrawn: once the vester is known, what it paid out of
// the allocation is read, and a claim could take the rest of what is
// unlocked; nothing is read from a contract that is not the vester.
func TestVerifyProofWithdrawn(t *testing.T) {
	f := newFixture(t)
	p := f.proof(t, aliceLeaf)
	tx := sendCalls(t, f, f.alice, f.buildOptions(f.alice), f.withdrawCall(t, aliceLeaf, f.alice.Address(), ether(10)))
	if st := waitFinal(t, f, tx[0]); st.State != StateSuccess {
		t.Fatalf("withdraw: %+v", st)
	}
	v := VerifyProof(context.Background(), p, VerifyOptions{Now: testStart.Add(time.Hour), Chain: f.node, Candidates: []common.Address{f.vester}})
	if v.StateCheck.State != Pass || v.Standing.Withdrawn.Cmp(ether(10)) != 0 {
		t.Fatalf("state %v, standing %+v; want 10 ether withdrawn", v.StateCheck, v.Standing)
	}
	if c := v.Claimable(); c == nil || c.Cmp(ether(240)) != 0 {
		t.Errorf("claimable %v, want 240 ether (250 unlocked, 10 withdrawn)", c)
	}
	v = VerifyProof(context.Background(), p, VerifyOptions{Chain: f.node, Candidates: []common.Address{f.pool}})
	if v.Standing != nil || v.Claimable() != nil || v.StateCheck.State != NotChecked {
		t.Errorf("standing %+v, claimable %v, state %v without a vester", v.Standing, v.Claimable(), v.StateCheck)
	}
}

func TestVerifyProofDecodesLeaf(t *testing.T) {
	f := newFixture(t)
	p := f.proof(t, aliceLeaf)
	v := VerifyProof(context.Background(), p, VerifyOptions{Now: testStart.Add(time.Hour)})
	if v.Args == nil || v.ArgsErr != nil {
		t.Fatalf("args %v, %v", v.Args, v.ArgsErr)
	}
	if v.Args.Allocation.OriginalBeneficiary != f.alice.Address() || v.ScheduleErr != nil {
		t.Errorf("allocation %+v, schedule error %v", v.Args.Allocation, v.ScheduleErr)
	}
	if v.UnlockedPPM != 250_000 || v.Unlocked.Cmp(ether(250)) != 0 || len(v.Timeline) != 2 {
		t.Errorf("unlocked %d ppm = %s, timeline %v", v.UnlockedPPM, v.Unlocked, v.Timeline)
	}

	p.DecodableArgs = []byte("not an abi encoding")
	v = VerifyProof(context.Background(), p, VerifyOptions{})
	if v.Args != nil || v.ArgsErr == nil || v.OK() {
		t.Errorf("malformed args: Args %v, ArgsErr %v, OK %v", v.Args, v.ArgsErr, v.OK())
	}
}

func TestVerificationJSON(t *testing.T) {
	f := newFixture(t)
	p := f.proof(t, aliceLeaf)
	p.Source = mustJSON(t, proofJSON(p))
	v := VerifyProof(context.Background(), p, VerifyOptions{Now: testStart.Add(time.Hour), Chain: f.node, Candidates: []common.Address{f.pool, f.vester}})
	out := mustJSON(t, v)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(got))
	wantKeys := []string{"allocation", "cancelledAt", "checks", "claimable", "claimableBaseUnits", "computedRoot", "directClaim", "leafOk", "onChainOk", "onChainRoot",
		"outcome", "postClaimHandlers", "proof", "recipient", "revoked", "schedule", "state", "transferred", "underfunded", "unlocked", "vested", "vester", "vesterBalance", "withdrawn"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys %v, want %v", keys, wantKeys)
	}
	root := f.tree.Root().Hex()
	check := map[string]any{
		"leafOk":       true,
		"computedRoot": root,
		"onChainRoot":  root,
		"onChainOk":    true,
		"outcome":      "PASS",
		"checks": map[string]any{"leaf": map[string]any{"state": "PASS"}, "onChainRoot": map[string]any{"state": "PASS"},
			"schedule": map[string]any{"state": "PASS"}, "onChainState": map[string]any{"state": "PASS"}},
		"vester":             f.vester.Hex(),
		"withdrawn":          "0",
		"state":              "active",
		"recipient":          f.alice.Address().Hex(), // EIP-55, as the beneficiary beside it
		"cancelledAt":        nil,
		"revoked":            false,
		"transferred":        false,
		"underfunded":        false,
		"vested":             "250",
		"vesterBalance":      "10000",
		"claimable":          "250",
		"claimableBaseUnits": ether(250).String(),
		"directClaim":        true,
		"postClaimHandlers":  []any{},
		"unlocked":           map[string]any{"fraction": "0.25", "amount": "250"},
	}
	for k, want := range check {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	alloc := got["allocation"].(map[string]any)
	if alloc["beneficiary"] != f.alice.Address().Hex() || alloc["total"] != "1000" || alloc["revokable"] != true || alloc["id"] != "7f3c2a10-0000-4000-8000-00000000a11c" {
		t.Errorf("allocation %v", alloc)
	}
	sched := got["schedule"].(map[string]any)
	unlocks := sched["unlocks"].([]any)
	if sched["kind"] != "calendar" || sched["valid"] != true || len(unlocks) != 2 ||
		!reflect.DeepEqual(unlocks[0], map[string]any{"at": "2040-01-01T00:00:00.000Z", "fraction": "0.25"}) {
		t.Errorf("schedule %v", sched)
	}
	timeline := sched["timeline"].([]any)
	if !reflect.DeepEqual(timeline[1], map[string]any{"at": "2040-12-31T00:00:00.000Z", "fraction": "1", "amount": "1000"}) {
		t.Errorf("timeline %v", timeline)
	}
	if !reflect.DeepEqual(got["proof"], mustUnmarshal(t, p.Source)) {
		t.Errorf("proof %v is not the source", got["proof"])
	}

	// Not checked on chain: nulls, not false, and the reason.
	v = VerifyProof(context.Background(), p, VerifyOptions{Now: testStart})
	got = nil
	if err := json.Unmarshal(mustJSON(t, v), &got); err != nil {
		t.Fatal(err)
	}
	if got["onChainRoot"] != nil || got["onChainOk"] != nil || got["vester"] != nil || got["outcome"] != "NOT CHECKED" {
		t.Errorf("unchecked: onChainRoot %v, onChainOk %v, vester %v, outcome %v; want null and NOT CHECKED",
			got["onChainRoot"], got["onChainOk"], got["vester"], got["outcome"])
	}
	root0 := got["checks"].(map[string]any)["onChainRoot"].(map[string]any)
	if root0["state"] != "NOT CHECKED" || !strings.Contains(root0["reason"].(string), "rpc_url") {
		t.Errorf("root check %v", root0)
	}
}

func mustUnmarshal(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
