package app

// The chrome: what the dashboard draws around a screen. From 80x24 the full
// layout has a header line, a tabs line with the breadcrumb, and detail
// panes beside or under the tables; below that, down to 60x20, the compact
// layout has one top line, no detail panes (enter opens a row's details)
// and a shorter footer, as k9s does in small terminals. Below 60x20 only a
// notice is drawn.

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/views/widget"
)

const (
	// MinWidth and MinHeight are the smallest terminal the dashboard
	// draws in, with the compact layout: every form and review fits there.
	MinWidth  = 60
	MinHeight = 20
	// FullWidth and FullHeight are the smallest terminal of the full
	// layout.
	FullWidth  = 80
	FullHeight = 24
)

// tooSmall says the terminal is smaller than the dashboard draws in: the
// page is hidden, and nothing on it may act.
func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// compact says the terminal is below the full layout.
func (m *Model) compact() bool { return m.width < FullWidth || m.height < FullHeight }

// bodySize is the room left to a screen by the chrome: the top line or
// lines, the status line and the footer.
func (m *Model) bodySize() (int, int) {
	top := 2
	if m.compact() {
		top = 1
	}
	return m.width, max(m.height-top-2, 1)
}

// frame draws the chrome around body.
func (m *Model) frame(body string) string {
	_, h := m.bodySize()
	top := []string{m.header(), m.tabs()}
	if m.compact() {
		top = []string{m.topLine()}
	}
	return strings.Join(append(top, widget.Fit(body, m.width, h), m.statusLine(), m.footer()), "\n")
}

// tooSmallNotice draws the notice shown instead of the page, with the quit
// question when it is asked; asked says whether the question fit whole.
func tooSmallNotice(w, h int, quitting bool) (view string, asked bool) {
	msg := fmt.Sprintf("Terminal too small: %dx%d.\nallot needs at least %dx%d.\nEnlarge the window, or press q to quit.", w, h, MinWidth, MinHeight)
	if quitting {
		msg = quitQuestion + "\n" + msg
	}
	lines := strings.Split(msg, "\n")
	asked = quitting && lipgloss.Width(quitQuestion) <= w && h >= 1
	for i, l := range lines {
		lines[i] = sanitize.Truncate(l, max(w, 1))
	}
	if len(lines) > h {
		lines = lines[:max(h, 1)]
	}
	return strings.Join(lines, "\n"), asked
}

// quitQuestion is asked before quitting while work runs.
const quitQuestion = "Work is still running. Quit anyway? (y/N)"

