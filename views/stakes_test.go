package views

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"allot/api"
	"allot/api/sandbox"
	"allot/app/session"
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
