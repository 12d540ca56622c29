package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// describe is every field of one row on a page of its own (k9s' describe):
// the detail pane beside or under a table is too small at 80x24 for a
// request's headers and bodies.
type describe struct {
	Base
	title  string
	detail *widget.Detail
	keys   describeKeys
	acts   []DetailAction
}

// DetailAction is a key a row's details page answers as its list does
// (c copies a request as curl there too).
type DetailAction struct {
	Key key.Binding
	Do  func() tea.Cmd
}

type describeKeys struct{ up, down, pageUp, pageDown, top, bottom key.Binding }

var describeKeyMap = describeKeys{
	up:       key.NewBinding(key.WithKeys("up", "k", "K"), key.WithHelp("↑/k", "up")),
	down:     key.NewBinding(key.WithKeys("down", "j", "J"), key.WithHelp("↓/j", "down")),
	pageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
	pageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", " "), key.WithHelp("pgdn", "page down")),
	top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
	bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
}

// newDescribe shows fields under title; esc closes it.
func newDescribe(ctx *Context, title string, fields []widget.Field, acts ...DetailAction) Screen {
	d := &describe{title: title, detail: widget.NewDetail(), keys: describeKeyMap, acts: acts}
	d.detail.Styles = ctx.Styles
	d.detail.SetFields(fields)
	return d
}

func (d *describe) Title() string { return d.title }

func (d *describe) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	for _, a := range d.acts {
		if key.Matches(km, a.Key) {
			return a.Do()
		}
	}
	k := d.keys
	switch {
	case key.Matches(km, k.up):
		d.detail.ScrollBy(-1)
	case key.Matches(km, k.down):
		d.detail.ScrollBy(1)
	case key.Matches(km, k.pageUp):
		d.detail.ScrollBy(-d.detail.Room())
	case key.Matches(km, k.pageDown):
		d.detail.ScrollBy(d.detail.Room())
	case key.Matches(km, k.top):
		d.detail.ScrollBy(-1 << 30)
	case key.Matches(km, k.bottom):
		d.detail.ScrollBy(1 << 30)
	}
	return nil
}

func (d *describe) View() string              { return d.detail.View() }
func (d *describe) SetSize(width, height int) { d.detail.SetSize(width, height) }
func (d *describe) ShortHelp() []key.Binding {
	return append(d.actKeys(), d.keys.up, d.keys.down, d.keys.pageDown)
}
func (d *describe) FullHelp() [][]key.Binding {
	k := d.keys
	full := [][]key.Binding{{k.up, k.down, k.pageUp, k.pageDown, k.top, k.bottom}}
	if len(d.acts) > 0 {
		full = append([][]key.Binding{d.actKeys()}, full...)
	}
	return full
}

func (d *describe) actKeys() []key.Binding {
	keys := make([]key.Binding, len(d.acts))
	for i, a := range d.acts {
		keys[i] = a.Key
	}
	return keys
}
