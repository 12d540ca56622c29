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
	cmd, _ := d.bindings().Dispatch(km)
	return cmd
}

// bindings are the page's keys, its list's actions first, which its
// dispatch, the footer and the help read.
func (d *describe) bindings() widget.Bindings {
	var bs widget.Bindings
	for _, a := range d.acts {
		bs = append(bs, widget.Binding{Key: a.Key, Short: true, Group: "actions", Run: a.Do})
	}
	k := d.keys
	by := func(n func() int) func() tea.Cmd { return func() tea.Cmd { d.detail.ScrollBy(n()); return nil } }
	return append(bs, widget.Bindings{
		{Key: k.up, Short: true, Run: by(func() int { return -1 })},
		{Key: k.down, Short: true, Run: by(func() int { return 1 })},
		{Key: k.pageUp, Run: by(func() int { return -d.detail.Room() })},
		{Key: k.pageDown, Short: true, Run: by(d.detail.Room)},
		{Key: k.top, Run: by(func() int { return -1 << 30 })},
		{Key: k.bottom, Run: by(func() int { return 1 << 30 })},
	}.InGroup("scroll")...)
}

func (d *describe) View() string              { return d.detail.View() }
func (d *describe) SetSize(width, height int) { d.detail.SetSize(width, height) }
func (d *describe) Keys() widget.Bindings     { return d.bindings() }
