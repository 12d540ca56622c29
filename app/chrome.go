package app

// The chrome: what the dashboard draws around a screen. From 80x24 the full
// layout has a header line, a tabs line with the breadcrumb, and detail
// panes beside or under the tables; below that, down to 60x20, the compact
// layout has one top line, no detail panes (enter opens a row's details)
// and a shorter footer, as k9s does in small terminals. Below 60x20 only a
// notice is drawn.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
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
	return strings.Join(append(top, fit(body, m.width, h), m.statusLine(), m.footer()), "\n")
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

// fit cuts or pads s to exactly h lines of at most w cells.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			lines[i] = truncateANSI(l, w)
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

var (
	headerStyle  = lipgloss.NewStyle().Bold(true)
	sandboxStyle = lipgloss.NewStyle().Bold(true).Reverse(true)
	activeTab    = lipgloss.NewStyle().Bold(true).Underline(true)
	errStyle     = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"})
)

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
	return fit(join(parts, at, sep), width, 1)
}

// shorten takes steps until the parts fit width, and returns the form
// each part is at.
func shorten(parts []forms, steps []int, sep string, width int) []int {
	at := make([]int, len(parts))
	for _, s := range steps {
		if lipgloss.Width(join(parts, at, sep)) <= width {
			break
		}
		at[s] = min(at[s]+1, len(parts[s])-1)
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
	partBusy
)

// headerParts are the header's parts in every form the width may ask for.
func (m *Model) headerParts() []forms {
	parts := make([]forms, partBusy+1)
	parts[partBrand] = forms{headerStyle.Render("allot"), ""}
	parts[partProfile], parts[partBadge] = profileParts(m.ctx.Session.Name, m.ctx.Session.Sandbox)
	if m.ctx.Token != "" {
		parts[partToken] = forms{"token " + m.tokenLabel(false), "token " + m.tokenLabel(true), m.tokenLabel(true)}
	}
	if addr, state, portal := m.walletParts(); addr != "" {
		tail := ""
		if portal != "" {
			tail = " · portal " + portal
		}
		parts[partWallet] = forms{addr + " " + state + tail, state + tail}
	}
	if m.busy() {
		parts[partBusy] = forms{m.spin.View() + " loading", m.spin.View()}
	}
	return parts
}

// profileParts are the header's profile name and SANDBOX badge, in their
// forms.
func profileParts(name string, sandbox bool) (profile, badge forms) {
	name = sanitize.Line(name)
	profile = forms{"profile " + name, name}
	if sandbox {
		badge = forms{sandboxStyle.Render(" SANDBOX "), sandboxStyle.Render("SANDBOX")}
		if strings.EqualFold(name, "sandbox") {
			// The badge says it already.
			profile = append(profile, "")
		}
	}
	return profile, badge
}

// headerSteps is the order in which the header's parts give up room: what
// the user must always see (the profile, SANDBOX, the countdowns) last.
var headerSteps = []int{partToken, partBusy, partBrand, partProfile, partBadge, partToken, partProfile, partWallet}

// compactSteps is headerSteps for the compact top line, which has the
// page's name to fit beside: the token's name gives way after the
// profile's ("sandbox" beside the SANDBOX badge says nothing more).
var compactSteps = []int{partBusy, partProfile, partProfile, partToken, partBadge, partToken, partWallet}

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
	return fit(trail(crumbs, room)+sep+head, m.width, 1)
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
		crumbs[0] = activeTab.Render(fmt.Sprintf("%d %s", m.active+1, tabNames[m.active]))
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
	return fit(line, m.width, 1)
}

// Ways to draw the tabs, from the widest.
const (
	tabsSpaced  = iota // " 1 Contracts  [2 Pools]  3 Allocation "
	tabsTight          // "1 Contracts [2 Pools] 3 Allocation"
	tabsNumbers        // "1 [2 Pools] 3"
)

func (m *Model) tabLabels(style int) string { return tabLabels(m.active, style) }

