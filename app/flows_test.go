package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/journal/journaltest"
	"allot/core/session"
	"allot/internal/amount"
	"allot/views/widget"
)

// flow drives the dashboard through a stakeholder's flow, on a sandbox
// with the real clock (sign-in messages carry real times).
type flow struct {
	t  *testing.T
	s  *session.Session
	m  *Model // read only what the program does not change
	tm *teatest.TestModel
	// seen is everything drawn so far, to read values off the screen;
	// mark is where the output of the last key starts.
	seen bytes.Buffer
	mark int
}

func newFlow(t *testing.T) *flow {
	t.Helper()
	s, _ := journaled(t)
	return newFlowOn(t, s)
}

// journaled starts a sandbox session and opens the journal it writes, to
// write entries of an earlier run into.
func journaled(t *testing.T) (*session.Session, *journal.Journal) {
	t.Helper()
	dir := t.TempDir()
	s, err := embedded.Sandbox(sandbox.Options{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, j
}

// newFlowOn drives the dashboard on s.
func newFlowOn(t *testing.T, s *session.Session) *flow {
	t.Helper()
	m := New(s, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, m: m, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting")
	return f
}

func (f *flow) typ(s string) *flow      { f.mark = f.seen.Len(); f.tm.Type(s); return f }
func (f *flow) key(k tea.KeyType) *flow { return f.send(tea.KeyMsg{Type: k}) }
func (f *flow) runes(s string) *flow    { return f.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }

func (f *flow) send(msg tea.Msg) *flow {
	f.mark = f.seen.Len()
	f.tm.Send(msg)
	return f
}

// wait blocks until text is drawn after the last key.
func (f *flow) wait(text string) *flow {
	f.t.Helper()
	return f.waitFrom(f.mark, text)
}

// waitFrom blocks until text is drawn after mark, a length of seen.
func (f *flow) waitFrom(mark int, text string) *flow {
	f.t.Helper()
	f.mark = mark
	if bytes.Contains(f.seen.Bytes()[f.mark:], []byte(text)) {
		return f
	}
	start := f.seen.Len()
	teatest.WaitFor(f.t, f.tm.Output(), func(b []byte) bool {
		// b is all this wait has read: keep it once.
		f.seen.Truncate(start)
		f.seen.Write(b)
		return bytes.Contains(f.seen.Bytes()[f.mark:], []byte(text))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	return f
}

// readToEnd scrolls the review the last key drew down a line at a time,
// each line drawn before the next key, until its last line is on screen:
// all of it is then in seen, however the frames fell.
func (f *flow) readToEnd() *flow {
	f.t.Helper()
	status := regexp.MustCompile(`lines (\d+)–(\d+) of (\d+)`)
	from := f.mark // what the last key drew: the review, not a screen before it
	for {
		all := status.FindAllSubmatch(f.seen.Bytes()[from:], -1)
		if len(all) == 0 {
			return f // it fits whole
		}
		last := all[len(all)-1]
		top, _ := strconv.Atoi(string(last[1]))
		if string(last[2]) == string(last[3]) {
			return f
		}
		f.key(tea.KeyDown).wait(fmt.Sprintf("lines %d–", top+1))
	}
}

// quit ends the program and returns the dashboard's final state.
func (f *flow) quit() *Model {
	f.t.Helper()
	return final(f.t, f.tm)
}

// settle returns once the dashboard has handled every key sent and
// nothing it started still runs.
func (f *flow) settle() *flow {
	f.t.Helper()
	settle(f.t, f.tm)
	return f
}

// unlock unlocks demo account 0, once the listing is read: a key pressed
// while it loads is dropped.
func (f *flow) unlock() *flow {
	return f.runes("u").wait("enter: type the passphrase").key(tea.KeyEnter).wait("Passphrase").
		typ("allot-demo-0").key(tea.KeyEnter).wait("unlocked 0x")
}

// applied counts the writes the sandbox applied whose operation contains op.
func applied(s *session.Session, op string) int {
	n := 0
	for _, e := range s.Applied() {
		if strings.Contains(e.Operation, op) {
			n++
		}
	}
	return n
}

var txHash = regexp.MustCompile(`claim (0x[0-9a-f]{64}): success, mined in block \d+`)

// TestClaimFlow: unlock, look up, claim; the request on screen is the one
// sent, the decoded call on screen is the one signed, and the transaction
// is followed until it is mined.
func TestClaimFlow(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	id := f.s.Fixtures.AllocationIDs[0]
	addr := f.s.Fixtures.Wallets[0].Address
	f.unlock()
	f.runes("3").runes("/").typ(id).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("Sign and send this transaction?")
	start := f.mark
	f.readToEnd().waitFrom(start, "no warnings")
	screen := f.seen.String()
	f.runes("y").wait("success, mined in block")
	screen += f.seen.String()[f.mark:]
	// The claimable figure above the result is the one claimed against.
	f.wait("Claimable before this claim: 5,145.7595 MRD")
	// Back on the allocation, the amounts are read again once the claim is
	// mined: what it withdrew is no longer claimable.
	f.key(tea.KeyEsc).wait("Claimable now  0.00 ")
	f.quit()

	entries := journaltest.Entries(t, f.s.StateDir)
	requests := journaltest.Of(entries, journal.KindRequest, "allocations/claim")
	if len(requests) != 1 || applied(f.s, "/claim") != 1 {
		t.Fatalf("claim requests: journal %d, sandbox %d; want 1 and 1", len(requests), applied(f.s, "/claim"))
	}
	var body map[string]any
	if err := json.Unmarshal(requests[0].Data, &body); err != nil {
		t.Fatal(err)
	}
	if body["sender"] != addr || len(body) != 1 {
		t.Errorf("sent %s, want only sender %s", requests[0].Data, addr)
	}
	if !strings.Contains(screen, `"sender": "`+addr+`"`) {
		t.Error("the claim request was not shown before it was sent")
	}
	for _, want := range []string{"withdraw(uint256,uint32,bytes,bytes32[])", "allocation        " + id + " of " + addr, "no warnings"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review did not show %q", want)
		}
	}
	checkSigned(t, screen, entries, "claim")
	sigs := journaltest.Of(entries, journal.KindSignature, "claim")
	match := txHash.FindStringSubmatch(screen)
	if len(sigs) != 1 || match == nil || sigs[0].Ref != match[1] {
		t.Fatalf("signed %d transactions; screen shows %v", len(sigs), match)
	}
	var signed struct {
		Summary struct {
			Signature string `json:"signature"`
		} `json:"summary"`
	}
	json.Unmarshal(sigs[0].Data, &signed)
	if !strings.Contains(screen, signed.Summary.Signature) || signed.Summary.Signature == "" {
		t.Errorf("signed %q, not what the review showed", signed.Summary.Signature)
	}
}

// TestClaimFormErrors: each validation error is shown under its field, and
// leaving sends nothing.
func TestClaimFormErrors(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.unlock()
	f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation")
	f.typ("0").wait("must be greater than 0")
	f.key(tea.KeyBackspace).typ("12x").wait(`"12x" is not a decimal amount`)
	f.key(tea.KeyTab).typ("X1").wait(`"X1" is not an ISO 3166-1 alpha-2 code`)
	f.key(tea.KeyEnter).settle()
	f.key(tea.KeyEsc).wait("Allocation:")
	f.quit()
	if n := len(journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindRequest, "")); n != 0 || applied(f.s, "") != 0 {
		t.Errorf("%d requests journaled, %d applied; want none", n, applied(f.s, ""))
	}
}

// TestClaimForAnother: with another account unlocked, the screen says
// before the service is asked who pays and who is paid; the service
// builds the claim for that sender (anyone may send it, D19) and the
// review says it again, with the fee, up to the signing question.
func TestClaimForAnother(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("u").wait("enter: type the passphrase").key(tea.KeyDown).key(tea.KeyEnter).wait("Passphrase").
		typ("allot-demo-1").key(tea.KeyEnter).wait("unlocked " + f.s.Fixtures.Wallets[1].Address)
	f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	holder := f.s.Fixtures.Wallets[0].Address
	f.runes("C").wait("you pay the claim fee and the gas; the tokens go to " + holder + ", not to you")
	f.key(tea.KeyEnter).wait("Send this claim request").runes("y").wait("Sign and send")
	f.wait("ether and gas; ").wait(holder + ", a wallet, not")
	f.runes("n").wait("not signed: nothing was sent")
	f.quit()
	entries := journaltest.Entries(t, f.s.StateDir)
	if n := len(journaltest.Of(entries, journal.KindSignature, "")) + len(journaltest.Of(entries, journal.KindTransaction, "")); n != 0 {
		t.Errorf("%d signatures or transactions after a no", n)
	}
}

// TestClaimDeclined: no to the claim request sends nothing; no to the
// signature signs nothing.
func TestClaimDeclined(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.unlock()
	f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	// No closes the question, back to the form, and leaves nothing
	// running.
	f.runes("n").wait("esc cancels: nothing is sent").settle()
	if applied(f.s, "") != 0 {
		t.Fatal("a declined claim request was sent")
	}
	f.key(tea.KeyEnter).wait("Send this claim request").runes("y").wait("Sign and send")
	f.runes("n").wait("not signed: nothing was sent")
	f.quit()
	entries := journaltest.Entries(t, f.s.StateDir)
	if n := len(journaltest.Of(entries, journal.KindSignature, "")) + len(journaltest.Of(entries, journal.KindTransaction, "")); n != 0 {
		t.Errorf("%d signatures or transactions after a no", n)
	}
}

// TestUnlockRefusals: a wrong passphrase and a corrupt file say so.
func TestUnlockRefusals(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	dir := f.s.Profile.Keystore
	if err := os.WriteFile(filepath.Join(dir, "UTC--broken"), []byte(`{"address": 12`), 0o600); err != nil {
		t.Fatal(err)
	}
	f.runes("u").wait("UTC--broken")
	f.key(tea.KeyEnter).wait("Passphrase").typ("not-it").key(tea.KeyEnter).wait("wrong passphrase")
	m := f.quit()
	if _, _, ok := m.ctx.Wallet.Account(); ok {
		t.Error("unlocked with a wrong passphrase")
	}
}

// TestPortalSignIn: the whole message is shown before signing; no signs
// nothing; yes signs in, and the header counts down.
func TestPortalSignIn(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("6").wait("no account is unlocked")
	f.unlock()
	f.runes("s").wait("Expiration Time:")
	screen := f.seen.String()
	for _, want := range []string{"sandbox.invalid wants you to sign in with your Ethereum account:", f.s.Fixtures.Wallets[0].Address, "Chain ID: 31337", "Nonce: "} {
		if !strings.Contains(screen, want) {
			t.Errorf("the sign-in message did not show %q", want)
		}
	}
	f.runes("n").wait("nothing was signed")
	if applied(f.s, "signin") != 0 {
		t.Fatal("signed in after a no")
	}
	f.runes("s").wait("Sign this message").runes("y").wait("Signed in as").wait("portal 59:")
	f.wait("Primary wallet")
	f.runes("o").wait("signed out")
	m := f.quit()
	if _, _, ok := m.ctx.Wallet.Portal(time.Now()); ok {
		t.Error("still signed in after o")
	}
	if applied(f.s, "signin") != 1 || len(journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindSignature, "signin")) != 1 {
		t.Error("want exactly one sign-in, journaled")
	}
}

// TestHumanity: a bad address is refused in place; a good one is asked,
// and its answer replaces the error.
func TestHumanity(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("6").wait("Proof of humanity")
	f.runes("h").typ("0xnope").key(tea.KeyEnter).wait(`"0xnope" is not an address`)
	f.key(tea.KeyCtrlU).typ(f.s.Fixtures.Wallets[1].Address).key(tea.KeyEnter).wait("passed proof of humanity")
	if view := f.quit().View(); strings.Contains(view, "is not an address") {
		t.Errorf("the error of a bad address stays after a good answer:\n%s", view)
	}
}

// TestStakeFlow: below the pool's minimum is refused in place; a stake
// with a short allowance approves first; both are mined.
func TestStakeFlow(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.unlock()
	// Unlocked, not signed in: the form says so when it opens. (The
	// portal tab first: the unlock page's closing is then behind us.)
	f.runes("6").wait("Proof of humanity")
	f.runes("2").wait("Season").runes("S").wait("Not signed in to the portal as this account").key(tea.KeyEsc).wait("enter: stakes of the pool")
	f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in")
	f.typ("5").wait("the pool's minimum stake is")
	f.key(tea.KeyBackspace).typ("150").key(tea.KeyEnter).wait("Sign and send these 2 transactions")
	start := f.mark
	f.waitFrom(start, "lines ").readToEnd().waitFrom(start, "↑/pgup scrolls back")
	screen := f.seen.String()
	if strings.Contains(screen, " tokens\n") || strings.Contains(screen, "150.00 tokens") {
		t.Errorf("an amount of the review is in tokens, not MRD:\n%s", screen)
	}
	for _, want := range []string{"approve(address,uint256)", "= 150.00 MRD", "may move 0.00 MRD of yours", "an approve of exactly 150.00 MRD comes first"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the review did not show %q", want)
		}
	}
	f.runes("y").wait("stake 0x")
	f.wait("success, mined")
	f.quit()
	ops := map[string]int{}
	for _, e := range journaltest.Of(journaltest.Entries(t, f.s.StateDir), journal.KindSignature, "") {
		ops[e.Op]++
	}
	if ops["approve"] != 1 || ops["stake"] != 1 {
		t.Errorf("signed %v, want one approve and one stake", ops)
	}
	entries := journaltest.Entries(t, f.s.StateDir)
	checkSigned(t, screen, entries, "approve")
	checkSigned(t, screen, entries, "stake")
}

// checkSigned checks that every transaction signed for op, as the journal
// recorded it, was on screen before it was signed: its target, sender,
// function and every argument, its warnings, and the chain, nonce, gas and
// fee it was signed with.
func checkSigned(t *testing.T, screen string, entries []journal.Entry, op string) {
	t.Helper()
	plain := ansi.Strip(screen)
	sigs := journaltest.Of(entries, journal.KindSignature, op)
	if len(sigs) == 0 {
		t.Fatalf("nothing signed for %s", op)
	}
	for _, e := range sigs {
		var signed struct {
			ChainID      uint64 `json:"chainId"`
			Nonce        uint64 `json:"nonce"`
			Gas          uint64 `json:"gas"`
			MaxFeePerGas string `json:"maxFeePerGas"`
			Summary      struct {
				From, To, ToLabel, Signature, Unit string
				Args                               []struct{ Name, Value, Units string }
				Warnings                           []struct{ Message string }
			} `json:"summary"`
		}
		if err := json.Unmarshal(e.Data, &signed); err != nil || signed.Summary.Signature == "" {
			t.Fatalf("the journal's %s signature %s: %v", op, e.Data, err)
		}
		sum := signed.Summary
		lines := [][2]string{{"to", sum.To + " " + sum.ToLabel}, {"from", sum.From}, {"function", sum.Signature}}
		for _, a := range sum.Args {
			v := a.Value
			if a.Units != "" {
				v += " = " + amount.Tokens(a.Units) + " " + sum.Unit
			}
			lines = append(lines, [2]string{a.Name, v})
		}
		for _, w := range sum.Warnings {
			lines = append(lines, [2]string{"WARNING:", w.Message})
		}
		lines = append(lines, [2]string{"chain", fmt.Sprint(signed.ChainID)}, [2]string{"nonce", fmt.Sprint(signed.Nonce)},
			[2]string{"gas limit", fmt.Sprint(signed.Gas)}, [2]string{"max fee", signed.MaxFeePerGas + " wei per gas"})
		for _, l := range lines {
			shown := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(l[0]) + ` +` + regexp.QuoteMeta(l[1]))
			if !shown.MatchString(plain) {
				t.Errorf("%s: signed %s %q, which the review did not show", op, l[0], l[1])
			}
		}
	}
}

