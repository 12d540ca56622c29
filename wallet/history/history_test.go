package history

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api/sandbox/chain"
	"allot/wallet/vesting"
)

// claimed is what a test knows of a claim it sent.
type claimed struct {
	receipt *types.Receipt
	sender  common.Address
	amount  *big.Int
}

// wantClaims checks the events against the claims sent, in order: each
// field from the chain's own receipts and blocks.
func wantClaims(t *testing.T, f *fixture, got []Event, want []claimed, allocation string, recipient common.Address) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		e := got[i]
		header, err := f.node.HeaderByHash(context.Background(), w.receipt.BlockHash)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Kind != Claim:
			t.Errorf("event %d is a %s, want a claim", i, e.Kind)
		case e.Tx != w.receipt.TxHash || e.Block != w.receipt.BlockNumber.Uint64():
			t.Errorf("event %d: transaction %s in block %d, want %s in %d", i, e.Tx.Hex(), e.Block, w.receipt.TxHash.Hex(), w.receipt.BlockNumber)
		case !e.Time.Equal(time.Unix(int64(header.Time), 0)) || e.Time.Location() != time.UTC:
			t.Errorf("event %d: time %s, want the block's %d in UTC", i, e.Time, header.Time)
		case e.Amount.Cmp(w.amount) != 0:
			t.Errorf("event %d: amount %s, want %s", i, e.Amount, w.amount)
		case e.Fee.Cmp(claimFee) != 0:
			t.Errorf("event %d: fee %s, want the claim fee %s", i, e.Fee, claimFee)
		case e.Gas.Cmp(gasCost(w.receipt)) != 0 || e.Gas.Sign() == 0:
			t.Errorf("event %d: gas %s wei, want the receipt's %s", i, e.Gas, gasCost(w.receipt))
		case e.Sender != w.sender:
			t.Errorf("event %d: sender %s, want %s", i, e.Sender.Hex(), w.sender.Hex())
		case e.Recipient != recipient || e.Handler:
			t.Errorf("event %d: recipient %s (handler %v), want %s directly", i, e.Recipient.Hex(), e.Handler, recipient.Hex())
		case allocation != "" && e.Allocation != allocation:
			t.Errorf("event %d: allocation %q, want %q", i, e.Allocation, allocation)
		case e.Vester != f.vester || e.Token != f.token || e.Symbol != "AT":
			t.Errorf("event %d: vester %s token %s %q", i, e.Vester.Hex(), e.Token.Hex(), e.Symbol)
		}
	}
}

// gasCost is what a receipt says its transaction's gas cost.
func gasCost(r *types.Receipt) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
}

// TestAllocationClaims: the claims of one allocation, whoever sent them,
// and none of another allocation paid to the same wallet.
func TestAllocationClaims(t *testing.T) {
	f := newFixture(t)
	alice, bob, stranger := addr(f.alice), addr(f.bob), addr(f.stranger)
	first := f.claim(t, f.alice, aliceFirst, ether(100))
	f.claim(t, f.alice, aliceSecond, ether(50)) // alice's other allocation
	f.claim(t, f.bob, bobs, ether(10))
	f.emptyBlocks(3)
	// Anyone may send a withdraw: the tokens still go to alice.
	second := f.claim(t, f.stranger, aliceFirst, big.NewInt(0))
	_ = bob

	h, err := New(f.node, Options{}).Allocation(context.Background(), f.vester, f.allocs[aliceFirst].Allocation)
	if err != nil {
		t.Fatal(err)
	}
	wantClaims(t, f, h.Events, []claimed{
		{first, alice, ether(100)},
		{second, stranger, ether(400)}, // withdraw(0) takes the rest of the half unlocked
	}, f.allocs[aliceFirst].Allocation.ID, alice)
	if len(h.Warnings) != 0 || h.Skipped != 0 {
		t.Errorf("warnings %v", h.Warnings)
	}
}

// TestWalletClaims: every claim that reached a wallet, each named by the
// allocation its withdraw carries; a contract that is no vester among the
// candidates is passed over.
func TestWalletClaims(t *testing.T) {
	f := newFixture(t)
	alice := addr(f.alice)
	r1 := f.claim(t, f.alice, aliceFirst, ether(1))
	f.claim(t, f.bob, bobs, ether(2))
	r2 := f.claim(t, f.bob, aliceSecond, ether(3))
	r3 := f.claim(t, f.alice, aliceFirst, ether(4))

	h, err := New(f.node, Options{}).Wallet(context.Background(), alice, []common.Address{f.token, f.vester})
	if err != nil {
		t.Fatal(err)
	}
	wantClaims(t, f, h.Events, []claimed{
		{r1, alice, ether(1)}, {r2, addr(f.bob), ether(3)}, {r3, alice, ether(4)},
	}, "", alice)
	ids := []string{f.allocs[aliceFirst].Allocation.ID, f.allocs[aliceSecond].Allocation.ID, f.allocs[aliceFirst].Allocation.ID}
	for i, e := range h.Events {
		if e.Allocation != ids[i] {
			t.Errorf("claim %d names allocation %q, want %q", i, e.Allocation, ids[i])
		}
	}

	if _, err := New(f.node, Options{}).Wallet(context.Background(), alice, []common.Address{f.token}); !errors.Is(err, ErrNotVester) {
		t.Errorf("no vester among the candidates: %v", err)
	}
}