// tabLabels draws the tabs in style, active the current one.
func tabLabels(active, style int) string {
	var parts []string
	for i, name := range tabNames {
		label := fmt.Sprintf("%d %s", i+1, name)
		switch {
		case i == active:
			label = activeTab.Render("[" + label + "]")
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
	state = "locked (u)"
	if ok {
		state = "unlocked " + countdown(left)
	}
	hex := a.Hex()
	if _, sess, ok := m.ctx.Wallet.Portal(m.ctx.Now()); ok {
		portal = countdown(sess.TimeLeft(m.ctx.Now()))
	}
	return hex[:6] + "…" + hex[len(hex)-4:], state, portal
}

// countdown writes d as m:ss.
func countdown(d time.Duration) string {
	d = max(d.Round(time.Second), 0)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

func (m *Model) statusLine() string {
	status, isErr := m.shownStatus()
	switch {
	case m.cmdline.Focused():
		line := m.cmdline.View()
		if m.commandH != "" {
			line += "  " + m.ctx.Styles.Muted.Render(m.commandH)
		}
		return fit(line, m.width, 1)
	case m.quitting:
		return fit(quitQuestion, m.width, 1)
	case m.switchAsk != "":
		return fit(m.switchQuestion(), m.width, 1)
	case status == "" && m.seeding == m.ctx.Session && m.busy():
		return fit(m.spin.View()+" the sandbox is still seeding…", m.width, 1)
	case status == "":
		return ""
	case isErr:
		hint := ""
		if m.lastErr != nil {
			hint = "  (E: details)"
		}
		// A long line is cut before the hint, which stays in sight.
		line := fit(errStyle.Render("✗ "+status), max(m.width-lipgloss.Width(hint), 1), 1)
		return fit(line+hint, m.width, 1)
	}
	return fit(status, m.width, 1)
}

// pageKeys are the keys of the help and the error details.
var pageKeys = []key.Binding{
	key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓/pgup/pgdn", "scroll")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
}

// footer shows the screen's keys, then the global ones. The help key is
// always there; the other global keys go before any of the screen's own,
// and when the screen's do not fit, their descriptions lose their small
// words ("/ i type id"), then their long tails ("D start" for "D start
// distribution"); those still left out are marked "…": the help lists
// them all.
func (m *Model) footer() string {
	if m.showHelp || m.showErr {
		return fit(m.help.ShortHelpView(pageKeys), m.width, 1)
	}
	var local []key.Binding
	for _, b := range m.top().ShortHelp() {
		if b.Enabled() {
			local = append(local, b)
		}
	}
	global := withoutKeysOf(m.keys.short(m.top().Mode().TakesKeys), local)
	line, n := m.keyLine(local, global)
	for _, shorter := range [][]key.Binding{terse(local), headWords(terse(local))} {
		if n == len(local) {
			break
		}
		if short, k := m.keyLine(shorter, global); k > n {
			line, n = short, k
		}
	}
	return fit(line, m.width, 1)
}

// withoutKeysOf leaves out of global the bindings whose keys a screen's
// own bindings take (a review's "n/esc no" is what esc does there, not
// "esc back"); the first, help, always stays.
func withoutKeysOf(global, local []key.Binding) []key.Binding {
	taken := map[string]bool{}
	for _, b := range local {
		for _, k := range b.Keys() {
			taken[k] = true
		}
	}
	out := global[:1:1]
	for _, b := range global[1:] {
		if !slices.ContainsFunc(b.Keys(), func(k string) bool { return taken[k] }) {
			out = append(out, b)
		}
	}
	return out
}

// keyLine draws local's keys, as many as fit whole, then global's: its
// first (help) always, the others only after every key of local. n is
// the number of local's keys drawn.
func (m *Model) keyLine(local, global []key.Binding) (line string, n int) {
	sep := m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator)
	room := m.width - lipgloss.Width(m.help.ShortHelpView(global[:1]))
	if len(local) > 0 {
		room -= lipgloss.Width(sep)
	}
	shown, n := m.wholeKeys(local, room)
	keys := global[:1]
	if n == len(local) {
		// The other global keys, as many as the line leaves room for.
		for n := len(global); n > 1; n-- {
			if lipgloss.Width(shown)+lipgloss.Width(sep)+lipgloss.Width(m.help.ShortHelpView(global[:n])) <= m.width {
				keys = global[:n]
				break
			}
		}
	}
	if shown == "" {
		return m.help.ShortHelpView(keys), 0
	}
	return shown + sep + m.help.ShortHelpView(keys), n
}

// terse is bindings with the small words (a, an, the, one) left out of
// their descriptions: "type id" for "type an id", "look up" for "look one
// up". Cut to its first word, a description read oddly ("/ i type",
// "enter look", "n new"); without its small words it still says what the
// key does.
func terse(bindings []key.Binding) []key.Binding {
	out := make([]key.Binding, len(bindings))
	for i, b := range bindings {
		out[i] = b
		words := strings.Fields(b.Help().Desc)
		kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool {
			switch w {
			case "a", "an", "the", "one":
				return true
			}
			return false
		})
		if len(kept) > 0 && len(kept) < len(words) {
			out[i] = withHelp(b, strings.Join(kept, " "))
		}
	}
	return out
}

// longTail is how long, in letters, what follows a description's first
// word must be for headWords to drop it.
const longTail = 7

// headWords is bindings with each description cut to its first word where
// what is cut is long, the thing the screen is about ("start distribution"
// on the contracts), but not a short word the verb needs to be read ("type
// id", "look up", "new lookup"), nor where two would then read the same
// ("detail up", "detail down").
func headWords(bindings []key.Binding) []key.Binding {
	out := make([]key.Binding, len(bindings))
	seen := map[string]int{}
	for _, b := range bindings {
		head, _, _ := strings.Cut(b.Help().Desc, " ")
		seen[head]++
	}
	for i, b := range bindings {
		out[i] = b
		head, tail, _ := strings.Cut(b.Help().Desc, " ")
		if seen[head] == 1 && len([]rune(strings.ReplaceAll(tail, " ", ""))) >= longTail {
			out[i] = withHelp(b, head)
		}
	}
	return out
}

// wholeKeys shows as many of the bindings as fit in width, whole, and an
// ellipsis when some are left out: a binding cut in the middle ("←…")
// says nothing. n is how many it shows. (help.Model's own Width adds a
// binding anyway when the ellipsis does not fit, so the count is ours.)
func (m *Model) wholeKeys(bindings []key.Binding, width int) (line string, n int) {
	var enabled []key.Binding
	for _, b := range bindings {
		if b.Enabled() {
			enabled = append(enabled, b)
		}
	}
	sep := lipgloss.Width(m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator))
	ellipsis := " " + m.help.Styles.Ellipsis.Render(m.help.Ellipsis)
	// ends[n] is the width of the first n bindings drawn together.
	ends := make([]int, len(enabled)+1)
	for i, b := range enabled {
		ends[i+1] = ends[i] + lipgloss.Width(m.help.ShortHelpView([]key.Binding{b}))
		if i > 0 {
			ends[i+1] += sep
		}
	}
	if ends[len(enabled)] <= width {
		return m.help.ShortHelpView(enabled), len(enabled)
	}
	for n := len(enabled) - 1; n > 0; n-- {
		if ends[n]+lipgloss.Width(ellipsis) <= width {
			return m.help.ShortHelpView(enabled[:n]) + ellipsis, n
		}
	}
	return "", 0
}

