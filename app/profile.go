package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/core/session"
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
// reads the configuration and may dial its node. When that drops
// something (the unlocked key, work running, a form filled in), it asks
// first, default No.
func (m *Model) switchProfile(name string) tea.Cmd {
	sw := m.opts.Switch
	switch {
	case sw.Err != nil || len(sw.Names) == 0:
		return m.listProfiles()
	case name == m.ctx.Session.Name:
		return m.inform("already on profile " + name)
	case !slices.Contains(sw.Names, name):
		return m.fail("profile", fmt.Errorf("no profile %q (have: %s)", name, strings.Join(sw.Names, ", ")))
	case m.switching != "":
		return m.fail("profile", fmt.Errorf("profile %s is opening: nothing else was switched", m.switching))
	case len(m.following) > 0:
		return m.fail("profile", fmt.Errorf("%d transaction(s) are followed until mined (4): switch when they are final; nothing was switched", len(m.following)))
	}
	if lost := m.switchLosses(); len(lost) > 0 {
		m.switchAsk, m.switchLost = name, lost
		m.setMode(modeSwitch)
		return nil
	}
	return m.openProfile(name)
}

// drafter is a page that holds what the user typed and has not sent: a
// form filled in, a request under review.
type drafter interface{ Drafted() bool }

// switchLosses says what switching profiles would drop: the unlocked key,
// the writes on their way (journaled whatever their end), the forms filled
// in. Reads running, such as the screens' first loads, are not asked
// about: the switch cancels them and the new profile loads its own.
func (m *Model) switchLosses() []loss {
	var lost []loss
	if _, _, ok := m.ctx.Wallet.Account(); ok {
		lost = append(lost, loss{"the unlocked key", "key"})
	}
	if m.writing() {
		// A write in flight is journaled whatever comes of it: it stays on
		// Transactions.
		lost = append(lost, loss{"the write on its way", "write"})
	}
	forms := 0
	for _, stack := range m.stacks {
		for _, s := range stack {
			if d, ok := s.(drafter); ok && d.Drafted() {
				forms++
			}
		}
	}
	switch {
	case forms == 1:
		lost = append(lost, loss{"1 form filled in", "1 form"})
	case forms > 1:
		lost = append(lost, loss{fmt.Sprintf("%d forms filled in", forms), fmt.Sprintf("%d forms", forms)})
	}
	return lost
}

// loss is something a profile switch drops, said in full and in a word.
type loss struct{ long, short string }

// switchQuestion asks before a switch that drops something; in a narrow
// terminal it names the losses in a word each, since a question that does
// not fit cannot be answered yes.
func (m *Model) switchQuestion() string {
	long := make([]string, len(m.switchLost))
	short := make([]string, len(m.switchLost))
	for i, l := range m.switchLost {
		long[i], short[i] = l.long, l.short
	}
	q := fmt.Sprintf("Switch to profile %s? It drops %s. (y/N)", m.switchAsk, strings.Join(long, ", "))
	if lipgloss.Width(q) <= m.width {
		return q
	}
	return fmt.Sprintf("Switch to %s, dropping %s? (y/N)", m.switchAsk, strings.Join(short, ", "))
}

// answerSwitch takes the answer to the question: y switches only when the
// last frame showed the question whole; any other key, or a y to a
// question hidden or cut, is No.
func (m *Model) answerSwitch(msg tea.KeyMsg) tea.Cmd {
	name, shown := m.switchAsk, m.switchShown
	m.switchAsk, m.switchLost = "", nil
	m.setMode(modeScreens)
	if (msg.String() == "y" || msg.String() == "Y") && shown {
		return m.openProfile(name)
	}
	return m.inform("not switched: still on profile " + m.ctx.Session.Name)
}

// openProfile opens the profile name, off the UI goroutine.
func (m *Model) openProfile(name string) tea.Cmd {
	m.switching = name
	m.status, m.statusErr = "opening profile "+name+"…", false
	open := m.opts.Switch.Open
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
	// The old profile's loads and trackers end with it: their answers
	// would be dropped anyway, and they hold its connections.
	m.ctx.Begin()
	m.ctx.Wallet.Lock()
	m.ctx.Session = msg.s
	m.ctx.Recorder = msg.s.Recorder(m.ctx.Journal)
	m.ctx.Wallet = &session.Wallet{}
	m.ctx.Token = ""
	if len(msg.s.TokenIDs) > 0 {
		m.ctx.Token = msg.s.TokenIDs[0]
	}
	m.stacks = make([][]views.Screen, len(tabs))
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
		m.status, m.statusErr, m.statusPage = "the profile lists no tokens: add tokens = [\"ID\"] to it, or use :token ID", true, nil
	}
	return tea.Batch(append(append(cmds, m.initTabs()...), m.armRefresh())...)
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
