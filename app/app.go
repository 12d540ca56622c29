// Package app is the dashboard: the root Bubble Tea model that holds the
// screens of views/, the header, the tabs, the status line, help and the
// command line, and wires them to a session.
package app

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/core/journal"
	"allot/core/session"
	timesource "allot/internal/clock"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// Tabs, in their order: the table tabs (navigation.go) says what each is.
const (
	tabContracts = iota
	tabPools
	tabAllocation
	tabTransactions
	tabRequests
	tabPortal
)

// Options adjust the dashboard, for tests.
type Options struct {
	Now func() time.Time
	// Clock is the dashboard's time, read and waited on (a countdown);
	// nil is the wall clock. Now, when nil, reads it.
	Clock     timesource.Clock
	Clipboard widget.Clipboard
	Switch    session.Switch // the other profiles; none in tests unless set
}

// Model is the root model.
type Model struct {
	ctx  *views.Context
	opts Options
	keys keyMap
	help help.Model
	// footerDrawn is the last footer line and what it was drawn from.
	footerDrawn drawnFrom

	// stacks holds one page stack per tab: drilling down pushes, esc pops,
	// and a tab keeps its pages (and their cursors) while another is shown.
	stacks [][]views.Screen
	active int

	spin spinner.Model
	// spinning and ticking say whether the spinner's and the header
	// clock's ticks are running: they run only while there is something
	// to animate, so an idle dashboard draws nothing.
	spinning, ticking bool
	cmdline           textinput.Model
	commandH          string   // completion hint
	poolNames         namesMsg // the token's pools, for completion
	contractNames     namesMsg // the token's contracts, for completion
	// mode is what takes the keys: the screens, or one thing over them
	// (help, the error details, the command line, a question). One
	// value, so that two can never both be on.
	mode mode
	// quitShown says the last frame showed the quit question: y answers
	// only a question that was read.
	quitShown bool
	// switchAsk is the profile modeSwitch's question asks to switch to,
	// as switching drops switchLost; switchShown says the last frame showed the
	// question whole (see profile.go).
	switchAsk   string
	switchLost  []loss
	switchShown bool
	// sight tells the screens' questions whether the frame shows them.
	sight widget.Sight

	status    string
	statusErr bool
	// statusPage is the page an error on the status line is about: it is
	// shown only while that page is, and stays under E. nil: an error
	// about the dashboard (a warning, a profile without tokens), shown on
	// every page.
	statusPage views.Screen
	statusSeq  int // numbers informational lines, which fade after statusLife
	// keysSeen counts the keys pressed; errAtKey is the count when the
	// error on the status line was shown. A page's news, while no key
	// was pressed since, does not replace that error: it may be the
	// answer to the last key, which the news would hide in the frame it
	// is drawn in.
	keysSeen, errAtKey int
	lapseSaid          bool // the status line said the unlock is about to lapse (warnLapse)
	lastErr            error
	warnings           warnings      // the session's, kept under E
	page               widget.Scroll // the help or the error details, when shown

	// switching is the profile being opened; following the transactions
	// followed until final (by hash), which keep the session in use;
	// closing counts the sessions switched away from that are closing.
	switching string
	following map[string]bool
	closing   sync.WaitGroup

	// seeding is the embedded sandbox's session while it still seeds in
	// the background: a screen waiting for it says so.
	seeding *session.Session

	// refreshGen numbers the refresh's rhythms, armed anew on a profile
	// switch and a resume; refreshPaused is p's (refresh.go).
	refreshGen    int
	refreshPaused bool
	// head is the node's head at the last refresh of the chain's numbers,
	// when headKnown (head.go).
	head      uint64
	headKnown bool

	width, height int
	// late is where the late tabs' first loads are (late.go).
	late lateState
}

// New returns the dashboard for s.
func New(s *session.Session, opts Options) *Model {
	now, c := opts.Now, opts.Clock
	switch {
	case now == nil && c != nil:
		now = c.Now
	case now == nil:
		now = s.Now
	}
	clip := opts.Clipboard
	if clip.Out == nil {
		clip = widget.TerminalClipboard()
	}
	var j *journal.Journal
	warnings := s.Warnings
	if s.StateDir != "" {
		var err error
		if j, err = journal.Open(s.StateDir); err != nil {
			warnings = append(warnings, err.Error()+": nothing is journaled")
		} else {
			warnings = append(warnings, j.Warnings()...)
		}
	}
	token := ""
	if len(s.TokenIDs) > 0 {
		token = s.TokenIDs[0]
	}
	m := &Model{
		ctx: &views.Context{Session: s, Now: now, Clock: c, Styles: widget.DefaultStyles(), Clipboard: clip, Journal: j, Token: token,
			Recorder: s.Recorder(j), Wallet: &session.Wallet{}},
		opts:    opts,
		keys:    defaultKeys(),
		help:    newHelp(),
		spin:    spinner.New(spinner.WithSpinner(spinner.MiniDot)),
		cmdline: newCommandLine(),
	}
	m.ctx.Sight = &m.sight
	m.ctx.Begin()
	m.stacks = make([][]views.Screen, len(tabs))
	m.buildTabs()
	if len(warnings) > 0 {
		m.warn(warnings)
	}
	if token == "" {
		m.status, m.statusErr = "the profile lists no tokens: add tokens = [\"ID\"] to it, or use :token ID", true
	}
	return m
}

