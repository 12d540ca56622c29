package widget

import (
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/sanitize"
)

// ConfirmMsg is a Confirm dialog's answer. Tag is the one given to
// NewConfirm and says what kind of question it was; which dialog answered
// is for Answers to tell.
type ConfirmMsg struct {
	Tag string
	Yes bool

	from uint64 // the id of the dialog that answered
}

// confirmIDs numbers dialogs: an answer reaches every screen of the
// dashboard, and only the dialog that asked may act on it.
var confirmIDs atomic.Uint64

// ConfirmKeyMap holds a confirm dialog's keys. It implements help.KeyMap.
type ConfirmKeyMap struct {
	Yes    key.Binding
	No     key.Binding
	Toggle key.Binding
	Choose key.Binding
}

// DefaultConfirmKeyMap returns the dialog's default keys.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:     key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),
		Toggle: key.NewBinding(key.WithKeys("left", "right", "h", "l", "tab", "shift+tab"), key.WithHelp("←/→", "switch")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ConfirmKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Yes, k.No, k.Toggle, k.Choose}
}

// FullHelp implements help.KeyMap.
func (k ConfirmKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Confirm asks a yes/no question before an irreversible action. The focus
// starts on No, so a reflexive enter does nothing harmful; y answers yes
// directly. It answers once, with a ConfirmMsg.
type Confirm struct {
	Keys   ConfirmKeyMap
	Styles Styles

	id          uint64
	tag, prompt string
	details     []string
	yes         bool
	done        bool
	width       int
}

// NewConfirm asks prompt, with optional detail lines (what exactly will
// happen: amounts, addresses). The texts are sanitized when drawn.
func NewConfirm(tag, prompt string, details ...string) *Confirm {
	return &Confirm{
		id:      confirmIDs.Add(1),
		Keys:    DefaultConfirmKeyMap(),
		Styles:  DefaultStyles(),
		tag:     tag,
		prompt:  prompt,
		details: details,
		width:   60,
	}
}

// SetWidth sets the widest the dialog may be, frame included.
func (c *Confirm) SetWidth(width int) { c.width = width }

// Answers reports whether msg is this dialog's answer; false for a nil
// dialog, so that a screen with no question open ignores every answer.
func (c *Confirm) Answers(msg ConfirmMsg) bool { return c != nil && msg.from == c.id }

// Done reports whether the dialog has answered.
func (c *Confirm) Done() bool { return c.done }

// Update handles the dialog's keys; the answer arrives as a ConfirmMsg.
func (c *Confirm) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok || c.done {
		return nil
	}
	switch {
	case key.Matches(k, c.Keys.Yes):
		return c.answer(true)
	case key.Matches(k, c.Keys.No):
		return c.answer(false)
	case key.Matches(k, c.Keys.Toggle):
		c.yes = !c.yes
	case key.Matches(k, c.Keys.Choose):
		return c.answer(c.yes)
	}
	return nil
}

func (c *Confirm) answer(yes bool) tea.Cmd {
	c.done = true
	msg := ConfirmMsg{Tag: c.tag, Yes: yes, from: c.id}
	return func() tea.Msg { return msg }
}

// ShortHelp implements help.KeyMap.
func (c *Confirm) ShortHelp() []key.Binding { return c.Keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (c *Confirm) FullHelp() [][]key.Binding { return c.Keys.FullHelp() }

// View draws the dialog in a rounded frame: the question, the details and
// the two buttons, the focused one marked with "▶" (visible without color)
// and highlighted.
func (c *Confirm) View() string {
	inner := max(c.width-4, 12) // frame and padding take four cells
	var lines []string
	for _, l := range wrapText(sanitize.Block(c.prompt), inner) {
		lines = append(lines, c.Styles.Title.Render(l))
	}
	if len(c.details) > 0 {
		lines = append(lines, "")
		for _, d := range c.details {
			lines = append(lines, wrapText(sanitize.Block(d), inner)...)
		}
	}
	lines = append(lines, "", c.button("Yes", c.yes)+"   "+c.button("No", !c.yes))
	frame := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(c.Styles.Border.GetForeground()).
		Padding(0, 1)
	return frame.Render(strings.Join(lines, "\n"))
}

func (c *Confirm) button(label string, focused bool) string {
	if focused {
		return c.Styles.Selected.Render(selectedMarker + "[ " + label + " ]")
	}
	return plainMarker + "[ " + label + " ]"
}
