package app

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/session"
	"allot/views"
	"allot/views/operator"
	"allot/views/widget"
	"allot/wallet"
)

// TestSwitchProfile: :profile lists the profiles, refuses a name there is
// none of, and switches: the screens start again on the new session, the
// key is locked, and the old session is closed.
func TestSwitchProfile(t *testing.T) {
	t.Parallel()
	first, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(first.Close)
	var opened *session.Session
	sw := session.Switch{
		Names: []string{"sandbox", "staging"},
		Open: func(name string) (*session.Session, error) {
			s, err := embedded.Sandbox(sandbox.Options{}, first.StateDir)
			if s != nil {
				s.Name = name // a second deployment, as the header names it
			}
			opened = s
			return s, err
		},
	}
	m := New(first, Options{Clipboard: widget.Clipboard{Out: io.Discard}, Switch: sw})
	contracts := m.stacks[tabContracts][0]
	f := &flow{t: t, s: first, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting")

	f.runes(":").typ("profile").key(tea.KeyEnter).wait("profiles: sandbox · staging (now: sandbox)")
	f.runes(":").typ("profile nope").key(tea.KeyEnter).wait(`no profile "nope" (have: sandbox, staging)`)
	f.unlock().settle() // nothing running but the unlocked key
	f.runes(":").typ("profile st").key(tea.KeyTab).wait("profile staging")
	f.key(tea.KeyEnter).wait("Switch to profile staging? It drops the unlocked key. (y/N)")
	// The header names the profile; the screens start again (the contracts
	// look the same: the renderer does not draw them again).
	f.runes("y").wait("allot │ profile staging")
	end := f.quit()
	t.Cleanup(func() { end.ctx.Session.Close() })

	if end.ctx.Session != opened || end.ctx.Session.Name != "staging" || end.ctx.Recorder.Deployment.Profile != "staging" {
		t.Fatalf("the dashboard is on %q", end.ctx.Session.Name)
	}
	if end.stacks[tabContracts][0] == contracts {
		t.Error("the contracts screen of the old profile stayed")
	}
	if _, _, ok := end.ctx.Wallet.Account(); ok {
		t.Error("the key stayed unlocked across profiles")
	}
	if strings.Contains(end.View(), "unlocked") {
		t.Errorf("the header still shows an unlocked key:\n%s", end.View())
	}
	end.closing.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := first.API.Contracts(ctx, first.TokenIDs[0]); err == nil {
		t.Error("the session switched away from still answers: it was not closed")
	}
}

// TestProfileWithoutConfiguration: with no configuration file the embedded
// sandbox is the only profile, and :profile says so.
func TestProfileWithoutConfiguration(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.runes(":").typ("profile staging").key(tea.KeyEnter).wait("the embedded sandbox is the only profile")
	f.quit()
}

// TestNoSwitchWhileFollowing: a transaction followed until mined uses the
// session's chain; the profile stays until it is final.
func TestNoSwitchWhileFollowing(t *testing.T) {
	t.Parallel()
	opened := false
	sw := session.Switch{Names: []string{"sandbox", "staging"}, Open: func(string) (*session.Session, error) {
		opened = true
		return nil, io.EOF
	}}
	m := New(shared.Session(t), Options{Clipboard: widget.Clipboard{Out: io.Discard}, Switch: sw})
	// An approve: a claim or a stake mined reloads Contracts and Pools
	// (List.ReloadAfter), work running that the switch would then ask
	// about, which is not what this test is about.
	pending := views.TxStatusMsg{Op: "approve", Status: wallet.Status{Hash: common.HexToHash("0xab"), State: wallet.StatePending}}
	m.Update(pending)
	if cmd := m.switchProfile("staging"); cmd != nil || !strings.Contains(m.status, "followed until mined") {
		t.Fatalf("switched while following: %q", m.status)
	}
	pending.Final = true
	m.Update(pending)
	if cmd := m.switchProfile("staging"); cmd == nil {
		t.Fatalf("no switch once the transaction is final: %q", m.status)
	} else if msg := cmd(); msg.(profileOpened).err == nil || !opened {
		t.Fatalf("opened %v: %+v", opened, msg)
	}
}

// TestSwitchProfileAsksFirst: a switch that drops nothing happens at once;
// one that drops something (here a request under review, then the
// unlocked key) asks first, default No: n keeps the profile, and so does a
// y to a question the terminal hid (it became too small); y to the
// question in sight switches.
func TestSwitchProfileAsksFirst(t *testing.T) {
	t.Parallel()
	first, err := embedded.Sandbox(sandbox.Options{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(first.Close)
	var opened []*session.Session
	sw := session.Switch{
		Names: []string{"sandbox", "staging"},
		Open: func(name string) (*session.Session, error) {
			s, err := embedded.Sandbox(sandbox.Options{}, first.StateDir)
			if s != nil {
				s.Name = name
				opened = append(opened, s)
			}
			return s, err
		},
	}
	t.Cleanup(func() {
		for _, s := range opened {
			s.Close()
		}
	})
	m := New(first, Options{Clipboard: widget.Clipboard{Out: io.Discard}, Switch: sw})
	f := &flow{t: t, s: first, tm: teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(120, 36))}
	// Nothing running: the Transactions tab's first load starts once the
	// contracts are drawn (late.go), and a switch would drop it.
	f.wait("Team & Advisors Vesting").settle()
	f.runes(":").typ("profile staging").key(tea.KeyEnter).wait("allot │ profile staging")
	if strings.Contains(f.seen.String(), "(y/N)") {
		t.Fatal("a switch that drops nothing asked")
	}

	// A start-distribution request under review.
	form := operator.New(m.ctx, api.Contract{ID: first.Fixtures.ContractIDs[0]}, api.ActionStartDistribution)
	f.send(views.NavigateMsg{Screen: form}).wait("Start distribution")
	f.typ(first.Fixtures.AllocationIDs[1]).key(tea.KeyCtrlS).wait("Send this START_DISTRIBUTION request")
	f.runes(":").typ("profile sandbox").key(tea.KeyEnter).wait("1 form filled in. (y/N)")
	f.runes("n").wait("not switched: still on profile staging")

	f.runes(":").typ("profile sandbox").key(tea.KeyEnter).wait("Switch to profile sandbox?")
	f.send(tea.WindowSizeMsg{Width: 50, Height: 16}).wait("Terminal too small")
	f.runes("y").send(tea.WindowSizeMsg{Width: 120, Height: 36}).wait("not switched: still on profile staging")

	f.runes(":").typ("profile sandbox").key(tea.KeyEnter).wait("Switch to profile sandbox?")
	f.runes("y").wait("allot │ profile sandbox")
	end := f.quit()
	if end.ctx.Session.Name != "sandbox" || end.ctx.Session == first {
		t.Fatalf("on %q after the yes", end.ctx.Session.Name)
	}
	end.closing.Wait()
}

// TestSwitchQuestionFitsNarrowTerminals: a question that does not fit
// cannot be answered yes, so at 60 columns the losses are named in a word
// each.
func TestSwitchQuestionFitsNarrowTerminals(t *testing.T) {
	t.Parallel()
	m := &Model{width: 60, switchAsk: "staging", switchLost: []loss{
		{"the unlocked key", "key"}, {"the write on its way", "write"}, {"2 forms filled in", "2 forms"}}}
	q := m.switchQuestion()
	if w := lipgloss.Width(q); w > 60 || !strings.Contains(q, "key, write, 2 forms") || !strings.HasSuffix(q, "(y/N)") {
		t.Errorf("at 60 columns the question is %q (%d wide)", q, lipgloss.Width(q))
	}
	m.width = 120
	if q := m.switchQuestion(); !strings.Contains(q, "It drops the unlocked key, the write on its way, 2 forms filled in. (y/N)") {
		t.Errorf("at 120 columns the question is %q", q)
	}
}
