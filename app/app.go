// Package app is the dashboard: the root Bubble Tea model that holds the
// screens of views/, the header, the tabs, the status line, help and the
// command line, and wires them to a session.
package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/api"
	"allot/internal/journal"
	"allot/internal/sanitize"
	"allot/internal/session"
	"allot/views"
	"allot/views/browse"
	"allot/views/holder"
	"allot/views/reopen"
	"allot/views/transactions"
	"allot/views/widget"
)

// Tabs.
const (
	tabContracts = iota
	tabPools
	tabAllocation
	tabTransactions
	tabRequests
	tabPortal
)

var tabNames = []string{"Contracts", "Pools", "Allocation", "Transactions", "Requests", "Portal"}

// statusLife is how long an informational status line stays.
const statusLife = 6 * time.Second

// clearStatus fades the informational status line numbered seq.
type clearStatus struct{ seq int }

// Run shows the dashboard on the terminal until the user quits; sw opens
// the configuration's other profiles (:profile).
func Run(ctx context.Context, s *session.Session, sw session.Switch) error {
	m := New(s, Options{Switch: sw})
	err := run(ctx, m, s.StateDir, tea.WithAltScreen())
	// The sessions switched away from are closing; the caller closes s,
	// the dashboard the one it switched to.
	m.closing.Wait()
	if m.ctx.Session != s {
		m.ctx.Session.Close()
	}
	return err
}

// Options adjust the dashboard, for tests.
type Options struct {
	Now       func() time.Time
	Clipboard widget.Clipboard
	Switch    session.Switch // the other profiles; none in tests unless set
}

// Model is the root model.
type Model struct {
	ctx  *views.Context
	opts Options
	keys keyMap
	help help.Model

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
	commandH          string       // completion hint
	poolNames         poolNamesMsg // the token's pools, for completion
	showHelp          bool
	quitting          bool // asking whether to quit with work running
	// quitShown says the last frame showed the quit question: y answers
	// only a question that was read.
	quitShown bool
	// switchAsk is the profile a question asks to switch to, as switching
	// drops switchLost; switchShown says the last frame showed the
	// question whole (see profile.go).
	switchAsk   string
	switchLost  []loss
	switchShown bool
	// sight tells the screens' questions whether the frame shows them.
	sight widget.Sight

	status    string
	statusErr bool
	statusSeq int // numbers informational lines, which fade after statusLife
	lastErr   error
	warnings  warnings      // the session's, kept under E
	showErr   bool          // the details of lastErr cover the screen; never without one (setErr)
	page      widget.Scroll // the help or the error details, when shown

	// switching is the profile being opened; following the transactions
	// followed until final (by hash), which keep the session in use;
	// closing counts the sessions switched away from that are closing.
	switching string
	following map[string]bool
	closing   sync.WaitGroup

	// seeding is the embedded sandbox's session while it still seeds in
	// the background: a screen waiting for it says so.
	seeding *session.Session

	width, height int
}

// New returns the dashboard for s.
func New(s *session.Session, opts Options) *Model {
	now := opts.Now
	if now == nil {
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
		ctx: &views.Context{Session: s, Now: now, Styles: widget.DefaultStyles(), Clipboard: clip, Journal: j, Token: token,
			Recorder: s.Recorder(j), Wallet: &session.Wallet{}},
		opts:    opts,
		keys:    defaultKeys(),
		help:    help.New(),
		spin:    spinner.New(spinner.WithSpinner(spinner.MiniDot)),
		cmdline: newCommandLine(),
	}
	m.stacks = make([][]views.Screen, len(tabNames))
	m.buildTabs()
	if len(warnings) > 0 {
		m.warn(warnings)
	}
	if token == "" {
		m.status, m.statusErr = "the profile lists no tokens: add tokens = [\"ID\"] to it, or use :token ID", true
	}
	return m
}

// warnings are the session's warnings, printed before the dashboard took
// the screen.
type warnings []string

func (w warnings) Error() string { return "Warnings when allot started:\n" + strings.Join(w, "\n") }

