package widget

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/internal/sanitize"
)

// Field is one label/value pair of a detail pane.
type Field struct {
	Label string
	// Value is shown sanitized; newlines are kept, long lines wrap.
	Value string
	// Tone is what the value says (a check passed, failed, could not
	// run), for the theme to draw; the zero Tone draws it plain.
	Tone Tone
}

// DetailKeyMap holds the detail pane's keys. It implements help.KeyMap.
type DetailKeyMap struct {
	Up   key.Binding
	Down key.Binding
}

// DefaultDetailKeyMap returns keys that do not clash with a table's, so a
// screen can send every key to both.
func DefaultDetailKeyMap() DetailKeyMap {
	return DetailKeyMap{
		Up:   key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K", "detail up")),
		Down: key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "detail down")),
	}
}

// ShortHelp implements help.KeyMap.
func (k DetailKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k DetailKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Detail shows every field of one item as label/value pairs, wrapping long
// values, and scrolls when they are taller than its area.
type Detail struct {
	Keys   DetailKeyMap
	Styles Styles

	fields        []Field
	lines         []string
	offset        int
	width, height int
}

// NewDetail returns an empty detail pane with the default keys and styles.
func NewDetail() *Detail {
	return &Detail{Keys: DefaultDetailKeyMap(), Styles: DefaultStyles()}
}

// SetFields shows a new item, scrolled to the top.
func (d *Detail) SetFields(fields []Field) {
	d.fields = fields
	d.offset = 0
	d.wrap()
}

// UpdateFields shows the same item's new values (a refresh's), scrolled
// where the reader left it, as far as the new values reach.
func (d *Detail) UpdateFields(fields []Field) {
	d.fields = fields
	d.wrap()
	d.scroll(0)
}

// SetSize sets the pane's area.
func (d *Detail) SetSize(width, height int) {
	d.width, d.height = width, height
	d.wrap()
}

// Update scrolls on the pane's keys.
func (d *Detail) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(tea.KeyMsg); ok {
		d.Bindings().Dispatch(msg)
	}
	return nil
}

// Bindings are the pane's scroll keys, on while there is something to
// scroll.
func (d *Detail) Bindings() Bindings {
	up, down := d.Keys.Up, d.Keys.Down
	up.SetEnabled(d.scrollable())
	down.SetEnabled(d.scrollable())
	return Bindings{
		{Key: up, Group: "detail", Run: func() tea.Cmd { d.scroll(-1); return nil }},
		{Key: down, Group: "detail", Run: func() tea.Cmd { d.scroll(1); return nil }},
	}
}

// ShortHelp implements help.KeyMap: the scroll keys, when there is
// something to scroll.
func (d *Detail) ShortHelp() []key.Binding { return d.Bindings().InFooter().ShortHelp() }

// FullHelp implements help.KeyMap.
func (d *Detail) FullHelp() [][]key.Binding { return d.Bindings().FullHelp() }

func (d *Detail) scrollable() bool { return len(d.lines) > d.height }

// room is the number of content lines shown: one line goes to the scroll
// indicator when the content does not fit.
func (d *Detail) room() int {
	if d.scrollable() {
		return max(d.height-1, 0)
	}
	return d.height
}

// ScrollBy moves the view n lines down (up when negative), within the
// content.
func (d *Detail) ScrollBy(n int) { d.scroll(n) }

// Room is how many content lines the pane shows at once.
func (d *Detail) Room() int { return d.room() }

func (d *Detail) scroll(n int) {
	d.offset = min(max(d.offset+n, 0), max(len(d.lines)-d.room(), 0))
}

// View draws the visible lines, exactly height lines of at most width cells.
func (d *Detail) View() string {
	if d.width <= 0 || d.height <= 0 {
		return ""
	}
	room := d.room()
	out := make([]string, 0, d.height)
	end := min(d.offset+room, len(d.lines))
	out = append(out, d.lines[min(d.offset, end):end]...)
	for len(out) < room {
		out = append(out, "")
	}
	if d.scrollable() {
		note := fmt.Sprintf("%s/%s scroll · %d–%d of %d",
			d.Keys.Up.Help().Key, d.Keys.Down.Help().Key, d.offset+1, end, len(d.lines))
		out = append(out, d.Styles.Muted.Render(truncate(note, d.width)))
	}
	return strings.Join(out, "\n")
}

