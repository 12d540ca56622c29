package cli

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/core/session"
	"allot/wallet"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
	"allot/wallet/safe/txbuilder"
	"allot/wallet/vesting"
)

// transferableOf is an allocation of holder whose leaf lets its holder
// transfer it (the sandbox's airdrop), other than skip.
func transferableOf(t *testing.T, s *session.Session, holder common.Address, skip string) string {
	t.Helper()
	for _, id := range s.Fixtures.AllocationIDs {
		res, err := s.API.MerkleProof(context.Background(), id)
		if err != nil || id == skip || !strings.EqualFold(res.WalletAddress, holder.Hex()) {
			continue
		}
		proof, err := wallet.ProofFromAPI(res)
		if err != nil {
			continue
		}
		if args, err := vesting.Decode(proof.DecodableArgs); err == nil && args.Allocation.TransferableByBeneficiary {
			return id
		}
	}
	t.Fatalf("no allocation of %s is transferableByBeneficiary in the sandbox", holder.Hex())
	return ""
}

// TestTransferByKeyThenBySafe: wallet 0 transfers its airdrop allocation
// to the treasury's Safe with its key (allot transfer --account KEY); the
// Safe then transfers it on to wallet 2, proposed by owner 0, signed by
// owner 1, executed by a fourth key; the vester's withdrawal address is
// read back from the chain after each. On the way the policy refuses,
// with nothing signed and no proposal written, a transfer to the zero
// address and a transfer of an allocation the Safe does not hold.
func TestTransferByKeyThenBySafe(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	s := tr.h.Session
	ctx := context.Background()
	owner0, pass0 := tr.wallet(0)
	owner1, pass1 := tr.wallet(1)
	owner2, _ := tr.wallet(2)
	executor, pass3 := tr.wallet(3)
	id := transferableOf(t, s, common.HexToAddress(owner0), "")
	notHeld := transferableOf(t, s, common.HexToAddress(executor), "")

	r := tr.run(t, pass0, "transfer", id, "--to", tr.safe.Hex(), "--account", owner0, "--send", "--wait", "--yes", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("the key's transfer: exit %d %+v\n%s", r.code, sent, r.stderr)
	}
	if want := "the allocation's future tokens will go to " + tr.safe.Hex() + ", a Safe (2 of its 3 owners sign for it), no longer to you, " + common.HexToAddress(owner0).Hex(); !strings.Contains(r.stderr, want) {
		t.Errorf("the key's review does not say %q:\n%s", want, r.stderr)
	}

	safeTransfer := func(alloc, to, file string) result {
		return tr.run(t, pass0, "transfer", alloc, "--to", to, "--account", tr.safe.Hex(), "--owner", owner0, "--proposal", file, "--yes", "-o", "json")
	}
	for name, tc := range map[string]struct{ alloc, to, want string }{
		"to zero":  {id, common.Address{}.Hex(), "the new withdrawal address is zero"},
		"not held": {notHeld, owner2, "only its current withdrawal address may transfer it"},
	} {
		file := tr.path(strings.ReplaceAll(name, " ", "-") + ".json")
		r := safeTransfer(tc.alloc, tc.to, file)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "nothing was signed") {
			t.Errorf("a transfer %s: exit %d, want a refusal saying %q:\n%s", name, r.code, tc.want, r.stderr)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("a transfer %s: a proposal was written", name)
		}
	}

	file := tr.path("transfer.json")
	r = safeTransfer(id, owner2, file)
	if r.code != 0 {
		t.Fatalf("propose: exit %d\n%s", r.code, r.stderr)
	}
	var shown proposalJSON
	decodeJSON(t, r, &shown)
	if shown.Act != "transfer" || shown.Subject != id || shown.NewAddress != common.HexToAddress(owner2).Hex() || shown.Operation != "call" || len(shown.Calls) != 1 {
		t.Fatalf("proposed %+v", shown)
	}
	if want := "the allocation's future tokens will go to " + common.HexToAddress(owner2).Hex() + ", a wallet, no longer to this Safe " + tr.safe.Hex(); !strings.Contains(r.stderr, want) {
		t.Errorf("the Safe's review does not say %q:\n%s", want, r.stderr)
	}
	if r = tr.run(t, pass1, "safe", "sign", file, "--owner", owner1, "--yes"); r.code != 0 {
		t.Fatalf("sign: exit %d\n%s", r.code, r.stderr)
	}
	r = tr.run(t, pass3, "safe", "exec", file, "--account", executor, "--send", "--wait", "--yes", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("exec: exit %d, %+v\n%s", r.code, sent, r.stderr)
	}
	st, err := wallet.ReadStanding(ctx, s.Chain, common.HexToAddress(shown.Calls[0].To), id)
	if err != nil {
		t.Fatal(err)
	}
	if st.WithdrawalAddress != common.HexToAddress(owner2) {
		t.Errorf("the vester's withdrawal address is %s, want %s", st.WithdrawalAddress.Hex(), owner2)
	}
}