// warn shows the session's warnings: the first on the status line, all
// under E, there also below any later error.
func (m *Model) warn(w warnings) {
	m.warnings = w
	m.status, m.statusErr = "warning: "+sanitize.Line(w[0]), true
	if len(w) > 1 {
		// The count first: a long first warning is cut at the width.
		m.status = fmt.Sprintf("%d warnings: %s", len(w), sanitize.Line(w[0]))
	}
	m.setErr(w)
}

// buildTabs makes the root screen of every tab for the current token.
func (m *Model) buildTabs() {
	m.stacks[tabContracts] = []views.Screen{browse.NewContracts(m.ctx)}
	m.stacks[tabPools] = []views.Screen{browse.NewPools(m.ctx)}
	if m.stacks[tabAllocation] == nil {
		m.stacks[tabAllocation] = []views.Screen{holder.NewAllocation(m.ctx)}
		m.stacks[tabTransactions] = []views.Screen{transactions.New(m.ctx, reopen.Unknown)}
		m.stacks[tabRequests] = []views.Screen{browse.NewRequests(m.ctx)}
		m.stacks[tabPortal] = []views.Screen{holder.NewPortal(m.ctx)}
	}
}

func (m *Model) top() views.Screen {
	stack := m.stacks[m.active]
	return stack[len(stack)-1]
}

// Init loads every tab at once, so switching shows data without waiting.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	for _, stack := range m.stacks {
		cmds = append(cmds, stack[0].Init())
	}
	return tea.Batch(append(cmds, m.animate(), m.waitSeeded())...)
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
	return func() tea.Msg { return seededMsg{s, s.Seeded(context.Background())} }
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

// openPage shows the help or the error details (flag says which) from
// their first line.
func (m *Model) openPage(flag *bool) {
	*flag = true
	m.fillPage()
	m.page.Home()
}

