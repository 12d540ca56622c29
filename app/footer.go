package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// footer shows the screen's keys, then the global ones. The help key is
// always there; the other global keys go before any of the screen's own,
// and when the screen's do not fit, their descriptions lose their small
// words ("/ i type id"), then their long tails ("D start" for "D start
// distribution"); those still left out are marked "…": the help lists
// them all.
func (m *Model) footer() string {
	if m.mode.covers() {
		// The page's scroll (home/end too) only when it is taller than
		// the body, from the Scroll that answers those keys.
		return widget.Fit(m.help.ShortHelpView(m.pageKeys().ShortHelp()), m.width, 1)
	}
	var local []key.Binding
	for _, b := range m.top().Keys().ShortHelp() {
		if b.Enabled() {
			local = append(local, b)
		}
	}
	global := withoutKeysOf(m.globalKeys(m.top().Mode()).ShortHelp(), local)
	from := footerOf(m.width, local, global)
	if m.footerDrawn.from != from {
		m.footerDrawn = drawnFrom{from, m.drawKeys(local, global)}
	}
	return m.footerDrawn.line
}

// drawnFrom is a line drawn and what it was drawn from. A frame is drawn
// after every message, a spinner's tick too, and the keys seldom change
// between two: measuring every binding drawn alone and together again on
// each frame was a twelfth of the dashboard tests' CPU.
type drawnFrom struct{ from, line string }

// footerOf is what the footer is drawn from: the width, and each key's
// keys, help and whether it is enabled, the screen's then the global ones.
func footerOf(width int, local, global []key.Binding) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(width))
	for _, keys := range [][]key.Binding{local, global} {
		b.WriteByte('\x01')
		for _, k := range keys {
			fmt.Fprintf(&b, "%q %q %q %t\x00", k.Keys(), k.Help().Key, k.Help().Desc, k.Enabled())
		}
	}
	return b.String()
}

// drawKeys is the footer's line of the enabled keys local and global.
func (m *Model) drawKeys(local, global []key.Binding) string {
	line, n := m.keyLine(local, global)
	if n < len(local) {
		// Shortened only when the keys do not fit: not every frame.
		t := terse(local)
		for _, shorter := range [][]key.Binding{t, headWords(t)} {
			if short, k := m.keyLine(shorter, global); k > n {
				line, n = short, k
			}
			if n == len(local) {
				break
			}
		}
	}
	return widget.Fit(line, m.width, 1)
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
// ("detail up", "detail down"), nor a negation: "n/esc do" cut from "do
// not send" says the opposite.
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
		if seen[head] == 1 && len([]rune(strings.ReplaceAll(tail, " ", ""))) >= longTail && !negates(tail) {
			out[i] = withHelp(b, head)
		}
	}
	return out
}

// negates reports whether words hold a negation, which a shortened
// description must keep.
func negates(words string) bool {
	return slices.ContainsFunc(strings.Fields(words), func(w string) bool {
		switch strings.Trim(w, ",.:;()") {
		case "not", "no", "nothing", "never", "without":
			return true
		}
		return false
	})
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
		block := m.help.FullHelpView([][]key.Binding{fitted(g, m.width)})
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

// fitted is g with each description cut to what width leaves beside the
// group's widest key: the help drops a column wider than its width whole,
// leaving "…" for every key of the group, where one long description
// should lose only its own end.
func fitted(g []key.Binding, width int) []key.Binding {
	keyWidth := 0
	for _, b := range g {
		keyWidth = max(keyWidth, lipgloss.Width(b.Help().Key))
	}
	room := width - keyWidth - 1
	out := make([]key.Binding, len(g))
	for i, b := range g {
		if h := b.Help(); room > 1 && lipgloss.Width(h.Desc) > room {
			b.SetHelp(h.Key, truncateANSI(h.Desc, room))
		}
		out[i] = b
	}
	return out
}

func (m *Model) fullHelp() string {
	var b strings.Builder
	b.WriteString(m.ctx.Styles.Brand.Render("Keys") + "  (?, f1 or esc to close)\n\n")
	b.WriteString(m.helpColumns(m.globalKeys(views.Mode{}).FullHelp()))
	b.WriteString("\n\n" + m.ctx.Styles.Brand.Render(sanitize.Line(m.top().Title())) + "\n")
	b.WriteString(m.helpColumns(m.top().Keys().FullHelp()))
	b.WriteString("\n\n" + m.ctx.Styles.Brand.Render("Commands") + " (: then tab completes)\n")
	var names []string
	for _, c := range commands() {
		names = append(names, ":"+strings.TrimSpace(c.name+" "+c.args))
	}
	b.WriteString(wrapWords(names, " · ", m.width))
	b.WriteString("\n\n" + m.ctx.Styles.Brand.Render("Terminal size") + "\n")
	b.WriteString(wrapWords(strings.Fields(layoutHelp), " ", m.width))
	return b.String()
}

// layoutHelp tells what each terminal size gets.
var layoutHelp = fmt.Sprintf("From %dx%d the full layout, with detail panes beside or under the tables; down to %dx%d a compact one, where d (or enter) opens a row's details; below that only a notice.",
	FullWidth, FullHeight, MinWidth, MinHeight)
