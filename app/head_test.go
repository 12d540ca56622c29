package app

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"allot/core/config"
	clk "allot/internal/clock"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// headNode is a node whose head the test sets, counting the looks.
type headNode struct {
	wallet.Node
	head  atomic.Uint64
	down  atomic.Bool
	looks atomic.Int32
}

func (n *headNode) BlockNumber(context.Context) (uint64, error) {
	n.looks.Add(1)
	if n.down.Load() {
		return 0, errors.New("node down")
	}
	return n.head.Load(), nil
}

// chainPage counts the chain's refreshes it is asked for, and keeps the
// head it was told of.
type chainPage struct {
	views.Base
	reads atomic.Int32
	head  atomic.Uint64
}

func (p *chainPage) Title() string { return "Chain page" }
func (p *chainPage) Update(msg tea.Msg) tea.Cmd {
	if r, ok := msg.(views.RefreshMsg); ok && r.Chain {
		p.reads.Add(1)
	}
	if h, ok := msg.(views.HeadMsg); ok {
		p.head.Store(h.Block)
	}
	return nil
}
func (p *chainPage) View() string          { return "chain page" }
func (p *chainPage) SetSize(int, int)      {}
func (p *chainPage) Keys() widget.Bindings { return nil }

// TestChainRefreshFollowsBlocks: the chain's numbers are read again when
// a block came since the last read, never sooner than the chain's period
// after it, and not while no block comes (the head alone is looked at,
// every few seconds); a node that does not answer has the screen read
// (and say it failed). Before, they were read every period, block or not.
func TestChainRefreshFollowsBlocks(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	node := &headNode{Node: s.Chain}
	node.head.Store(100)
	s.Chain = node
	s.Profile.Refresh = config.Refresh{Chain: 15 * time.Second, Lists: time.Hour}
	fake := clk.NewFake(clock)
	m := New(s, Options{Clock: fake, Clipboard: widget.Clipboard{Out: io.Discard}})
	page := &chainPage{}
	m.stacks[m.active] = append(m.stacks[m.active], page)
	f := &flow{t: t, s: s, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
	f.wait("chain page")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// step moves the clock d on and waits for the rhythms to wait again
	// (the chain's and the lists'), then checks the looks and the reads.
	step := func(d time.Duration, looks, reads int32) {
		t.Helper()
		fake.Advance(d)
		if err := fake.BlockUntil(ctx, 2); err != nil {
			t.Fatal(err)
		}
		if got := node.looks.Load(); got != looks {
			t.Fatalf("after %s: %d looks at the head, want %d", d, got, looks)
		}
		if got := page.reads.Load(); got != reads {
			t.Fatalf("after %s: %d reads of the chain, want %d", d, got, reads)
		}
	}
	step(0, 0, 0)
	step(15*time.Second, 1, 1) // the first look: the head is new
	step(15*time.Second, 2, 1) // no block since: no read
	step(3*time.Second, 3, 1)  // looked at again soon
	node.head.Store(101)
	step(3*time.Second, 4, 2) // a block: read at once
	if got := page.head.Load(); got != 101 {
		t.Errorf("the screens were told of head %d, want 101", got)
	}
	node.head.Store(102)
	step(3*time.Second, 4, 2)  // a block, but the period has not passed
	step(12*time.Second, 5, 3) // now it has
	node.down.Store(true)
	step(15*time.Second, 6, 4) // the node does not answer: the screen tries
	f.quit()
}
