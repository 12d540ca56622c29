package holder

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/views"
	"allot/viewstest"
	"allot/wallet/history"
)

// stateID is the embedded sandbox's demo allocation in state.
func stateID(t *testing.T, ctx *views.Context, state string) string {
	t.Helper()
	for _, id := range append(ctx.Session.Fixtures.LifeAllocationIDs, ctx.Session.Fixtures.AllocationIDs...) {
		if ctx.Session.Fixtures.AllocationStates[id] == state {
			return id
		}
	}
	t.Fatalf("no demo allocation %s", state)
	return ""
}

// fits checks a view against a terminal of w x h.
func fits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%d lines, more than %d:\n%s", len(lines), h, view)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("a line of %d cells, more than %d: %q", lipgloss.Width(l), w, l)
		}
	}
}

// TestTimelineOnTheAllocationScreen: H shows, in the chart's place, the
// allocation's history read from the chain: a spinner while it reads
// (Update returned at once), then each event; at 60x20 and at 120x36 it
// fits, and H brings the chart back.
func TestTimelineOnTheAllocationScreen(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	for _, size := range [][2]int{{60, 20}, {120, 36}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprint(w, "x", h), func(t *testing.T) {
			a := NewAllocation(ctx).(*allocation)
			d := viewstest.NewDriver(t, a, w, h)
			d.Run(a.Update(LookupMsg{ID: stateID(t, ctx, sandbox.StateRevoked)}))
			d.Until("looked up", func() bool { return a.result != nil && !a.busy })
			cmd := a.Update(viewstest.Key("H"))
			if cmd == nil || !a.timeline.loading || !strings.Contains(ansi.Strip(a.View()), "Reading the allocation's claims") {
				t.Fatalf("H did not start reading in the background:\n%s", a.View())
			}
			d.Run(cmd)
			d.Until("history read", func() bool { return !a.timeline.loading })
			view := ansi.Strip(a.View())
			fits(t, view, w, h)
			claim, revoke := regexp.MustCompile(`  claim \d`).FindStringIndex(view), strings.Index(view, "  revoke  tx 0x")
			if claim == nil || revoke < claim[0] || !strings.Contains(view, "History on chain") {
				t.Errorf("the history does not show the claim, then the revoke:\n%s", view)
			}
			d.Keys("H")
			if strings.Contains(ansi.Strip(a.View()), "History on chain") {
				t.Errorf("H again left the history on show")
			}
		})
	}
}

// TestTimelineErrorAndScroll: an error is shown in its place, sanitized;
// a history longer than its box scrolls with [ and ], within it; an
// answer to an earlier read is dropped.
func TestTimelineErrorAndScroll(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	tl := newTimeline(ctx)
	tl.SetSize(60, 6)
	tl.Lookup("0d9a7c3e-1b2f-4c5d-8e6f-00000000a001")
	tl.bindings().Dispatch(viewstest.Key("H"))
	stale := tl.seq
	tl.Lookup("0d9a7c3e-1b2f-4c5d-8e6f-00000000a001") // looked up again: a new read
	tl.read()
	tl.Update(views.Loaded[*history.History]{Seq: stale, Err: errors.New("stale")})
	if !tl.loading {
		t.Fatal("an earlier read's answer was taken")
	}
	tl.Update(views.Loaded[*history.History]{Seq: tl.seq, Err: errors.New("the node \x1b]52;c;aGk=\x07 is down")})
	view := tl.View()
	if !strings.Contains(view, "Could not read the history: the node") || strings.ContainsRune(view, 0x1b) {
		t.Errorf("error view:\n%q", view)
	}
	fits(t, view, 60, 6)

	h := &history.History{ToBlock: 99}
	for i := range 10 {
		h.Events = append(h.Events, history.Event{Kind: history.Claim, Time: time.Unix(int64(i), 0), Block: uint64(i),
			Amount: big.NewInt(int64(i + 1)), Fee: new(big.Int), Symbol: "AT", Tx: common.Hash{byte(i)}})
	}
	tl.Lookup(tl.id)
	tl.Update(views.Loaded[*history.History]{Seq: tl.seq, Value: h})
	if !strings.Contains(tl.View(), "1–4 of 10") || !tl.scrolls() {
		t.Fatalf("first rows:\n%s", tl.View())
	}
	for range 20 {
		tl.bindings().Dispatch(viewstest.Key("]"))
	}
	if !strings.Contains(tl.View(), "7–10 of 10") {
		t.Errorf("scrolled to the end:\n%s", tl.View())
	}
	tl.bindings().Dispatch(viewstest.Key("["))
	if !strings.Contains(tl.View(), "6–9 of 10") {
		t.Errorf("scrolled up one:\n%s", tl.View())
	}
	fits(t, tl.View(), 60, 6)
}

// TestTimelineCutsNothingAt60: at 60 columns a claim's line gives up its
// sender, transaction and fee rather than end cut ("fee …"), and the
// footer names the whole command or leaves it out; at 80 the fee stays,
// in ETH as allot history's FEE (ETH) column writes it.
func TestTimelineCutsNothingAt60(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	tl := newTimeline(ctx)
	tl.SetSize(60, 6)
	tl.Lookup("c3a2d13c-2bf7-5f8d-b784-04a7e0d84d5e")
	h := &history.History{ToBlock: 99, Events: []history.Event{{Kind: history.Claim, Time: time.Unix(0, 0), Amount: new(big.Int).Mul(big.NewInt(158512382), big.NewInt(1e14)), Fee: big.NewInt(5e14),
		Symbol: "HBR", Tx: common.Hash{1}, Recipient: common.Address{2}, Sender: common.Address{3}}}}
	tl.Update(views.Loaded[*history.History]{Seq: tl.seq, Value: h})
	view := ansi.Strip(tl.View())
	fits(t, view, 60, 6)
	for _, line := range strings.Split(view, "\n") {
		if strings.HasSuffix(line, "…") || strings.Contains(line, "allot history c") && !strings.Contains(line, tl.id) {
			t.Errorf("a line cut: %q\n%s", line, view)
		}
	}
	tl.SetSize(80, 6)
	if v := ansi.Strip(tl.View()); !strings.Contains(v, "fee 0.0005 ETH") || strings.Contains(v, "tx 0x") {
		t.Errorf("at 80 columns the fee gave way before the transaction:\n%s", v)
	}
}
