package operator

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views/widget"
)

// pickList chooses from a short list inside a form instead of typing: the
// allocations looked up lately, newest first. A fund row takes one; a start
// distribution can take several, marked with space. Items the form holds
// already are shown as such and cannot be chosen again.
type pickList struct {
	title  string // "Recent lookups" unless set
	items  []string
	taken  map[string]string // lowercased item -> where the form has it
	multi  bool
	cursor int
	marked []bool
}

var (
	pickKeyMove  = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
	pickKeyMark  = key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark"))
	pickKeyTake  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "use"))
	pickKeyClose = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the list"))
)

func newPickList(items []string, taken map[string]string, multi bool) *pickList {
	p := &pickList{items: items, taken: taken, multi: multi, marked: make([]bool, len(items))}
	for p.cursor < len(items)-1 && p.isTaken(p.cursor) {
		p.cursor++
	}
	return p
}

func (p *pickList) isTaken(i int) bool { return p.taken[strings.ToLower(p.items[i])] != "" }

// key handles k. done says the list closes; chosen is what was picked, in
// the list's order (nothing on esc).
func (p *pickList) key(k tea.KeyMsg) (chosen []string, done bool) {
	switch k.String() {
	case "up":
		p.cursor = max(p.cursor-1, 0)
	case "down":
		p.cursor = min(p.cursor+1, len(p.items)-1)
	case " ":
		if p.multi && !p.isTaken(p.cursor) {
			p.marked[p.cursor] = !p.marked[p.cursor]
		}
	case "enter":
		for i, m := range p.marked {
			if m {
				chosen = append(chosen, p.items[i])
			}
		}
		if len(chosen) == 0 && !p.isTaken(p.cursor) {
			chosen = []string{p.items[p.cursor]}
		}
		return chosen, true
	case "esc":
		return nil, true
	}
	return nil, false
}

// view draws the list in at most height lines, the cursor kept in sight.
func (p *pickList) view(st widget.Styles, height int) []string {
	how := "enter uses the id · esc closes"
	if p.multi {
		how = "space marks · enter adds the marked ids (or the one under ▶) · esc closes"
	}
	title := p.title
	if title == "" {
		title = "Recent lookups"
	}
	lines := []string{st.Title.Render(title) + st.Muted.Render(" · "+how)}
	room := max(height-1, 1)
	top := min(max(p.cursor-room+1, 0), max(len(p.items)-room, 0))
	for i := top; i < min(top+room, len(p.items)); i++ {
		line := "  "
		if i == p.cursor {
			line = "▶ "
		}
		if p.multi {
			box := "[ ] "
			if p.marked[i] {
				box = "[x] "
			}
			line += box
		}
		line += sanitize.Line(p.items[i])
		if where := p.taken[strings.ToLower(p.items[i])]; where != "" {
			line += st.Muted.Render("  (" + where + ")")
		}
		lines = append(lines, line)
	}
	return lines
}

func (p *pickList) help() []key.Binding {
	if p.multi {
		return []key.Binding{pickKeyMove, pickKeyMark, pickKeyTake, pickKeyClose}
	}
	return []key.Binding{pickKeyMove, pickKeyTake, pickKeyClose}
}