// fillPage lays out the help or the error details, whichever is shown, in
// the body's size: they scroll when taller.
func (m *Model) fillPage() {
	w, h := m.bodySize()
	var lines []string
	switch {
	case m.showHelp:
		lines = strings.Split(m.fullHelp(), "\n") // columns: cut at the width, not wrapped
	case m.showErr:
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
	if m.quitting && !m.busy() {
		// The work the question waited for has finished: the question
		// goes, and the program stays, so that its outcome (a failure, a
		// transaction created) is seen before anyone quits.
		m.quitting = false
		m.status, m.statusErr = quitWorkDone, false
	}
	return model, tea.Batch(cmd, next, m.animate())
}

// quitWorkDone replaces the quit question once nothing runs any more.
const quitWorkDone = "The work finished; nothing is running now: q quits."

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

// counting says whether the header shows a countdown: an account is
// unlocked, or was.
func (m *Model) counting() bool {
	addr, _, _ := m.walletParts()
	return addr != ""
}

// headerTick redraws the header's countdowns, once a second.
type headerTick struct{}

func clockTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return headerTick{} })
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if st, ok := msg.(views.TxStatusMsg); ok {
		m.track(st) // and every screen sees it, below
	}
	switch msg := msg.(type) {
	case profileOpened:
		return m, m.profileSwitched(msg)
	case seededMsg:
		if msg.session != m.seeding {
			return m, nil
		}
		m.seeding = nil
		if msg.session == m.ctx.Session && msg.err != nil && !errors.Is(msg.err, context.Canceled) {
			return m, m.fail("the embedded sandbox could not finish seeding", msg.err)
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
		return m, clockTick()
	case spinner.TickMsg:
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case views.NavigateMsg:
		w, h := m.bodySize()
		msg.Screen.SetSize(w, h)
		m.stacks[m.active] = append(m.stacks[m.active], msg.Screen)
		return m, msg.Screen.Init()
	case views.ErrorMsg:
		return m, m.fail(msg.Op, msg.Err)
	case widget.StatusMsg:
		if msg.Error {
			m.status, m.statusErr = msg.Text, true // it stays until the next action
			m.setErr(nil)
			return m, nil
		}
		return m, m.inform(msg.Text)
	case clearStatus:
		if msg.seq == m.statusSeq && !m.statusErr {
			m.status = ""
		}
		return m, nil
	case poolNamesMsg:
		if msg.token == m.ctx.Token {
			m.poolNames = msg
			if m.cmdline.Focused() && m.commandH == loadingPools {
				// tab was pressed while they loaded: complete now.
				m.completeCommand()
			}
		}
		return m, nil
	case openStakesMsg:
		if msg.err != nil {
			return m, m.fail("stakes", msg.err)
		}
		m.switchTab(tabPools)
		return m, func() tea.Msg { return views.NavigateMsg{Screen: browse.NewStakes(m.ctx, msg.pool)} }
	case views.BackMsg:
		if msg.Screen != nil {
			m.remove(msg.Screen)
		} else {
			m.pop()
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	}
	// Everything else (answers, ticks) goes to every screen: each drops
	// what is not its own.
	var cmds []tea.Cmd
	for _, stack := range m.stacks {
		for _, s := range stack {
			cmds = append(cmds, s.Update(msg))
		}
	}
	if m.cmdline.Focused() {
		var cmd tea.Cmd
		m.cmdline, cmd = m.cmdline.Update(msg)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.quitting {
		switch msg.String() {
		case "y", "Y":
			if m.quitShown {
				return tea.Quit
			}
			return nil
		default:
			m.quitting = false
			m.status = ""
			return nil
		}
	}
	if m.switchAsk != "" {
		return m.answerSwitch(msg)
	}
	if m.tooSmall() {
		// Keys reach no hidden page: a y must not answer a question, nor a
		// q be typed into a field, that nobody can see.
		if key.Matches(msg, m.keys.Quit) {
			return m.quit()
		}
		return nil
	}
	if m.cmdline.Focused() {
		return m.commandKey(msg)
	}
	// The help and the error details cover the screen: they take every
	// key, scroll, and close.
	if m.showHelp {
		if !m.page.Key(msg) && key.Matches(msg, m.keys.Help, m.keys.AnyHelp, m.keys.Back, m.keys.Quit) {
			m.showHelp = false
		}
		return nil
	}
	if m.showErr {
		if !m.page.Key(msg) && key.Matches(msg, m.keys.Details, m.keys.Back, m.keys.Quit) {
			m.showErr = false
		}
		return nil
	}
	if key.Matches(msg, m.keys.AnyHelp) {
		m.openPage(&m.showHelp)
		return nil
	}
	top := m.top()
	if top.Mode().TakesKeys {
		return top.Update(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help):
		m.openPage(&m.showHelp)
		return nil
	case key.Matches(msg, m.keys.Command):
		m.cmdline.SetValue("")
		m.commandH = ""
		m.cmdline.Focus()
		return tea.Batch(textinput.Blink, m.fetchPoolNames())
	case key.Matches(msg, m.keys.Back):
		return m.back(msg)
	case key.Matches(msg, m.keys.NextTab):
		return m.switchTab((m.active + 1) % len(tabNames))
	case key.Matches(msg, m.keys.PrevTab):
		return m.switchTab((m.active + len(tabNames) - 1) % len(tabNames))
	case key.Matches(msg, m.keys.Token):
		return m.nextToken()
	case key.Matches(msg, m.keys.Details):
		// A screen that failed to load shows that failure where its rows
		// would be: E details it, before the status line's last error.
		if f, ok := top.(interface{ LoadErr() error }); ok && f.LoadErr() != nil {
			m.lastErr = f.LoadErr()
		}
		if m.lastErr != nil {
			m.openPage(&m.showErr)
		}
		return nil
	case key.Matches(msg, m.keys.Unlock):
		return m.open(holder.NewUnlock(m.ctx))
	case key.Matches(msg, m.keys.Lock):
		return m.lock()
	}
	for i, k := range m.keys.Tabs {
		if key.Matches(msg, k) {
			return m.switchTab(i)
		}
	}
	return top.Update(msg)
}

// back closes the top page; on a tab's root page it lets the screen use
// esc (to clear a filter), then clears the status line.
func (m *Model) back(msg tea.KeyMsg) tea.Cmd {
	if m.top().Mode().OwnsEsc {
		return m.top().Update(msg)
	}
	if m.pop() {
		return nil
	}
	m.status = ""
	m.setErr(nil)
	return m.top().Update(msg)
}

func (m *Model) commandKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.cmdline.Blur()
		return nil
	case "enter":
		line := m.cmdline.Value()
		m.cmdline.Blur()
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
		m.quitting = true
		return nil
	}
	return tea.Quit
}