// TestSafeBatchClaimsAndStake: owner 0 proposes one Safe transaction of
// two claims (of wallets 1's and 2's allocations: anyone may send them)
// and a stake of the Safe's tokens; the review lists every call and the
// totals. Its Transaction Builder export is imported by owner 2 as the
// same Safe transaction; the same file with its approve rewritten to
// another spender (its checksum made anew) is refused by the stake's
// policy. Owner 1 signs, a fourth key executes: both allocations have
// nothing claimable left and the service lists the Safe's stake.
func TestSafeBatchClaimsAndStake(t *testing.T) {
	t.Parallel()
	tr := newTreasury(t)
	s := tr.h.Session
	ctx := context.Background()
	owner0, pass0 := tr.wallet(0)
	owner1, pass1 := tr.wallet(1)
	owner2, pass2 := tr.wallet(2)
	executor, pass3 := tr.wallet(3)
	first, _ := claimableOf(t, s, s.Fixtures.Wallets[1].Address, tr.safe.Hex())
	second, _ := claimableOf(t, s, s.Fixtures.Wallets[2].Address, tr.safe.Hex())
	file := tr.path("batch.json")
	r := tr.run(t, pass0, "safe", "batch", "--account", tr.safe.Hex(), "--owner", owner0, "--claim", first, "--claim", second,
		"--stake", tr.pool.ID+"="+tr.amount, "--proposal", file, "--multisend", tr.safes.MultiSendAddr.Hex(), "--yes", "-o", "json")
	if r.code != 0 {
		t.Fatalf("propose: exit %d\n%s", r.code, r.stderr)
	}
	var shown proposalJSON
	decodeJSON(t, r, &shown)
	if shown.Act != "batch" || shown.Operation != "delegatecall" || len(shown.Calls) != 4 {
		t.Fatalf("proposed %+v", shown)
	}
	for _, want := range []string{"3 acts in one Safe transaction; 2 claim(s)", "1 stake(s) of " + tr.amount, "act 1", "act 3", "canonical MultiSendCallOnly 1.4.1", "safeTxHash"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the review lacks %q:\n%s", want, r.stderr)
		}
	}

	r = tr.run(t, nil, "safe", "export", file, "-o", "tx-builder")
	if r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.stderr)
	}
	builder := tr.path("builder.json")
	if err := os.WriteFile(builder, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	r = tr.run(t, pass2, "safe", "import", builder, "--safe", tr.safe.Hex(), "--owner", owner2, "--proposal", tr.path("imported.json"),
		"--multisend", tr.safes.MultiSendAddr.Hex(), "--yes", "-o", "json")
	var imported proposalJSON
	if decodeJSON(t, r, &imported); r.code != 0 || imported.SafeTxHash != shown.SafeTxHash || imported.Act != "batch" {
		t.Fatalf("import: exit %d %+v, want the batch %s\n%s", r.code, imported, shown.SafeTxHash, r.stderr)
	}
	tr.refusesRewrittenApprove(t, builder, owner2, pass2)
	tr.refusesRemadeProposal(t, file, owner1, pass1)

	if r = tr.run(t, pass1, "safe", "sign", file, "--owner", owner1, "--yes"); r.code != 0 {
		t.Fatalf("sign: exit %d\n%s", r.code, r.stderr)
	}
	r = tr.run(t, pass3, "safe", "exec", file, "--account", executor, "--send", "--wait", "--yes", "-o", "json")
	if sent := decodeSent(t, r); r.code != 0 || len(sent) != 1 || sent[0].Status != "success" {
		t.Fatalf("exec: exit %d, %+v\n%s", r.code, sent, r.stderr)
	}
	for _, id := range []string{first, second} {
		v, err := s.CheckAllocation(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if c := v.Claimable(); c == nil || c.Sign() != 0 {
			t.Errorf("allocation %s: %v claimable after the batch, want 0", id, c)
		}
	}
	r = tr.run(t, nil, "stakes", "--pool", tr.pool.ID, "--wallet", tr.safe.Hex(), "-o", "json")
	if r.code != 0 || !strings.Contains(strings.ToLower(r.stdout), strings.ToLower(tr.safe.Hex())) {
		t.Errorf("the service lists no stake of the Safe: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// refusesRewrittenApprove writes the Transaction Builder file at builder
// again with its approve's spender made another address, a checksum
// made for it, and sees the import refuse it by the stake's policy with
// nothing signed.
func (tr *treasury) refusesRewrittenApprove(t *testing.T, builder, owner string, pass map[string]string) {
	t.Helper()
	f, err := os.Open(builder)
	if err != nil {
		t.Fatal(err)
	}
	b, err := txbuilder.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	approve := b.Transactions[2].Data
	if len(approve) != 4+64 {
		t.Fatalf("the batch's third call is no approve: %x", approve)
	}
	amount := new(big.Int).SetBytes(approve[36:])
	stranger := common.HexToAddress("0x00000000000000000000000000000000DeaDBeef")
	b.Transactions[2].Data = hexutil.MustDecode(tokenABI("approve", stranger, amount))
	out, err := os.Create(tr.path("rewritten.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := txbuilder.Write(out, b); err != nil {
		t.Fatal(err)
	}
	out.Close()
	r := tr.run(t, pass, "safe", "import", tr.path("rewritten.json"), "--safe", tr.safe.Hex(), "--owner", owner,
		"--multisend", tr.safes.MultiSendAddr.Hex(), "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "act 3") || !strings.Contains(r.stderr, "nothing was signed") {
		t.Errorf("a batch whose approve was rewritten: exit %d\n%s", r.code, r.stderr)
	}
}

// refusesRemadeProposal makes the batch proposal at file anew, as a
// hostile teammate could, with its approve's spender another address: a
// proposal that holds together (its transaction and hashes the new
// calls'), unsigned. Another owner's review refuses it by the stake's
// policy, and signs nothing.
func (tr *treasury) refusesRemadeProposal(t *testing.T, file, owner string, pass map[string]string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proposal.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	calls := slices.Clone(p.Calls)
	amount := new(big.Int).SetBytes(calls[2].Data[36:])
	calls[2].Data = hexutil.MustDecode(tokenABI("approve", common.HexToAddress("0x00000000000000000000000000000000DeaDBeef"), amount))
	info := safe.Info{Address: p.Safe, Version: p.SafeVersion, Owners: p.Owners, Threshold: p.Threshold, Nonce: p.Tx.Nonce}
	remade, err := proposal.New(p.ChainID, info, p.Act, calls, p.MultiSend)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := proposal.Write(&buf, remade); err != nil {
		t.Fatal(err)
	}
	path := tr.path("remade.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := tr.run(t, pass, "safe", "sign", path, "--owner", owner, "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "act 3") || !strings.Contains(r.stderr, "approves 0x00000000000000000000000000000000DeaDBeef") || !strings.Contains(r.stderr, "nothing was signed") {
		t.Errorf("a batch proposal remade with another approve: exit %d\n%s", r.code, r.stderr)
	}
}
