package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/session"
	"allot/views"
)

// profileOpened is the answer of opening another profile.
type profileOpened struct {
	s   *session.Session
	err error
}

// listProfiles says which profiles :profile can open.
func (m *Model) listProfiles() tea.Cmd {
	sw := m.opts.Switch
	switch {
	case sw.Err != nil:
		return m.fail("profile", fmt.Errorf("the configuration cannot be read: %w", sw.Err))
	case len(sw.Names) == 0:
		return m.fail("profile", errors.New("no configuration file: the embedded sandbox is the only profile (see config.example.toml)"))
	}
	return m.inform(fmt.Sprintf("profiles: %s (now: %s); :profile NAME switches", strings.Join(sw.Names, " · "), m.ctx.Session.Name))
}

// switchProfile opens the profile name, off the UI goroutine: opening one
// reads the configuration and may dial its node.
func (m *Model) switchProfile(name string) tea.Cmd {
	sw := m.opts.Switch
	switch {
	case sw.Err != nil || len(sw.Names) == 0:
		return m.listProfiles()
	case name == m.ctx.Session.Name:
		return m.inform("already on profile " + name)
	case !slices.Contains(sw.Names, name):
		return m.fail("profile", fmt.Errorf("no profile %q (have: %s)", name, strings.Join(sw.Names, ", ")))
	case m.busy(): // opening a profile is work too
		return m.fail("profile", errors.New("work is running (the spinner): switch when it is done; nothing was switched"))
	case len(m.following) > 0:
		return m.fail("profile", fmt.Errorf("%d transaction(s) are followed until mined (4): switch when they are final; nothing was switched", len(m.following)))
	}
	m.switching = name
	m.status, m.statusErr = "opening profile "+name+"…", false
	open := sw.Open
	return func() tea.Msg {
		s, err := open(name)
		return profileOpened{s: s, err: err}
	}
}

// profileSwitched puts the opened profile in place of the current one:
// every screen starts again on it, the key is locked and the portal
// session forgotten (another profile has its own keystore and portal),
// and the old session is closed off the UI goroutine.
func (m *Model) profileSwitched(msg profileOpened) tea.Cmd {
	name := m.switching
	m.switching = ""
	if msg.err != nil {
		return m.fail("profile "+name, msg.err)
	}
	old := m.ctx.Session
	m.ctx.Wallet.Lock()
	m.ctx.Session = msg.s
	m.ctx.Recorder = msg.s.Recorder(m.ctx.Journal)
	m.ctx.Wallet = &views.Wallet{}
	m.ctx.Token = ""
	if len(msg.s.TokenIDs) > 0 {
		m.ctx.Token = msg.s.TokenIDs[0]
	}
	m.stacks = make([][]views.Screen, len(tabNames))
	m.buildTabs()
	m.resize()
	// Not a command: one still queued when the program ends never runs,
	// and Run waits for this.
	m.closing.Add(1)
	go func() {
		defer m.closing.Done()
		old.Close()
	}()
	cmds := []tea.Cmd{m.inform("profile " + msg.s.Name)}
	if m.ctx.Token == "" {
		m.status, m.statusErr = "the profile lists no tokens: add tokens = [\"ID\"] to it, or use :token ID", true
	}
	for _, stack := range m.stacks {
		cmds = append(cmds, stack[0].Init())
	}
	return tea.Batch(cmds...)
}

// track keeps count of the transactions followed until they are final:
// their trackers use the session's chain, so it may not be switched away
// while they run.
func (m *Model) track(st views.TxStatusMsg) {
	if m.following == nil {
		m.following = map[string]bool{}
	}
	h := st.Status.Hash.Hex()
	if st.Final {
		delete(m.following, h)
	} else {
		m.following[h] = true
	}
}