// pop closes the current tab's top page; a tab's root page stays.
// remove closes s in whichever tab holds it; a tab's first page stays.
func (m *Model) remove(s views.Screen) {
	for tab, stack := range m.stacks {
		for i := 1; i < len(stack); i++ {
			if stack[i] == s {
				m.stacks[tab] = append(stack[:i:i], stack[i+1:]...)
				return
			}
		}
	}
}

func (m *Model) pop() bool {
	stack := m.stacks[m.active]
	if len(stack) < 2 {
		return false
	}
	m.stacks[m.active] = stack[:len(stack)-1]
	return true
}

// inform shows an informational line, which fades after statusLife.
func (m *Model) inform(text string) tea.Cmd {
	m.status, m.statusErr = text, false
	m.setErr(nil)
	m.statusSeq++
	seq := m.statusSeq
	return tea.Tick(statusLife, func(time.Time) tea.Msg { return clearStatus{seq} })
}

// open shows s on top of the current tab.
func (m *Model) open(s views.Screen) tea.Cmd {
	return func() tea.Msg { return views.NavigateMsg{Screen: s} }
}

func (m *Model) switchTab(i int) tea.Cmd {
	m.active = i
	m.showHelp = false
	return nil
}

// fail shows err as one line; E shows the details.
func (m *Model) fail(op string, err error) tea.Cmd {
	m.statusErr = true
	m.status = op + ": " + oneLine(err)
	m.setErr(err)
	return nil
}

// setErr keeps err for E. The details, when shown, follow it: a newer
// error replaces what they show, and none closes them, so that they never
// show an error that is no longer the last.
func (m *Model) setErr(err error) {
	m.lastErr = err
	switch {
	case err == nil:
		m.showErr = false
	case m.showErr:
		m.fillPage()
	}
}

// oneLine is the first line of an error, which the api package already
// words for people; a 401 or 403 names the key and what to do.
func oneLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return sanitize.Line(msg)
}

// setToken switches every token-bound screen to id.
func (m *Model) setToken(id string) tea.Cmd {
	if err := api.CheckUUID("token", id); err != nil {
		return m.fail("token", err)
	}
	m.ctx.Token = id
	m.buildTabs()
	m.resize()
	m.status, m.statusErr = "token "+id, false
	return tea.Batch(m.stacks[tabContracts][0].Init(), m.stacks[tabPools][0].Init())
}

func (m *Model) nextToken() tea.Cmd {
	ids := m.ctx.Session.TokenIDs
	if len(ids) < 2 {
		return m.fail("token", errors.New("the profile lists one token; use :token ID for another"))
	}
	for i, id := range ids {
		if id == m.ctx.Token {
			return m.setToken(ids[(i+1)%len(ids)])
		}
	}
	return m.setToken(ids[0])
}

type openStakesMsg struct {
	pool api.Pool
	err  error
}

// openStakes finds a pool of the token by id or name and opens its stakes.
func (m *Model) openStakes(ref string) tea.Cmd {
	client, token := m.ctx.Session.API, m.ctx.Token
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		pools, err := client.AllPools(ctx, token)
		if err != nil {
			return openStakesMsg{err: err}
		}
		for _, p := range pools.Items {
			if p.ID == ref || strings.EqualFold(p.Name, ref) {
				return openStakesMsg{pool: p}
			}
		}
		return openStakesMsg{err: fmt.Errorf("no pool %q in this token", ref)}
	}
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
		view, asked := tooSmallNotice(m.width, m.height, m.quitting)
		m.quitShown = asked
		return view
	}
	m.quitShown = m.quitting && !m.cmdline.Focused() // the status line asks it
	m.switchShown = m.switchAsk != "" && !m.quitting && !m.cmdline.Focused() && lipgloss.Width(m.switchQuestion()) <= m.width
	var body string
	switch {
	case m.showHelp, m.showErr:
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