// requestBody is the one journaled request of op, compact.
func requestBody(t *testing.T, s *session.Session, op string) string {
	t.Helper()
	reqs := journaltest.Of(journaltest.Entries(t, s.StateDir), journal.KindRequest, op)
	if len(reqs) != 1 {
		t.Fatalf("%d %s requests journaled, want 1", len(reqs), op)
	}
	return string(reqs[0].Data)
}

// checkShown fails unless every line of body, indented as the reviews
// show it, was drawn on screen.
func checkShown(t *testing.T, screen, body string) {
	t.Helper()
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(body), "", "  "); err != nil {
		t.Fatal(err)
	}
	plain := ansi.Strip(screen)
	for _, line := range strings.Split(pretty.String(), "\n") {
		if !strings.Contains(plain, line) {
			t.Errorf("the review did not show the line %q of the body sent:\n%s", line, pretty.String())
			return
		}
	}
}

// TestOperatorFormInDashboard: from a contract, D opens the form; a bad
// id is shown in place; the reviewed body is the body sent; the created
// transaction is on the Transactions screen. Esc on a form sends
// nothing.
func TestOperatorFormInDashboard(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes("F").wait("Fund distribution").key(tea.KeyEsc).wait("Team & Advisors Vesting")
	f.runes("D").wait("Start distribution · Team & Advisors Vesting")
	f.typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`) // shown once left or reviewed
	f.key(tea.KeyCtrlU).typ(f.s.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS).wait("Send this START_DISTRIBUTION request")
	review := f.seen.String()[f.mark:]
	f.runes("y").wait("CREATED")
	f.runes("4").wait("START_DISTRIBUTION")
	f.quit()
	checkShown(t, review, requestBody(t, f.s, "transactions/create"))
	if applied(f.s, "transactions/create") != 1 {
		t.Error("want exactly one transaction created")
	}
}

// TestScheduleInDashboard: :schedule; an out-of-range portion is shown in
// place; the reviewed body is sent; the key is shown and listed.
func TestScheduleInDashboard(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
	f.key(tea.KeyEsc).wait("Team & Advisors Vesting")
	if applied(f.s, "") != 0 {
		t.Fatal("a cancelled schedule was sent")
	}
	f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
	f.typ("Cliff only").key(tea.KeyTab).typ("one year cliff").key(tea.KeyTab)
	for range 3 { // to the first piece's name
		f.key(tea.KeyTab)
	}
	f.typ("All at once").key(tea.KeyTab)
	f.key(tea.KeyCtrlU).typ("1.5").wait("1.5")
	f.key(tea.KeyTab).wait("must be") // shown once the field is left
	f.key(tea.KeyShiftTab).key(tea.KeyCtrlU).typ("1").key(tea.KeyTab).key(tea.KeyCtrlU).typ("12").wait("sum of portions 1 of 1")
	f.key(tea.KeyCtrlS).wait("Create schedule")
	start := f.mark
	for range 20 { // scroll through the whole body
		f.key(tea.KeyDown)
	}
	// Drawn by one of the scrolls: the renderer repaints changed lines
	// only, so the last scroll may not draw it again.
	f.waitFrom(start, `"dayOfMonth": 1`)
	review := f.seen.String()[start:]
	f.runes("y").wait("Schedule created")
	screen := f.seen.String()[f.mark:]
	f.quit()
	checkShown(t, review, requestBody(t, f.s, "schedules/create"))
	if !regexp.MustCompile(`S-[A-Z0-9]{8}`).MatchString(screen) {
		t.Errorf("no key on screen:\n%s", screen)
	}
}

// TestCreativeInDashboard: :creative picks a file from the working
// directory; a file of the wrong type is refused before any request; a
// PNG is uploaded and its public URL shown.
func TestCreativeInDashboard(t *testing.T) {
	dir := t.TempDir()
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
	if err := os.WriteFile(filepath.Join(dir, "a-notes.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b-logo.png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	f := newFlow(t)
	f.runes(":").typ("creative").key(tea.KeyEnter).wait("b-logo.png")
	f.key(tea.KeyEnter).wait("not allowed")
	if applied(f.s, "") != 0 {
		t.Fatal("a refused file was sent")
	}
	f.key(tea.KeyDown).key(tea.KeyEnter).wait("Name")
	f.key(tea.KeyCtrlS).wait("Upload b-logo.png to portal")
	f.runes("y").wait("Public URL")
	f.quit()
	if applied(f.s, "creatives") != 2 || applied(f.s, "_sandbox/uploads") != 1 {
		t.Errorf("applied %v", f.s.Applied())
	}
}

// TestHelpInForms: in a form, ? and q are typed, so the footer offers the
// keys that still work; f1 opens the help over the form and closes it,
// and what was typed stays.
func TestHelpInForms(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes(":").typ("schedule").key(tea.KeyEnter).wait("f1 help • ctrl+c quit")
	f.typ("Why? quarterly").wait("Why? quarterly")
	f.key(tea.KeyF1).wait("help, also in forms")
	f.key(tea.KeyF1).wait("Why? quarterly")
	m := f.quit()
	if m.mode == modeHelp {
		t.Error("f1 did not close the help")
	}
}

// TestPagesScrollAndHoldKeys: the help taller than the terminal scrolls
// to its end; the error details take the keys while shown, so a key meant
// for them does not act on the screen hidden below.
func TestPagesScrollAndHoldKeys(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.runes("?").wait("more: ↓/pgdn scrolls")
	f.key(tea.KeyPgDown).wait(":signout · :q")
	f.key(tea.KeyEsc)
	f.runes(":").typ("stakes no-such-pool").key(tea.KeyEnter).wait("stakes: ")
	f.runes("E").wait("Error details (E to close)")
	f.runes("1") // the Contracts tab, were the details not holding the keys
	f.runes("E")
	m := f.quit()
	if m.active != tabPools || m.mode == modeErr {
		t.Fatalf("tab %d, details shown %v: a key went past the error details", m.active, m.mode == modeErr)
	}
}

// TestReopenUnknownOutcome: a request whose answer never came, as a
// journal of an earlier run holds it, opens from the Transactions screen;
// the check cannot tell (the sandbox that received it is gone), and the
// resend sends the journaled bytes after a yes, which settles the first
// request as resent: it is no longer UNKNOWN.
func TestReopenUnknownOutcome(t *testing.T) {
	t.Parallel()
	s, j := journaled(t)
	body, _ := json.Marshal(&api.StartDistributionRequest{ContractID: s.Fixtures.ContractIDs[0], TokenID: s.TokenIDs[0], AllocationIDs: []string{s.Fixtures.AllocationIDs[0]}})
	for _, e := range []journal.Entry{
		{Kind: journal.KindRequest, Profile: s.Name, Op: "transactions/create", Ref: api.ActionStartDistribution, Write: "w1", Data: body},
		{Kind: journal.KindOutcome, Profile: s.Name, Op: "transactions/create", Ref: api.ActionStartDistribution, Write: "w1", Status: "unknown"},
		// A body that does not read back to the same bytes: not resent.
		{Kind: journal.KindRequest, Profile: s.Name, Op: "transactions/create", Ref: api.ActionFundDistribution, Write: "w2", Data: []byte(`{"action":"FUND_DISTRIBUTION","extra":1}`)},
		{Kind: journal.KindOutcome, Profile: s.Name, Op: "transactions/create", Ref: api.ActionFundDistribution, Write: "w2", Status: "unknown"},
		{Kind: journal.KindRequest, Profile: "production", Op: "transactions/create", Ref: api.ActionInitialize, Write: "w3", Data: []byte(`{"action":"INITIALIZE"}`)},
		{Kind: journal.KindOutcome, Profile: "production", Op: "transactions/create", Ref: api.ActionInitialize, Write: "w3", Status: "unknown"},
	} {
		if e.Profile == s.Name {
			// An earlier run of this deployment: the embedded sandbox's
			// next start is another world, whose journal lists none of it.
			e = s.Deployment().Stamp(e)
		}
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	f := newFlowOn(t, s)
	f.runes("4").wait("FUND_DISTRIBUTION")
	// Newest first; the other profile's request is not listed.
	f.key(tea.KeyEnter).wait("the journal does not hold this request's body")
	// The page checks the write as it opens.
	f.key(tea.KeyDown).key(tea.KeyEnter).wait("Outcome unknown: START_DISTRIBUTION").wait("sent before this run of allot")
	f.runes("r").wait("Send this request again? allot cannot tell")
	f.runes("y").wait("Created 1 transaction")
	f.key(tea.KeyEsc).wait("CREATED")
	f.waitFrom(0, "sent again")
	m := f.quit()
	if v := m.View(); strings.Contains(v, "INITIALIZE") {
		t.Error("a request of another profile is listed")
	}
	if applied(s, "transactions/create") != 1 {
		t.Fatalf("applied %d, want the one resend", applied(s, "transactions/create"))
	}
	entries := journaltest.Entries(t, s.StateDir)
	sent := journaltest.Of(entries, journal.KindRequest, "transactions/create")
	if len(sent) != 4 || string(sent[3].Data) != string(body) { // three journaled by hand, then the resend
		t.Fatalf("the resend is not the journaled body: %+v", sent)
	}
	for _, w := range journal.Writes(entries) {
		if w.Request.Write == "w1" && (!w.Settled() || w.Outcome.Status != act.StatusResent) {
			t.Errorf("the first request is not settled as resent: %+v", w.Outcome)
		}
	}
}

// TestKeysReadTogether: keys that arrive in one read (":tx" sent by a
// script, or typed faster than the program reads) act one by one; a paste
// stays text.
func TestKeysReadTogether(t *testing.T) {
	t.Parallel()
	m := New(shared.Session(t), Options{Clipboard: widget.Clipboard{Out: io.Discard}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":tx")})
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m.active != tabTransactions {
		t.Fatalf(`":tx" then enter in one read: tab %d`, m.active)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2:"), Paste: true})
	if m.active != tabTransactions || m.mode == modeCommand {
		t.Fatal("a paste acted as keys")
	}
}

// TestEveryFormCancelSendsNothing opens each form of the dashboard, types
// into it, gets an error in place, and leaves with esc: nothing reaches the
// service and the journal holds no request, signature or transaction (a
// sign-in, done first for the stake, is the one write allowed).
func TestEveryFormCancelSendsNothing(t *testing.T) {
	// In colour, as people run it: an error styled and then sanitized
	// would show its escape codes as text ("^[[1m").
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	for _, tt := range []struct {
		name string
		// fill opens the form, types an error into it and waits for it
		// in place.
		fill func(f *flow)
	}{
		{"initialize", func(f *flow) {
			f.runes("I").wait("Initialize").typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`) // the admin wallet has the focus
		}},
		{"start distribution", func(f *flow) {
			f.runes("D").wait("Start distribution").typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`)
		}},
		{"fund distribution", func(f *flow) {
			f.runes("F").wait("Fund distribution").typ("nope").key(tea.KeyCtrlS).wait(`"nope" is not a UUID`) // row 1's allocation has the focus
		}},
		{"schedule", func(f *flow) {
			f.runes(":").typ("schedule").key(tea.KeyEnter).wait("New unlock schedule")
			f.key(tea.KeyTab).key(tea.KeyTab).key(tea.KeyCtrlU).typ("1.5").key(tea.KeyTab).wait("must be")
		}},
		{"unlock", func(f *flow) {
			f.runes("u").wait("enter: type the passphrase").key(tea.KeyEnter).wait("Passphrase").typ("not-it").key(tea.KeyEnter).wait("wrong passphrase")
		}},
		{"claim", func(f *flow) {
			f.unlock()
			f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
			f.runes("C").wait("Claim allocation").typ("0").wait("must be greater than 0")
		}},
		{"creative", func(f *flow) {
			f.runes(":").typ("creative").key(tea.KeyEnter).wait("logo.png").key(tea.KeyEnter).wait("Name")
			f.key(tea.KeyTab).key(tea.KeyCtrlE).key(tea.KeyCtrlU).typ("Bad Slug").wait("lowercase letters, digits or '-'")
		}},
		{"stake", func(f *flow) {
			f.unlock()
			f.runes("6").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
			f.runes("2").wait("Season").runes("S").wait("Stake in").typ("5").wait("the pool's minimum stake is")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The creative's file picker opens in the working directory.
			dir := t.TempDir()
			png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
			if err := os.WriteFile(filepath.Join(dir, "logo.png"), png, 0o600); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			f := newFlow(t)
			tt.fill(f)
			if i := bytes.Index(f.seen.Bytes(), []byte("^[[")); i >= 0 {
				t.Errorf("a style's escape code is drawn as text: %q", f.seen.Bytes()[max(i-60, 0):min(i+30, f.seen.Len())])
			}
			for range 3 { // a form may take esc for its own field first (the creative: back to the picker)
				f.key(tea.KeyEsc).settle()
			}
			if m := f.quit(); len(m.stacks[m.active]) != 1 || m.top().Mode().TakesKeys {
				t.Errorf("esc did not leave the form: %s is on top", m.top().Title())
			}
			for _, e := range f.s.Applied() {
				if !strings.Contains(e.Operation, "auth/signin") {
					t.Errorf("cancelled, yet the service applied %s", e.Operation)
				}
			}
			for _, e := range journaltest.Entries(t, f.s.StateDir) {
				if e.Kind == journal.KindRequest || e.Kind == journal.KindTransaction || e.Kind == journal.KindSignature && e.Op != "signin" {
					t.Errorf("cancelled, yet the journal holds %s %s", e.Kind, e.Op)
				}
			}
		})
	}
}

// TestSigningFitsTheSmallestTerminal: at 60x20 the head of the claim and
// stake screens wraps; the review gives up lines so that the question and
// its buttons stay whole.
func TestSigningFitsTheSmallestTerminal(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		open func(f *flow)
	}{
		{"claim", func(f *flow) {
			f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
			f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request").runes("y")
		}},
		{"stake", func(f *flow) {
			f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
			f.runes("2").wait("Season").runes("S").wait("Stake in").typ("150").key(tea.KeyEnter)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFlow(t)
			f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
			f.unlock()
			tt.open(f)
			f.wait("Sign and send")
			view := ansi.Strip(f.quit().View())
			lines := strings.Split(view, "\n")
			if len(lines) > MinHeight || !strings.Contains(view, "[ Yes ]") || !strings.Contains(view, "more: ↓/pgdn scrolls") {
				t.Fatalf("%d lines at %dx%d, the question's buttons or the scroll hint missing:\n%s", len(lines), MinWidth, MinHeight, view)
			}
		})
	}
}

// TestSignInFitsTheSmallestTerminal: at 60x20 the sign-in message and the
// question do not fit together: the message scrolls, the question's
// buttons stay whole, and the end of the message can be read.
func TestSignInFitsTheSmallestTerminal(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	f.unlock()
	f.runes("6").runes("s").wait("more: ↓/pgdn scrolls")
	f.key(tea.KeyEnd).wait("Expiration Time:")
	view := ansi.Strip(f.quit().View())
	if lines := strings.Split(view, "\n"); len(lines) > MinHeight || !strings.Contains(view, "[ Yes ]") || !strings.Contains(view, "Expiration Time:") {
		t.Fatalf("%d lines at %dx%d, the buttons or the message's end missing:\n%s", len(lines), MinWidth, MinHeight, view)
	}
}

// TestDamagedJournalLine: a torn last line (a crash while writing) is
// skipped with a warning on the status line; what came before is listed.
func TestDamagedJournalLine(t *testing.T) {
	t.Parallel()
	s, j := journaled(t)
	created, _ := json.Marshal(api.TransactionsResult{Transactions: []api.Transaction{{TransactionID: "5f0c3d0e-8a51-4c1e-9d7a-2b6c4f1e0a11", Status: "PENDING"}}})
	if err := j.Append(s.Deployment().Stamp(journal.Entry{Kind: journal.KindOutcome, Op: "transactions/create", Ref: api.ActionInitialize, Data: created})); err != nil {
		t.Fatal(err)
	}
	file, err := os.OpenFile(filepath.Join(s.StateDir, journal.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	file.WriteString(`{"at":"2026-11-23T08:00:00Z","kind":"outc`) // torn
	file.Close()

	f := newFlowOn(t, s)
	f.runes("4").wait("INITIALIZE")
	f.waitFrom(0, "journal line 2 is damaged and was skipped")
	if v := f.quit().View(); !strings.Contains(v, "5f0c3d0e-8a51-4c1e-9d7a") || !strings.Contains(v, "damaged and was skipped") {
		t.Errorf("the entry before the torn line, or the warning, is missing:\n%s", v)
	}
}

// L locks from any screen, as help and the README say, not only on the
// Unlock screen.
func TestLockFromAnyScreen(t *testing.T) {
	t.Parallel()
	s, _ := journaled(t)
	f := newFlowOn(t, s).unlock()
	f.key(tea.KeyEsc).runes("2").wait("Season 8").runes("L").wait("locked: the key is forgotten")
	m := f.quit()
	if _, _, unlocked := m.ctx.Wallet.Account(); unlocked {
		t.Error("L on the Pools screen left the account unlocked")
	}
}