// wrap lays the fields out for the current width: labels in a column as
// wide as the longest (up to a third of the pane), values wrapped beside
// them; on a narrow pane each value goes under its label. A label is
// never cut: one longer than the column stands on its own line, its value
// under it ("Stake withdrawal de…" said nothing).
func (d *Detail) wrap() {
	d.lines = d.lines[:0]
	if d.width <= 0 {
		return
	}
	labelW, gap := d.labelColumn()
	valueW := d.width - labelW - gap
	stacked := valueW < 16
	if stacked {
		valueW = max(d.width-gap, 1)
	}
	for _, f := range d.fields {
		text := sanitize.Line(f.Label)
		label := d.Styles.Muted.Render(fitCell(text, labelW, AlignLeft))
		values := wrapValue(sanitize.Block(f.Value), valueW)
		if !stacked && displayWidth(text) > labelW {
			d.lines = append(d.lines, d.Styles.Muted.Render(fitCell(text, d.width, AlignLeft)))
			label = strings.Repeat(" ", labelW)
		}
		if stacked {
			d.lines = append(d.lines, d.Styles.Muted.Render(fitCell(text, d.width, AlignLeft)))
		}
		for i, v := range values {
			v = d.Styles.Tone(f.Tone).Render(v)
			switch {
			case stacked:
				d.lines = append(d.lines, strings.Repeat(" ", gap)+v)
			case i == 0:
				d.lines = append(d.lines, label+strings.Repeat(" ", gap)+v)
			default:
				d.lines = append(d.lines, strings.Repeat(" ", labelW+gap)+v)
			}
		}
	}
	d.scroll(0)
}

// labelColumn is the width of the labels' column and the gap after it:
// as wide as the longest label up to a third of the pane, or wider, with
// a gap of one when need be, when every value still fits beside it on one
// line (a pool's "Reward withdrawal delay" and its id at 60 columns).
func (d *Detail) labelColumn() (labelW, gap int) {
	longest, widest := 0, 0
	for _, f := range d.fields {
		longest = max(longest, displayWidth(sanitize.Line(f.Label)))
		for _, l := range strings.Split(sanitize.Block(f.Value), "\n") {
			widest = max(widest, displayWidth(l))
		}
	}
	labelW, gap = min(longest, max(d.width/3, 1)), 2
	switch {
	case longest == labelW:
	case longest+gap+widest <= d.width:
		labelW = longest
	case longest+1+widest <= d.width:
		labelW, gap = longest, 1
	}
	return labelW, gap
}

// wrapValue is wrapText for a field's value, save that a hash or an
// address too long for the width is cut into equal parts: a 66-character
// hash in 65 columns was one line and a lone character under it; a UUID
// too long is shortened in the middle (e5af6…f2856).
func wrapValue(s string, width int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		w := len(para)
		if w > width && isID(para) && strings.Contains(para, "-") {
			// A UUID cut at its dashes reads as two ids: it is shortened
			// in the middle instead, as the tables shorten it.
			lines = append(lines, shortenMiddle(para, width))
			continue
		}
		if w <= width || width < 8 || !isASCII(para) || strings.ContainsAny(para, " -") {
			lines = append(lines, wrapText(para, width)...)
			continue
		}
		n := (w + width - 1) / width
		size := (w + n - 1) / n
		for len(para) > size {
			lines = append(lines, para[:size])
			para = para[size:]
		}
		lines = append(lines, para)
	}
	return lines
}

// wrapText breaks sanitized text into lines of at most width cells, at
// spaces where it can and inside long words (addresses, hashes) where it
// must.
func wrapText(s string, width int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		for _, l := range strings.Split(ansi.Wrap(para, width, ""), "\n") {
			lines = append(lines, truncate(strings.TrimRight(l, " "), width))
		}
	}
	return lines
}
