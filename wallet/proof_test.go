package wallet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

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
	for _, tc := range []struct {
		name     string
		tamper   func(p *Proof)
		opts     func(o *VerifyOptions)
		leafOK   bool
		onChain  *bool // nil: not checked
		ok       bool
		failWord string
	}{
		{name: "valid", leafOK: true, onChain: ptr(true), ok: true},
		{name: "valid without chain", opts: func(o *VerifyOptions) { o.Chain = nil }, leafOK: true, ok: true},
		{name: "valid without vester", opts: func(o *VerifyOptions) { o.Vester = common.Address{} }, leafOK: true, ok: true},
		{name: "valid without stated hash", tamper: func(p *Proof) { p.Hash = nil }, leafOK: true, onChain: ptr(true), ok: true},
		{name: "tampered leaf", tamper: func(p *Proof) {
			p.DecodableArgs = bytes.Clone(p.DecodableArgs)
			p.DecodableArgs[len(p.DecodableArgs)-1] ^= 1
		}, leafOK: false, onChain: ptr(false), failWord: "is not the stated hash"},
		{name: "tampered stated hash", tamper: func(p *Proof) { p.Hash = &common.Hash{1} }, leafOK: false, onChain: ptr(true), failWord: "is not the stated hash"},
		{name: "tampered sibling", tamper: func(p *Proof) {
			p.Siblings = append([]common.Hash(nil), p.Siblings...)
			p.Siblings[1][31] ^= 1
		}, leafOK: true, onChain: ptr(false), failWord: "leads to root"},
		{name: "wrong root index", tamper: func(p *Proof) { p.RootIndex = 1 }, leafOK: true, onChain: ptr(false), failWord: "has no root number 1"},
		{name: "wallet not the beneficiary", tamper: func(p *Proof) { p.WalletAddress = &common.Address{7} }, leafOK: true, onChain: ptr(true), failWord: "the leaf's beneficiary is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := f.proof(t, aliceLeaf)
			if tc.tamper != nil {
				tc.tamper(p)
			}
			opts := VerifyOptions{Now: at, Chain: f.node, Vester: f.vester}
			if tc.opts != nil {
				tc.opts(&opts)
			}
			v := VerifyProof(ctx, p, opts)
			if v.ChainErr != nil {
				t.Fatal(v.ChainErr)
			}
			if v.LeafOK != tc.leafOK {
				t.Errorf("LeafOK = %v, want %v", v.LeafOK, tc.leafOK)
			}
			switch {
			case tc.onChain == nil && (v.OnChainOK != nil || v.OnChainRoot != nil):
				t.Errorf("on-chain check ran: %v", *v.OnChainOK)
			case tc.onChain != nil && (v.OnChainOK == nil || *v.OnChainOK != *tc.onChain):
				t.Errorf("OnChainOK = %v, want %v", v.OnChainOK, *tc.onChain)
			}
			if v.OK() != tc.ok {
				t.Errorf("OK = %v, want %v (failures %q)", v.OK(), tc.ok, v.Failures())
			}
			if tc.failWord != "" && !strings.Contains(strings.Join(v.Failures(), "\n"), tc.failWord) {
				t.Errorf("failures %q do not say %q", v.Failures(), tc.failWord)
			}
		})
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

func TestVerifyProofChainError(t *testing.T) {
	f := newFixture(t)
	p := f.proof(t, aliceLeaf)
	v := VerifyProof(context.Background(), p, VerifyOptions{Chain: f.node, Vester: common.Address{0x42}})
	if !errors.Is(v.ChainErr, ErrNoContract) || v.OnChainOK != nil {
		t.Errorf("ChainErr %v, OnChainOK %v; want ErrNoContract and no result", v.ChainErr, v.OnChainOK)
	}
	if !v.OK() {
		t.Errorf("an unreadable chain is not a failed check: %q", v.Failures())
	}
}

func TestVerificationJSON(t *testing.T) {
	f := newFixture(t)
	p := f.proof(t, aliceLeaf)
	p.Source = mustJSON(t, proofJSON(p))
	v := VerifyProof(context.Background(), p, VerifyOptions{Now: testStart.Add(time.Hour), Chain: f.node, Vester: f.vester})
	out := mustJSON(t, v)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(got))
	wantKeys := []string{"allocation", "computedRoot", "leafOk", "onChainOk", "onChainRoot", "proof", "schedule", "unlocked"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys %v, want %v", keys, wantKeys)
	}
	root := f.tree.Root().Hex()
	check := map[string]any{
		"leafOk":       true,
		"computedRoot": root,
		"onChainRoot":  root,
		"onChainOk":    true,
		"unlocked":     map[string]any{"fraction": "0.25", "amount": "250"},
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

	// Not checked on chain: nulls, not false.
	v = VerifyProof(context.Background(), p, VerifyOptions{Now: testStart})
	if err := json.Unmarshal(mustJSON(t, v), &got); err != nil {
		t.Fatal(err)
	}
	if got["onChainRoot"] != nil || got["onChainOk"] != nil {
		t.Errorf("unchecked: onChainRoot %v, onChainOk %v; want null", got["onChainRoot"], got["onChainOk"])
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

func ptr[T any](v T) *T { return &v }
