package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// mode is what takes the dashboard's keys: the screens, or the one thing
// over them. Only one is on at a time, so which gets a key never depends
// on the order checks are made in.
type mode int

const (
	modeScreens mode = iota // the screens and the global keys
	modeHelp                // the help covers the screens (?)
	modeErr                 // the last error's details cover them (E)
	modeCommand             // the : line takes what is typed
	modeQuit                // "quit with work running?" waits for y
	modeSwitch              // "switch profile, dropping …?" waits for y
)

// covers says whether the mode's page covers the screens.
func (md mode) covers() bool { return md == modeHelp || md == modeErr }

// setMode turns md on, and with it off whatever was on: the command line
// is focused exactly while its mode is.
func (m *Model) setMode(md mode) {
	m.mode = md
	if md == modeCommand {
		m.cmdline.Focus()
	} else {
		m.cmdline.Blur()
	}
}

// pageKeys are the keys of the help and the error details: scroll, and
// close (with the key that opened it, esc or q).
func (m *Model) pageKeys() widget.Bindings {
	closing := []string{"esc", "q", "?", "f1"}
	if m.mode == modeErr {
		closing = []string{"esc", "q", "E"}
	}
	return widget.Bindings{
		{Key: m.page.Help("scroll"), Short: true}, // m.page.Key moves it
		{Key: key.NewBinding(key.WithKeys(closing...), key.WithHelp("esc", "close")), Short: true,
			Run: func() tea.Cmd { m.setMode(modeScreens); return nil }},
	}
}

// tooSmallKeys are the keys while the terminal is too small for the
// dashboard, which the notice names (tooSmallNotice): q quits, as it
// does everywhere. Keys reach no hidden page: a y must not answer a
// question, nor a q be typed into a field, that nobody can see.
func (m *Model) tooSmallKeys() widget.Bindings {
	return widget.Bindings{{Key: m.keys.Quit, Short: true, Run: m.quit}}
}

// answerQuit takes the answer to the quit question: y quits only when
// the last frame showed the question; any other key is No.
func (m *Model) answerQuit(msg tea.KeyMsg) tea.Cmd {
	if msg.String() == "y" || msg.String() == "Y" {
		if m.quitShown {
			return m.exit()
		}
		return nil
	}
	m.setMode(modeScreens)
	m.status = ""
	return nil
}
