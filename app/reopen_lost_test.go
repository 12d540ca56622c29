package app

import (
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/journal/journaltest"
)

// TestReopenLostClaimRequest: a claim request whose answer never came, as
// a journal of an earlier run holds it, opens from the Transactions
// screen on the page of a lost write: what the check found on the page,
// its keys in the footer only; r shows the exact body above the question,
// which y answers once the dashboard has drawn it whole, and the same
// bytes go again, settling the first request as resent.
func TestReopenLostClaimRequest(t *testing.T) {
	t.Parallel()
	s, j := journaled(t)
	allocation := s.Fixtures.AllocationIDs[0]
	body, _ := json.Marshal(api.ClaimRequest{Sender: s.Fixtures.Wallets[0].Address})
	for _, e := range []journal.Entry{
		{Kind: journal.KindRequest, Profile: s.Name, Op: act.OpClaim, Ref: allocation, Write: "w1", Data: body},
		{Kind: journal.KindOutcome, Profile: s.Name, Op: act.OpClaim, Ref: allocation, Write: "w1", Status: act.StatusUnknown},
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
	f.runes("4").wait("UNKNOWN")
	f.key(tea.KeyEnter).wait("Outcome unknown: claim request").wait("sent before this run of allot")
	f.wait("r resend")
	// The footer joins keys with "•"; a page drawing its own, with "·".
	if strings.Contains(f.seen.String(), "check again ·") {
		t.Error("the page draws its keys as well as the footer")
	}
	f.runes("r").wait("Send this request again? allot cannot tell").wait("y send")
	f.runes("y").wait("to review and sign them")
	f.quit()
	if applied(s, "claim") != 1 {
		t.Fatalf("applied %d claims, want the one resend", applied(s, "claim"))
	}
	entries := journaltest.Entries(t, s.StateDir)
	sent := journaltest.Of(entries, journal.KindRequest, act.OpClaim)
	if len(sent) != 2 || string(sent[1].Data) != string(body) {
		t.Fatalf("the resend is not the journaled body: %+v", sent)
	}
	for _, w := range journal.Writes(entries) {
		if w.Request.Write == "w1" && (!w.Settled() || w.Outcome.Status != act.StatusResent) {
			t.Errorf("the first request is not settled as resent: %+v", w.Outcome)
		}
	}
}