// TestProgressAndRange: a scan reports each range it has read, ends at
// the head it read first, and FromBlock/ToBlock bound it.
func TestProgressAndRange(t *testing.T) {
	f := newFixture(t)
	early := f.claim(t, f.alice, aliceFirst, ether(1))
	f.emptyBlocks(20)
	late := f.claim(t, f.alice, aliceFirst, ether(2))
	var reports []Progress
	h, err := New(f.node, Options{Span: 5, Progress: func(p Progress) { reports = append(reports, p) }}).
		Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Events) != 2 {
		t.Fatalf("%d events, want 2", len(h.Events))
	}
	last := reports[len(reports)-1]
	if h.FromBlock == 0 || h.FromBlock > early.BlockNumber.Uint64() {
		t.Errorf("scanned from block %d: want the vester's first, before the claim's %d", h.FromBlock, early.BlockNumber)
	}
	if last.Scanned != last.Blocks || last.Blocks != h.ToBlock-h.FromBlock+1 || last.Found != 2 || last.Checked != 2 {
		t.Errorf("last report %+v, want every block scanned and both claims checked (%d to %d)", last, h.FromBlock, h.ToBlock)
	}
	if len(reports) < int((h.ToBlock-h.FromBlock)/5) {
		t.Errorf("%d reports for %d blocks in ranges of 5", len(reports), h.ToBlock-h.FromBlock+1)
	}

	between, err := New(f.node, Options{FromBlock: early.BlockNumber.Uint64() + 1, ToBlock: late.BlockNumber.Uint64()}).
		Wallet(context.Background(), addr(f.alice), []common.Address{f.vester})
	if err != nil {
		t.Fatal(err)
	}
	if len(between.Events) != 1 || between.Events[0].Tx != late.TxHash {
		t.Errorf("from the block after the first claim: %+v, want the second claim alone", between.Events)
	}
}

