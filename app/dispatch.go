package app

// Dispatch: every message reaches the root here, and goes on to the
// screens, the command line, or the root's own keys.

import (
	"context"
	"errors"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// Update handles a message: the root's own (sizes, ticks, navigation,
// status), keys, answers addressed to the screen that asked (route.go),
// and events passed to every screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// Keys read together arrive as one message (keys pressed faster than
	// the program reads, or sent by a script: ":tx" then enter): each is
	// handled as if pressed alone, so that none is lost to a binding that
	// matches one key. A paste stays whole.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && !k.Paste && len(k.Runes) > 1 {
		cmds := make([]tea.Cmd, 0, len(k.Runes))
		for _, r := range k.Runes {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	// A followed transaction's update carries the command that waits for
	// the next one: keep it running whatever the screens do.
	msg, next := views.Unwrap(msg)
	model, cmd := m.update(msg)
	if m.mode == modeQuit && !m.busy() {
		// The work the question waited for has finished: the question
		// goes, and the program stays, so that its outcome (a failure, a
		// transaction created) is seen before anyone quits.
		m.setMode(modeScreens)
		m.status, m.statusErr = quitWorkDone, false
	}
	return model, tea.Batch(cmd, next, m.startLate(), m.animate())
}

// quitWorkDone replaces the quit question once nothing runs any more.
const quitWorkDone = "The work finished; nothing is running now: q quits."

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if st, ok := msg.(views.TxStatusMsg); ok {
		m.track(st) // and every screen sees it, below
	}
	switch msg := msg.(type) {
	case profileOpened:
		return m, m.profileSwitched(msg)
	case refreshTick:
		return m, m.refresh(msg)
	case lateStart:
		return m, m.initLate()
	case headSeen:
		return m, m.onHead(msg)
	case seededMsg:
		if msg.session != m.seeding {
			return m, nil
		}
		m.seeding = nil
		if msg.session == m.ctx.Session && msg.err != nil && !errors.Is(msg.err, context.Canceled) {
			m.failOn(nil, "the embedded sandbox could not finish seeding", msg.err)
			return m, nil
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case headerTick:
		if !m.counting() {
			m.ticking = false
			return m, nil
		}
		_, left, unlocked := m.ctx.Wallet.Account()
		return m, tea.Batch(m.warnLapse(left, unlocked), clockTick())
	case spinner.TickMsg:
		if msg.ID != m.spin.ID() {
			return m, nil // the start's, which the dashboard took over from
		}
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case views.NavigateMsg:
		if _, acting := msg.Screen.(views.Acting); acting {
			if err := m.ctx.Session.Writable(); err != nil {
				return m, m.fail(msg.Screen.Title(), err)
			}
		}
		w, h := m.bodySize()
		msg.Screen.SetSize(w, h)
		m.stacks[m.active] = append(m.stacks[m.active], msg.Screen)
		return m, tag(msg.Screen, msg.Screen.Init())
	case views.Addressed:
		return m, m.deliver(msg)
	case views.ErrorMsg, widget.StatusMsg:
		return m, m.said(m.top(), msg)
	case clearStatus:
		if msg.seq == m.statusSeq && !m.statusErr {
			m.status = ""
		}
		return m, nil
	case namesMsg:
		if msg.token == m.ctx.Token {
			*m.namesOf(msg.cmd) = msg
			if m.mode == modeCommand && m.commandH == loadingNames(msg.cmd) {
				// tab was pressed while they loaded: complete now.
				m.completeCommand()
			}
		}
		return m, nil
	case contractFoundMsg:
		if msg.err != nil {
			return m, m.fail("contract", msg.err)
		}
		return m, m.showContract(msg.contract)
	case views.BackMsg:
		if msg.Screen != nil {
			m.remove(msg.Screen)
		} else {
			m.pop()
		}
		return m, nil
	case tea.KeyMsg:
		m.keysSeen++
		return m, m.handleKey(msg)
	}
	// An event goes to every screen. Anything else left is the root's
	// own (the command line's cursor): a screen's answers come addressed.
	cmds := []tea.Cmd{m.broadcast(msg)}
	if m.mode == modeCommand {
		var cmd tea.Cmd
		m.cmdline, cmd = m.cmdline.Update(msg)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// handleKey gives a key to the one mode that is on: a question, the
// command line, the page covering the screens, or the screens under the
// global keys.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.exit()
	}
	switch m.mode {
	case modeQuit:
		return m.answerQuit(msg)
	case modeSwitch:
		return m.answerSwitch(msg)
	}
	if m.tooSmall() {
		cmd, _ := m.tooSmallKeys().Dispatch(msg)
		return cmd
	}
	switch m.mode {
	case modeCommand:
		return m.commandKey(msg)
	case modeHelp, modeErr:
		// The page takes every key: it scrolls, and closes.
		if !m.page.Key(msg) {
			cmd, _ := m.pageKeys().Dispatch(msg)
			return cmd
		}
		return nil
	}
	top := m.top()
	if cmd, ok := m.globalKeys(top.Mode()).Dispatch(msg); ok {
		return cmd
	}
	return tag(top, top.Update(msg))
}

// openCommandLine focuses the : line, and loads the names it completes.
func (m *Model) openCommandLine() tea.Cmd {
	m.cmdline.SetValue("")
	m.commandH = ""
	m.setMode(modeCommand)
	return tea.Batch(textinput.Blink, m.fetchNames("stakes", poolNames), m.fetchNames("contract", contractNames))
}

// openDetails shows the details of the last error. A screen that failed
// to load shows that failure where its rows would be: E details it,
// before the status line's last error.
func (m *Model) openDetails() tea.Cmd {
	if f, ok := m.top().(interface{ LoadErr() error }); ok && f.LoadErr() != nil {
		m.lastErr = f.LoadErr()
	}
	if m.lastErr == nil {
		return m.inform("no error to show: E details the one on the status line")
	}
	m.openPage(modeErr)
	return nil
}

func (m *Model) commandKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.setMode(modeScreens)
		return nil
	case "enter":
		line := m.cmdline.Value()
		m.setMode(modeScreens)
		return m.runCommand(line)
	case "tab":
		m.completeCommand()
		return nil
	}
	var cmd tea.Cmd
	m.cmdline, cmd = m.cmdline.Update(msg)
	return cmd
}

func (m *Model) quit() tea.Cmd {
	if m.busy() {
		m.setMode(modeQuit)
		return nil
	}
	return m.exit()
}

// exit ends the program, and with it the screens' work: a load, a write
// or a transaction followed is cancelled rather than left running for no
// one.
func (m *Model) exit() tea.Cmd {
	m.ctx.End()
	return tea.Quit
}
