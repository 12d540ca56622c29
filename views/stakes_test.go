package views

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/api/sandbox"
	"allot/internal/session"
	"allot/views/widget"
)

// TestWhaleStakesArriveWithinAFrame times the Update that receives the
// 100,000 stakes of the whale pool: the summary and histogram buckets are
// computed there, and must not freeze the screen.
func TestWhaleStakesArriveWithinAFrame(t *testing.T) {
	s, err := session.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := &Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0]}
	list, err := s.API.Stakes(context.Background(), api.StakesRequest{StakingPoolID: s.Fixtures.BigPoolID})
	if err != nil {
		t.Fatal(err)
	}
	screen := NewStakes(ctx, api.Pool{ID: s.Fixtures.BigPoolID, Name: "Whale pool"}).(*stakes)
	screen.SetSize(120, 30)
	screen.seq = 1
	text, buckets := summarize(list.Items)
	start := time.Now()
	screen.Update(loaded[whole]{seq: 1, value: whole{rows: list.Items, summary: text, buckets: buckets}})
	took := time.Since(start)
	t.Logf("rows arrived in %v", took)
	if !strings.Contains(screen.View(), "100,000 stakes") {
		t.Fatalf("view:\n%s", screen.View())
	}
}

// TestStakesSummaryAndHistogram: the summary says what it counts (the
// withdrawn stakes apart, as the pool's total leaves them out), and the
// histogram counts the stakes staked among those the filter keeps.
func TestStakesSummaryAndHistogram(t *testing.T) {
	stake := func(wallet, amount, status string) api.Stake {
		var st api.Stake
		st.ID, st.WalletAddress, st.Status = wallet+amount, wallet, status
		if err := st.Amount.UnmarshalJSON([]byte(amount)); err != nil {
			t.Fatal(err)
		}
		return st
	}
	rows := []api.Stake{
		stake("0xaaaa000000000000000000000000000000000001", "100", "STAKED"),
		stake("0xaaaa000000000000000000000000000000000002", "50", "UNSTAKING"),
		stake("0xbbbb000000000000000000000000000000000003", "1000", "WITHDRAWN"),
		stake("0xbbbb000000000000000000000000000000000004", "7", "STAKED"),
	}
	text, buckets := summarize(rows)
	for _, want := range []string{"4 stakes", "staked 157 ·", "withdrawn 1,000 (1)", "largest 100"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary %q does not say %q", text, want)
		}
	}
	if n := count(buckets); n != 3 {
		t.Errorf("the histogram counts %d stakes, want the 3 staked", n)
	}

	ctx := &Context{Styles: widget.DefaultStyles(), Now: time.Now, Clipboard: widget.Clipboard{Out: io.Discard}}
	s := NewStakes(ctx, api.Pool{ID: "p", Name: "Pool"}).(*stakes)
	s.SetSize(120, 30)
	s.seq = 1
	s.Update(loaded[whole]{seq: 1, value: whole{rows: rows, summary: text, buckets: buckets}})
	s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	for _, r := range "0xbbbb" {
		s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	s.Update(tea.KeyMsg{Type: tea.KeyEnter})
	s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("h")})
	view := s.View()
	if n := count(s.shownBuckets()); n != 1 || !strings.Contains(view, `matching "0xbbbb"`) {
		t.Errorf("the histogram under the filter counts %d stakes, want 1 (the filter keeps one staked):\n%s", n, view)
	}
}

func count(buckets []widget.Bucket) int {
	n := 0
	for _, b := range buckets {
		n += b.Count
	}
	return n
}

func TestStakesSummarySingular(t *testing.T) {
	var st api.Stake
	st.ID, st.WalletAddress, st.Status = "s1", "0xaaaa000000000000000000000000000000000001", "STAKED"
	if err := st.Amount.UnmarshalJSON([]byte("5")); err != nil {
		t.Fatal(err)
	}
	if text, _ := summarize([]api.Stake{st}); !strings.HasPrefix(text, "1 stake ·") {
		t.Errorf("summary of one stake: %q", text)
	}
	for n, want := range map[int]string{0: "0 stakes", 1: "1 stake", 1204: "1,204 stakes"} {
		if got := stakeCount(n); got != want {
			t.Errorf("stakeCount(%d) = %q, want %q", n, got, want)
		}
	}
}