// TestCancelled: a scan whose context ends stops with the context's
// error, between two ranges.
func TestCancelled(t *testing.T) {
	f := newFixture(t)
	f.claim(t, f.alice, aliceFirst, ether(1))
	f.emptyBlocks(20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reports := 0
	_, err := New(f.node, Options{Span: 2, Progress: func(Progress) {
		if reports++; reports == 3 {
			cancel()
		}
	}}).Wallet(ctx, addr(f.alice), []common.Address{f.vester})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	if reports != 3 {
		t.Errorf("%d ranges reported, want the scan to stop after the third", reports)
	}
}

// TestDecodeWithdraw reads both overloads, and refuses what the vester
// might read otherwise.
func TestDecodeWithdraw(t *testing.T) {
	f := newFixture(t)
	direct := f.withdrawData(t, aliceFirst, ether(1))
	w, err := decodeWithdraw(direct)
	if err != nil || w.allocation != f.allocs[aliceFirst].Allocation.ID || w.handler != (common.Address{}) {
		t.Fatalf("direct withdraw: %+v, %v", w, err)
	}
	values, err := withdrawDirect.Inputs.Unpack(direct[4:])
	if err != nil {
		t.Fatal(err)
	}
	handler := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	packed, err := withdrawHandler.Inputs.Pack(append(values, handler, []byte("extra"))...)
	if err != nil {
		t.Fatal(err)
	}
	w, err = decodeWithdraw(append(append([]byte{}, withdrawHandler.ID...), packed...))
	if err != nil || w.allocation != f.allocs[aliceFirst].Allocation.ID || w.handler != handler {
		t.Fatalf("withdraw through a handler: %+v, %v", w, err)
	}
	for name, data := range map[string][]byte{
		"trailing bytes": append(append([]byte{}, direct...), 0),
		"another call":   append([]byte{0xa9, 0x05, 0x9c, 0xbb}, direct[4:]...),
		"short":          direct[:3],
		"truncated":      direct[:100],
	} {
		if _, err := decodeWithdraw(data); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func TestWarningsBounded(t *testing.T) {
	s := &scan{}
	for range maxWarnings + 10 {
		s.warnf("skipped \x1b[31m%d", 1)
	}
	if len(s.warnings) != maxWarnings || s.skipped != maxWarnings+10 {
		t.Errorf("%d warnings kept of %d", len(s.warnings), s.skipped)
	}
	if strings.ContainsRune(s.warnings[0], 0x1b) {
		t.Errorf("warning not sanitized: %q", s.warnings[0])
	}
}

// TestAllocationLife: a transfer of beneficiary, the claims after it
// (to the new address), a claim through a post-claim handler (to the
// handler), a cancel; and a revoke of another allocation, which is not
// this one's.
func TestAllocationLife(t *testing.T) {
	f := newFixture(t)
	alice, carol := addr(f.alice), common.HexToAddress("0x00000000000000000000000000000000000ca201")
	first := f.claim(t, f.alice, aliceFirst, ether(100))
	f.benefactor(t, func(b *chain.Batch) { b.TransferBeneficiary(f.vester, f.leaf(t, aliceFirst), carol) })
	toCarol := f.claim(t, f.stranger, aliceFirst, ether(50))
	l := f.leaf(t, aliceFirst)
	through, err := chain.PackWithdrawThrough(ether(30), l.RootIndex, l.DecodableArgs, l.Proof, f.vault, []byte("stake"))
	if err != nil {
		t.Fatal(err)
	}
	viaVault := f.mined(t, f.send(t, f.alice, f.vester, claimFee, through), aliceFirst)
	f.benefactor(t, func(b *chain.Batch) { b.Cancel(f.vester, f.leaf(t, aliceFirst)) })
	f.benefactor(t, func(b *chain.Batch) { b.Revoke(f.vester, f.leaf(t, bobs)) })

	h, err := New(f.node, Options{}).Allocation(context.Background(), f.vester, f.allocs[aliceFirst].Allocation)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Warnings) != 0 {
		t.Errorf("warnings: %v", h.Warnings)
	}
	var kinds []string
	for _, e := range h.Events {
		kinds = append(kinds, string(e.Kind))
	}
	if got := strings.Join(kinds, " "); got != "claim transfer claim claim cancel" {
		t.Fatalf("events %s, want claim transfer claim claim cancel", got)
	}
	id := f.allocs[aliceFirst].Allocation.ID
	wantClaims(t, f, h.Events[:1], []claimed{{first, alice, ether(100)}}, id, alice)
	wantClaims(t, f, h.Events[2:3], []claimed{{toCarol, addr(f.stranger), ether(50)}}, id, carol)
	if e := h.Events[1]; e.NewBeneficiary != carol || e.Sender != f.chain.Deployer() || e.Allocation != id {
		t.Errorf("transfer %+v, want to %s by the benefactor", e, carol.Hex())
	}
	if e := h.Events[3]; e.Tx != viaVault.TxHash || !e.Handler || e.Recipient != f.vault || e.Amount.Cmp(ether(30)) != 0 {
		t.Errorf("claim through the vault: %+v", e)
	}
	if e := h.Events[4]; e.Sender != f.chain.Deployer() || e.Allocation != id || e.Time.IsZero() {
		t.Errorf("cancel %+v", e)
	}

	bob, err := New(f.node, Options{}).Allocation(context.Background(), f.vester, f.allocs[bobs].Allocation)
	if err != nil {
		t.Fatal(err)
	}
	if len(bob.Events) != 1 || bob.Events[0].Kind != Revoke {
		t.Errorf("bob's allocation: %+v, want its revoke alone", bob.Events)
	}
}

// TestSandboxVesterSignatures: the sandbox's vester has every function and
// event the history reads, as the production vester writes them (no
// argument indexed).
func TestSandboxVesterSignatures(t *testing.T) {
	have := map[string]bool{}
	for _, m := range chain.Vester.ABI.Methods {
		have[m.Sig] = true
	}
	for _, e := range chain.Vester.ABI.Events {
		have[e.Sig] = true
		for _, in := range e.Inputs {
			if in.Indexed {
				have[e.Sig] = false
			}
		}
	}
	for _, sig := range Signatures() {
		if !have[sig] {
			t.Errorf("the sandbox's vester has no %s as the history reads it", sig)
		}
	}
}

// FuzzDecode: the withdraw input and the vester's events, from the
// network, decode or fail, never panic.
func FuzzDecode(f *testing.F) {
	args, err := vesting.Encode(halfUnlocked("0d9a7c3e-1b2f-4c5d-8e6f-00000000a001", common.Address{1}, big.NewInt(1)))
	if err != nil {
		f.Fatal(err)
	}
	direct, err := chain.PackWithdraw(big.NewInt(1), 0, args, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(direct)
	f.Add(direct[:40])
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeWithdraw(data)
		if len(data) >= 4 {
			decodeWithdraw(append(append([]byte{}, withdrawHandler.ID...), data[4:]...))
		}
		s := &scan{}
		for _, topic := range []common.Hash{topicCanceled, topicRevoked, topicTransferred} {
			s.vesterEvent(types.Log{Topics: []common.Hash{topic}, Data: data}, common.Address{})
		}
	})
}
