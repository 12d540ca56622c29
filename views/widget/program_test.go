package widget

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

var (
	_ help.KeyMap = (*Table[stake])(nil)
	_ help.KeyMap = (*Detail)(nil)
	_ help.KeyMap = (*Confirm)(nil)
)

// host is the smallest screen around a table: it sizes it, forwards every
// message, and keeps the last status line.
type host struct {
	table  *Table[stake]
	status string
}

func (h *host) Init() tea.Cmd { return nil }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.table.SetSize(msg.Width, msg.Height-1)
		return h, nil
	case StatusMsg:
		h.status = msg.Text
		return h, nil
	}
	return h, h.table.Update(msg)
}

func (h *host) View() string { return h.table.View() + "\n" + h.status }

// lockedBuffer is a clipboard output that the program writes from a command
// goroutine while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTableInProgram drives a table of 100,000 rows through the real Bubble
// Tea runtime: the sort and the filter run in commands, the debounce uses
// real ticks, and the copy writes OSC 52 from a command.
func TestTableInProgram(t *testing.T) {
	rows := makeStakes(100_000)
	target := rows[77_777]
	part := target.Wallet[12:24]
	var clip lockedBuffer
	tb := newStakeTable(rows, 0, 0, TableConfig[stake]{
		Clipboard: Clipboard{Out: &clip},
		CopyText:  func(s stake) string { return s.Wallet },
	})
	h := &host{table: tb}
	tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(120, 36))

	tm.Send(keyMsg("s")) // amount ascending, in the background
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Amount ↑")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(keyMsg("/"))
	tm.Type(part)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("1/1 of 100,000")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("y"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("copied 0x")) },
		teatest.WithDuration(5*time.Second))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	if got := selectedID(t, tb); got != target.ID {
		t.Errorf("focused %s, want %s", got, target.ID)
	}
	if tb.Query() != part || tb.EditingFilter() {
		t.Errorf("query %q, editing %v", tb.Query(), tb.EditingFilter())
	}
	if got := payload(t, clip.String()); got != target.Wallet {
		t.Errorf("clipboard %q, want %q", got, target.Wallet)
	}
	if !strings.HasPrefix(h.status, "copied "+target.Wallet[:20]) {
		t.Errorf("status %q", h.status)
	}
}
