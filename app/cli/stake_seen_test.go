package cli

import (
	"strings"
	"testing"
)

// TestStakeSeenContractsFromTheJournal: the signing review calls the
// staking contract new the first time only: the second stake's check asks
// the journal, which holds the first stake's signature (session.StakeCheck
// with the recorder's Seen).
func TestStakeSeenContractsFromTheJournal(t *testing.T) {
	f := newChainFixture(t)
	const isNew = "new: never signed for in this journal"
	for i, wantNew := range []bool{true, false} {
		r := f.run(t, "stake", "--pool", testPoolID, "--amount", "1", "--account", f.user.Hex(), "--send", "--yes", "--wait", "-o", "json")
		if r.code != 0 {
			t.Fatalf("stake %d: exit %d\n%s", i+1, r.code, r.stderr)
		}
		line := reviewLine(r.stderr, "staking contract")
		if line == "" {
			t.Fatalf("stake %d: no staking contract line in the review:\n%s", i+1, r.stderr)
		}
		if got := strings.Contains(line, isNew); got != wantNew {
			t.Errorf("stake %d: the staking contract called new: %v, want %v: %q", i+1, got, wantNew, line)
		}
	}
}

// reviewLine is the first line of text labelled label, trimmed; "" for none.
func reviewLine(text, label string) string {
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, label) {
			return line
		}
	}
	return ""
}
