package app

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/core/session/sessiontest"
	"allot/wallet/safe/safetest"
	"allot/wallet/safe/txbuilder"
)

// command types a : command and runs it.
func (f *flow) command(line string) *flow {
	return f.runes(":").wait("tab completes").typ(line).key(tea.KeyEnter)
}

// deployedTreasury deploys a 2-of-3 Safe of demo wallets 0, 1 and 2 (the
// real Safe 1.4.1 on the sandbox's chain) that the profile does not list.
func deployedTreasury(t *testing.T) (*sessiontest.Hostile, *safetest.Deployer, *safetest.Safes, common.Address) {
	t.Helper()
	h, d, safes, treasury := treasuryOf(t)
	h.Session.Profile.Safes = nil
	return h, d, safes, treasury
}

// TestSafeAddedAndRemovedByCommandInDashboard: with the accounts page
// open, :safe add of the Safe reads it from the chain, asks, lists it in
// the profile's file, and the accounts page shows it without being
// opened again; :safe add of a contract that is no Safe says the CLI's
// reason and writes nothing; :safe remove asks and takes it out.
func TestSafeAddedAndRemovedByCommandInDashboard(t *testing.T) {
	t.Parallel()
	h, _, safes, treasury := deployedTreasury(t)
	path := h.PinIn(t, h.Session.Profile.Pins)
	listed := func() []common.Address {
		t.Helper()
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Profiles["hostile"].SafeAddresses()
	}

	f := newFlowOn(t, h.Session)
	f.runes("u").wait("enter: type the passphrase")
	f.command("safe add " + treasury.Hex()).wait("List the Safe in the profile?").wait("2 of its 3 owners sign")
	f.runes("y").wait("Listed the Safe " + treasury.Hex())
	if got := listed(); len(got) != 1 || got[0] != treasury {
		t.Fatalf("the profile's file lists %v, want the Safe", got)
	}
	f.key(tea.KeyEsc).wait("2 of 3 owners sign")

	f.command("safe add " + safes.MultiSendAddr.Hex()).wait("safe add: no Safe allot works with")
	if got := listed(); len(got) != 1 {
		t.Fatalf("the profile's file lists %v after a refusal", got)
	}
	f.key(tea.KeyEsc)
	f.command("safe remove " + treasury.Hex()).wait("Take the Safe out of the profile?")
	f.runes("y").wait("Took the Safe " + treasury.Hex())
	f.quit()
	if got := listed(); len(got) != 0 {
		t.Fatalf("the profile's file lists %v after the removal", got)
	}
}

// TestSafeAddRefusedOnSandboxInDashboard: the embedded sandbox has no
// file to list Safes in, and :safe add says so as `allot safe add` does.
func TestSafeAddRefusedOnSandboxInDashboard(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	f := newFlowOn(t, h.Session)
	f.command("safe add 0x000000000000000000000000000000000000dEaD").wait("the embedded sandbox's profile is its own")
	f.quit()
}

// TestSafeProposalExportedFromDashboard: e on a proposal's page writes
// its Transaction Builder file beside it, the bytes `allot safe export`
// writes (session.TxBuilderFile), and shows its path and checksum; a
// second export to the same path asks before replacing it.
func TestSafeProposalExportedFromDashboard(t *testing.T) {
	t.Parallel()
	h, d, safes, treasury := treasuryOf(t)
	s := h.Session
	prop := proposeStake(t, s, d, treasury, safes.MultiSendAddr)
	want := filepath.Join(s.ProposalsFolder(), prop.Hashes.SafeTx.Hex()+".tx-builder.json")

	f := newFlowOn(t, s)
	f.command("proposals").wait("1 of 2 signatures").key(tea.KeyEnter).wait(prop.Hashes.SafeTx.Hex())
	f.runes("e").wait("Export for Safe{Wallet}").wait(".tx-builder.json")
	f.key(tea.KeyEnter).wait("Checksum")
	raw, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := txbuilder.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	f.wait(b.Checksum)
	same, sum, err := session.TxBuilderFile(prop, b.CreatedAt)
	if err != nil || sum != b.Checksum || !bytes.Equal(same, raw) {
		t.Errorf("the export is not the CLI's: checksum %s, the CLI's %s (%v)", b.Checksum, sum, err)
	}
	f.key(tea.KeyEnter).wait("Replace the file?").runes("n").wait("not written")
	f.quit()
}