// helpColumns lays groups of keys out side by side as far as the width
// goes, then on further rows, so that no key is cut at 80 columns.
func (m *Model) helpColumns(groups [][]key.Binding) string {
	const gap = "    "
	var rows []string
	var row []string
	rowWidth := 0
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		block := m.help.FullHelpView([][]key.Binding{g})
		w := lipgloss.Width(block)
		if len(row) > 0 && rowWidth+len(gap)+w > m.width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowWidth = nil, 0
		}
		if len(row) > 0 {
			row = append(row, gap)
			rowWidth += len(gap)
		}
		row = append(row, block)
		rowWidth += w
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}

func (m *Model) fullHelp() string {
	var b strings.Builder
	b.WriteString(headerStyle.Render("Keys") + "  (?, f1 or esc to close)\n\n")
	b.WriteString(m.helpColumns(m.keys.full()))
	b.WriteString("\n\n" + headerStyle.Render(sanitize.Line(m.top().Title())) + "\n")
	b.WriteString(m.helpColumns(m.top().FullHelp()))
	b.WriteString("\n\n" + headerStyle.Render("Commands") + " (: then tab completes)\n")
	var names []string
	for _, c := range commands {
		names = append(names, ":"+strings.TrimSpace(c.name+" "+c.args))
	}
	b.WriteString(wrapWords(names, " · ", m.width))
	b.WriteString("\n\n" + headerStyle.Render("Terminal size") + "\n")
	b.WriteString(wrapWords(strings.Fields(layoutHelp), " ", m.width))
	return b.String()
}

// layoutHelp tells what each terminal size gets.
var layoutHelp = fmt.Sprintf("From %dx%d the full layout, with detail panes beside or under the tables; down to %dx%d a compact one, where d (or enter) opens a row's details; below that only a notice.",
	FullWidth, FullHeight, MinWidth, MinHeight)