// wrapWords joins words with sep into lines of at most width cells.
func wrapWords(words []string, sep string, width int) string {
	var lines []string
	line := ""
	for _, w := range words {
		switch {
		case line == "":
			line = w
		case lipgloss.Width(line+sep+w) <= width:
			line += sep + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// forms are the ways to draw one part of a line, from the longest to the
// shortest; an empty form leaves the part out.
type forms []string

// shrink joins parts with sep, moving the part each step names to its
// next shorter form until the line fits width. When the shortest forms
// are still too wide, the part give is cut, so that the others (the
// countdowns) stay whole.
func shrink(parts []forms, steps []int, give int, sep string, width int) string {
	at := shorten(parts, steps, sep, width)
	if over := lipgloss.Width(join(parts, at, sep)) - width; over > 0 && give >= 0 && len(parts[give]) > 0 {
		p := parts[give][at[give]]
		parts[give] = forms{truncateANSI(p, max(lipgloss.Width(p)-over, 1))}
		at[give] = 0
	}
	return widget.Fit(join(parts, at, sep), width, 1)
}

// shorten takes steps until the parts fit width, then gives room back,
// the steps undone from the last (the most telling parts first), where
// the line still fits: a part shortened early is not left short when a
// later step made room enough. It returns the form each part is at.
func shorten(parts []forms, steps []int, sep string, width int) []int {
	at := make([]int, len(parts))
	fits := func() bool { return lipgloss.Width(join(parts, at, sep)) <= width }
	taken := 0
	for _, s := range steps {
		if fits() {
			break
		}
		at[s] = min(at[s]+1, len(parts[s])-1)
		taken++
	}
	for i := taken - 1; i >= 0; i-- {
		// The badge's padding says nothing: it is not given back where a
		// word could not be.
		if s := steps[i]; at[s] > 0 && s != partBadge {
			if at[s]--; !fits() {
				at[s]++
			}
		}
	}
	return at
}

// join draws each part in the form at says.
func join(parts []forms, at []int, sep string) string {
	var out []string
	for i, p := range parts {
		if len(p) > 0 && p[at[i]] != "" {
			out = append(out, p[at[i]])
		}
	}
	return strings.Join(out, sep)
}

// The parts of the header, in their order on the line.
const (
	partBrand = iota
	partProfile
	partBadge
	partToken
	partWallet
	partFresh
	partBusy
)

// headerParts are the header's parts in every form the width may ask for.
func (m *Model) headerParts() []forms {
	parts := make([]forms, partBusy+1)
	parts[partBrand] = forms{m.ctx.Styles.Brand.Render("allot"), ""}
	_, readOnly := m.ctx.Session.ReadOnly()
	parts[partProfile], parts[partBadge] = profileParts(m.ctx.Styles, m.ctx.Session.Name, m.ctx.Session.Sandbox, readOnly)
	if m.ctx.Token != "" {
		parts[partToken] = forms{"token " + m.tokenLabel(false), "token " + m.tokenLabel(true), m.tokenLabel(true), ""}
	}
	if addr, state, portal := m.walletParts(); addr != "" {
		tail := ""
		if portal != "" {
			tail = " · portal " + portal
		}
		parts[partWallet] = forms{addr + " " + state + tail, state + tail}
	}
	parts[partFresh] = m.freshness()
	if m.busy() {
		parts[partBusy] = forms{m.spin.View() + " loading", m.spin.View()}
	}
	return parts
}

// profileParts are the header's profile name and its badge (SANDBOX,
// READ-ONLY or both), in their forms.
func profileParts(styles widget.Styles, name string, sandbox, readOnly bool) (profile, badge forms) {
	name = sanitize.Line(name)
	profile = forms{"profile " + name, name}
	var words []string
	if sandbox {
		words = append(words, "SANDBOX")
	}
	if readOnly {
		words = append(words, "READ-ONLY")
	}
	if text := strings.Join(words, " "); text != "" {
		badge = forms{styles.Badge.Render(" " + text + " "), styles.Badge.Render(text)}
	}
	if sandbox {
		if strings.EqualFold(name, "sandbox") {
			// The badge says it already: short of room the name goes
			// whole, as a bare "sandbox" beside SANDBOX read as a header
			// cut at its start.
			profile = forms{"profile " + name, ""}
		}
	}
	return profile, badge
}

// headerSteps is the order in which the header's parts give up room, the
// least telling first: the token's long name, the words around the
// spinner and the rows' age, the badge's padding, the account's address
// (the countdowns stay), the age of rows that are not stale; the start of
// the line ("allot │ profile sandbox") only then, and SANDBOX and the
// countdowns never.
var headerSteps = []int{partToken, partBusy, partFresh, partBadge, partToken, partWallet, partFresh, partBrand, partProfile}

// compactSteps is headerSteps for the compact top line, which has the
// page's name to fit beside: the profile's name goes first ("sandbox"
// beside the SANDBOX badge says nothing more), and the token's symbol
// last of all, before the page's name would be cut.
var compactSteps = []int{partBusy, partFresh, partProfile, partProfile, partToken, partBadge, partToken, partWallet, partFresh, partToken}

func (m *Model) header() string {
	return shrink(m.headerParts(), headerSteps, partProfile, " │ ", m.width)
}

// topLine is the compact layout's one line: where the user is, then the
// header without the brand. The header's shortest forms (the countdowns)
// come first, then the page on show (the whole trail when short), then
// the header's longer forms, and the pages before it last.
func (m *Model) topLine() string {
	const sep = " │ "
	parts := m.headerParts()
	parts[partBrand] = nil
	crumbs := m.crumbs(true)
	shortest := lipgloss.Width(join(parts, shorten(parts, compactSteps, sep, -1), sep))
	// The page on show, or the whole trail when it takes a third of the
	// line at most.
	page := lipgloss.Width(strings.Join(crumbs, crumbSep))
	if len(crumbs) > 1 && page > m.width/3 {
		page = lipgloss.Width(crumbsCut + crumbs[len(crumbs)-1])
	}
	page = max(min(page, m.width-lipgloss.Width(sep)-shortest), 0)
	head := shrink(parts, compactSteps, partProfile, sep, max(m.width-lipgloss.Width(sep)-page, 1))
	room := m.width - lipgloss.Width(head) - lipgloss.Width(sep)
	return widget.Fit(trail(crumbs, room)+sep+head, m.width, 1)
}

// crumbs are the titles of the current tab's pages; inTab puts the tab's
// number and name, styled as the active tab, in place of the first.
func (m *Model) crumbs(inTab bool) []string {
	stack := m.stacks[m.active]
	var crumbs []string
	for _, s := range stack {
		crumbs = append(crumbs, sanitize.Line(s.Title()))
	}
	if inTab {
		crumbs[0] = m.ctx.Styles.ActiveTab.Render(fmt.Sprintf("%d %s", m.active+1, tabs[m.active].name))
	}
	return crumbs
}

// crumbSep separates a breadcrumb's titles; crumbsCut stands for those
// left out on the left.
const (
	crumbSep  = " › "
	crumbsCut = "…" + crumbSep
)

// trail draws crumbs in width cells: the first ones give way (…) so that
// the current page stays whole, and it alone is cut when it cannot.
func trail(crumbs []string, width int) string {
	if width <= 0 {
		return ""
	}
	for i := range crumbs {
		s := strings.Join(crumbs[i:], crumbSep)
		if i > 0 {
			s = crumbsCut + s
		}
		if lipgloss.Width(s) <= width {
			return s
		}
	}
	return truncateANSI(crumbs[len(crumbs)-1], width)
}

// trailFits says whether trail keeps the current page whole in width.
func trailFits(crumbs []string, width int) bool {
	last := crumbs[len(crumbs)-1]
	if len(crumbs) > 1 {
		last = crumbsCut + last
	}
	return lipgloss.Width(last) <= width
}

// tabs draws the tabs and, on a page opened from a tab, the breadcrumb:
// the tabs draw closer, then name the current one only, to leave the
// breadcrumb's current page room.
func (m *Model) tabs() string {
	const gap = "   "
	var line string
	for _, style := range []int{tabsSpaced, tabsTight, tabsNumbers} {
		line = m.tabLabels(style)
		if len(m.stacks[m.active]) < 2 {
			if lipgloss.Width(line) <= m.width {
				break
			}
			continue
		}
		if trailFits(m.crumbs(false), m.width-lipgloss.Width(line)-len(gap)) {
			break
		}
	}
	if len(m.stacks[m.active]) > 1 {
		line += gap + trail(m.crumbs(false), m.width-lipgloss.Width(line)-len(gap))
	}
	return widget.Fit(line, m.width, 1)
}

// Ways to draw the tabs, from the widest.
const (
	tabsSpaced  = iota // " 1 Contracts  [2 Pools]  3 Allocation "
	tabsTight          // "1 Contracts [2 Pools] 3 Allocation"
	tabsNumbers        // "1 [2 Pools] 3"
)

func (m *Model) tabLabels(style int) string { return tabLabels(m.ctx.Styles, m.active, style) }

// tabLabels draws the tabs in style, active the current one.
func tabLabels(styles widget.Styles, active, style int) string {
	var parts []string
	for i, t := range tabs {
		label := fmt.Sprintf("%d %s", i+1, t.name)
		switch {
		case i == active:
			label = styles.ActiveTab.Render("[" + label + "]")
		case style == tabsSpaced:
			label = " " + label + " "
		case style == tabsNumbers:
			label = fmt.Sprint(i + 1)
		}
		parts = append(parts, label)
	}
	return strings.Join(parts, " ")
}

// walletParts are the unlocked account, shortened, its state with the time
// it has left, and the portal session's time left ("" when none), so that
// a lock or an expiry is no surprise. All empty without an account.
func (m *Model) walletParts() (addr, state, portal string) {
	a, left, ok := m.ctx.Wallet.Account()
	if a == (common.Address{}) {
		return "", "", ""
	}
	state = unlockState(m.ctx.Styles, left, ok)
	hex := a.Hex()
	if _, sess, ok := m.ctx.Wallet.Portal(m.ctx.Now()); ok {
		portal = countdown(sess.TimeLeft(m.ctx.Now()))
	}
	return hex[:6] + "…" + hex[len(hex)-4:], state, portal
}

// lapseWarning is how long before the unlock lapses the header warns:
// time to finish a review, or to sign (which renews it).
const lapseWarning = time.Minute

// unlockState is the header's word on the account's unlock: how long it
// has left, and in its last minute that it is about to lock, in words
// and the error colour ("locks in 0:42"), so a signature in progress is
// not met by the passphrase question.
func unlockState(styles widget.Styles, left time.Duration, unlocked bool) string {
	switch {
	case !unlocked:
		return "locked (u)"
	case left < lapseWarning:
		return styles.Error.Render("locks in " + countdown(left))
	}
	return "unlocked " + countdown(left)
}

// warnLapse says on the status line, once an unlock, that it is in its
// last minute and what keeps it (the header's countdown says it too, but
// the eyes are on a review).
func (m *Model) warnLapse(left time.Duration, unlocked bool) tea.Cmd {
	switch {
	case !unlocked || left >= lapseWarning:
		m.lapseSaid = false
		return nil
	case m.lapseSaid:
		return nil
	}
	m.lapseSaid = true
	return m.inform("the account locks in under a minute: a signature renews it; once locked, u unlocks it again")
}

// countdown writes d as m:ss.
func countdown(d time.Duration) string {
	d = max(d.Round(time.Second), 0)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

func (m *Model) statusLine() string {
	status, isErr := m.shownStatus()
	switch {
	case m.mode == modeCommand:
		line := m.cmdline.View()
		if m.commandH != "" {
			line += "  " + m.ctx.Styles.Muted.Render(m.commandH)
		}
		return widget.Fit(line, m.width, 1)
	case m.mode == modeQuit:
		return widget.Fit(quitQuestion, m.width, 1)
	case m.mode == modeSwitch:
		return widget.Fit(m.switchQuestion(), m.width, 1)
	case status == "" && m.seeding == m.ctx.Session && m.busy():
		return widget.Fit(m.spin.View()+" the sandbox is still seeding…", m.width, 1)
	case status == "":
		return ""
	case isErr:
		hint := ""
		if m.lastErr != nil {
			hint = "  (E: details)"
		}
		// A long line is cut before the hint, which stays in sight.
		line := widget.Fit(m.ctx.Styles.Error.Render("✗ "+status), max(m.width-lipgloss.Width(hint), 1), 1)
		return widget.Fit(line+hint, m.width, 1)
	}
	return widget.Fit(status, m.width, 1)
}