// TestSafeTxBuilderImportedInDashboard: :safe import of a Transaction
// Builder file of the Safe's stake shows its checksum checked, the three
// hashes and the policy's review; s saves it, unsigned, and :proposals
// lists it. A file changed since it was made is refused for its
// checksum, one whose call is outside the policy for that (journaled as
// the policy's refusal), and the same
// batch through a MultiSendCallOnly with no code by the signing policy.
func TestSafeTxBuilderImportedInDashboard(t *testing.T) {
	t.Parallel()
	h, d, safes, treasury := treasuryOf(t)
	s := h.Session
	prop := proposeStake(t, s, d, treasury, safes.MultiSendAddr)
	// Imported on a machine that has not the owner's proposal.
	if err := os.Remove(filepath.Join(s.ProposalsFolder(), prop.Hashes.SafeTx.Hex()+".json")); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "batch.json")
	sum, err := session.WriteTxBuilder(prop, good, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(dir, "tampered.json")
	// The approve's amount, one base unit more.
	if !bytes.Contains(raw, []byte("56bc75e2d63100000")) {
		t.Fatal("the stake's amount is not 100 tokens in the file")
	}
	writeFile(t, tampered, bytes.Replace(raw, []byte("56bc75e2d63100000"), []byte("56bc75e2d63100001"), 1))
	outside := filepath.Join(dir, "outside.json")
	var buf bytes.Buffer
	err = txbuilder.Write(&buf, txbuilder.Batch{ChainID: s.Profile.ChainID, Safe: treasury, CreatedAt: time.Now(), Name: "pay",
		Transactions: []txbuilder.Transaction{{To: common.HexToAddress("0x000000000000000000000000000000000000dEaD"), Value: big.NewInt(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, outside, buf.Bytes())

	f := newFlowOn(t, s)
	f.command("safe import " + tampered + " " + treasury.Hex()).wait("✗ Refused").wait("checksum")
	f.key(tea.KeyEsc)
	f.command("safe import " + outside + " " + treasury.Hex()).wait("✗ Refused: safe import:")
	f.key(tea.KeyEsc)
	// Through the canonical MultiSendCallOnly, which has no code on the
	// sandbox's chain: the policy refuses the delegatecall, and says why.
	f.command("safe import " + good + " " + treasury.Hex()).wait(sum)
	mark := f.mark
	f.readToEnd().waitFrom(mark, "REFUSED by the signing policy; nothing can be saved")
	f.key(tea.KeyEsc)
	f.command("safe import " + good + " " + treasury.Hex() + " " + safes.MultiSendAddr.Hex()).wait(sum).
		wait(prop.Hashes.Domain.Hex()).wait(prop.Hashes.SafeTx.Hex())
	mark = f.mark
	f.readToEnd().waitFrom(mark, "Checked by the signing policy")
	f.runes("s").wait("Save it as a proposal of the Safe?").runes("y").wait("Saved as a proposal")
	f.key(tea.KeyEsc).command("proposals").wait("0 of 2 signatures")
	f.quit()
	got, err := s.ReadProposal(context.Background(), prop.Hashes.SafeTx.Hex()+".json")
	if err != nil || got.Proposal == nil || len(got.Proposal.Signatures) != 0 {
		t.Fatalf("the imported proposal: %+v, %v", got, err)
	}
	// The call outside every act allot knows is the policy's refusal,
	// journaled as one.
	if refusals := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindRefusal, "safe batch"); len(refusals) != 1 {
		t.Errorf("%d refusals of the file outside the policy journaled, want 1", len(refusals))
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