// Init loads every tab at once, so switching shows data without waiting.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(append(m.initTabs(), m.animate(), m.waitSeeded(), m.armRefresh())...)
}

// seededMsg says the embedded sandbox of session has seeded its world,
// or why it could not.
type seededMsg struct {
	session *session.Session
	err     error
}

// waitSeeded waits for the embedded sandbox's background seed; nil on a
// real deployment. The wait ends when the session closes at the latest.
func (m *Model) waitSeeded() tea.Cmd {
	s := m.ctx.Session
	if s.Seeded == nil {
		return nil
	}
	m.seeding = s
	root := m.ctx.Root()
	return func() tea.Msg { return seededMsg{s, s.Seeded(root)} }
}

func (m *Model) busy() bool {
	if m.switching != "" {
		return true
	}
	for _, stack := range m.stacks {
		for _, s := range stack {
			if s.Mode().Busy {
				return true
			}
		}
	}
	return false
}

// writing reports whether a screen has a write on its way (Mode.Writing).
func (m *Model) writing() bool {
	for _, stack := range m.stacks {
		for _, s := range stack {
			if s.Mode().Writing {
				return true
			}
		}
	}
	return false
}

func (m *Model) resize() {
	w, h := m.bodySize()
	m.ctx.Compact = m.compact()
	for _, stack := range m.stacks {
		for _, s := range stack {
			s.SetSize(w, h)
		}
	}
	m.help.Width = m.width
	m.fillPage()
}

// openPage covers the screens with the help or the error details (m,
// modeHelp or modeErr), scrolled to its top.
func (m *Model) openPage(c mode) {
	m.setMode(c)
	m.fillPage()
	m.page.Home()
}

// fillPage lays out the help or the error details, whichever is shown, in
// the body's size: they scroll when taller.
func (m *Model) fillPage() {
	w, h := m.bodySize()
	var lines []string
	switch m.mode {
	case modeHelp:
		lines = strings.Split(m.fullHelp(), "\n") // columns: cut at the width, not wrapped
	case modeErr:
		text := m.lastErr.Error()
		if _, own := m.lastErr.(warnings); !own && len(m.warnings) > 0 {
			// A later error took the status line from the warnings: they
			// stay here.
			text += "\n\n" + m.warnings.Error()
		}
		lines = strings.Split(widget.Page("Error details (E to close)\n\n"+sanitize.Block(text), w, 0), "\n")
	default:
		return
	}
	m.page.Styles = m.ctx.Styles
	m.page.SetLines(lines)
	m.page.SetSize(w, h)
}

// animate starts the spinner when work starts, and the header's clock
// when there is a countdown to show; each stops itself when it has
// nothing left to show.
func (m *Model) animate() tea.Cmd {
	var cmds []tea.Cmd
	if !m.spinning && m.busy() {
		m.spinning = true
		cmds = append(cmds, m.spin.Tick)
	}
	if !m.ticking && m.counting() {
		m.ticking = true
		cmds = append(cmds, clockTick())
	}
	return tea.Batch(cmds...)
}

// counting says whether the header shows a countdown or an age: an
// account is unlocked, or was, or the screen on show says how old its
// data is.
func (m *Model) counting() bool {
	addr, _, _ := m.walletParts()
	return addr != "" || m.freshness() != nil
}

// headerTick redraws the header's countdowns, once a second.
type headerTick struct{}

func clockTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return headerTick{} })
}

// View draws the dashboard. Every frame goes through the sight, so that
// a question is answered only while the frame shows it whole.
func (m *Model) View() string {
	return m.sight.Frame(m.view)
}

func (m *Model) view() string {
	m.quitShown, m.switchShown = false, false
	if m.width == 0 {
		return ""
	}
	if m.tooSmall() {
		view, asked := tooSmallNotice(m.width, m.height, m.mode == modeQuit)
		m.quitShown = asked
		return view
	}
	m.quitShown = m.mode == modeQuit // the status line asks it
	m.switchShown = m.mode == modeSwitch && lipgloss.Width(m.switchQuestion()) <= m.width
	var body string
	switch {
	case m.mode.covers():
		body = strings.Join(m.page.View(), "\n")
	default:
		body = m.top().View()
	}
	return m.frame(body)
}

// tokenLabel names the current token: its name and symbol where the
// profile or the embedded sandbox gives them (the interface has no call
// that does), its id shortened otherwise. short keeps the symbol alone.
func (m *Model) tokenLabel(short bool) string {
	n, ok := m.ctx.Session.TokenName(m.ctx.Token)
	switch {
	case !ok:
		return shortID(m.ctx.Token)
	case short:
		return n.Short()
	}
	return n.String()
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
}
