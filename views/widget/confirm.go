package widget

import (
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"allot/internal/sanitize"
)

// ConfirmMsg is a Confirm dialog's answer. Tag is the one given to
// NewConfirm and says what kind of question it was; which dialog answered
// is for Answers to tell.
type ConfirmMsg struct {
	Tag string
	Yes bool

	from *Confirm // the dialog that answered: a screen may ask again
}

// ConfirmKeyMap holds a confirm dialog's keys: what each answers to and
// what help says of it (a review says "send" for yes).
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

// Confirm asks a yes/no question before an irreversible action. The focus
// starts on No, so a reflexive enter does nothing harmful; y answers yes
// directly. It answers once, with a ConfirmMsg.
type Confirm struct {
	Keys   ConfirmKeyMap
	Styles Styles
	// Hold, when it says why, keeps every key but No from acting, and
	// pressing one says why: a question about what is not read whole yet
	// (the end of a message to sign). nil holds nothing.
	Hold func() string
	// Brief lists only the answers in the footer, not how to move between
	// them: a review whose footer also names its scroll.
	Brief bool

	tag, prompt string
	details     []string
	yes         bool
	done        bool
	width       int

	// sight is the Sight whose frames draw the dialog (Watch), seen the
	// number of the last of its frames that showed it whole, and box what
	// View drew last.
	sight *Sight
	seen  uint64
	box   string
}

// NewConfirm asks prompt, with optional detail lines (what exactly will
// happen: amounts, addresses). The texts are sanitized when drawn.
func NewConfirm(tag, prompt string, details ...string) *Confirm {
	return &Confirm{
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
func (c *Confirm) Answers(msg ConfirmMsg) bool { return c != nil && msg.from == c }

// Done reports whether the dialog has answered.
func (c *Confirm) Done() bool { return c.done }

// Visible reports whether the user can read the whole question now: the
// last frame drawn showed it whole. A dialog no Sight watches (a
// screen's own test) counts as visible: under the dashboard, a page's
// keys reach it only after a frame has drawn the page.
func (c *Confirm) Visible() bool {
	if c.sight == nil {
		return true
	}
	return c.seen == c.sight.frames.Load()
}

// Update handles the dialog's keys (Bindings); the answer arrives as a
// ConfirmMsg.
func (c *Confirm) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok || c.done {
		return nil
	}
	if !c.Visible() {
		c.yes = false
	}
	cmd, _ := c.Bindings().Dispatch(k)
	return cmd
}

// Bindings are the dialog's keys, which its Update dispatches and its
// help lists. While the question is hidden or cut (a resize, a page over
// it), only No answers, and the focus stays on No: nobody says yes to a
// question they cannot read.
func (c *Confirm) Bindings() Bindings {
	seen := c.Visible()
	unseen := func() tea.Cmd { return nil }
	when := func(run func() tea.Cmd) func() tea.Cmd {
		if !seen {
			return unseen
		}
		return run
	}
	return Bindings{
		{Key: c.Keys.Yes, Short: true, Disabled: c.Hold, Run: when(func() tea.Cmd { return c.answer(true) })},
		{Key: c.Keys.No, Short: true, Run: func() tea.Cmd { return c.answer(false) }},
		{Key: c.Keys.Toggle, Short: !c.Brief, Disabled: c.Hold, Run: when(func() tea.Cmd { c.yes = !c.yes; return nil })},
		{Key: c.Keys.Choose, Short: !c.Brief, Disabled: c.Hold, Run: when(func() tea.Cmd { return c.answer(c.yes) })},
	}
}

func (c *Confirm) answer(yes bool) tea.Cmd {
	c.done = true
	msg := ConfirmMsg{Tag: c.tag, Yes: yes, from: c}
	return func() tea.Msg { return msg }
}

// ShortHelp implements help.KeyMap: the footer's keys.
func (c *Confirm) ShortHelp() []key.Binding { return c.Bindings().ShortHelp() }

// FullHelp implements help.KeyMap.
func (c *Confirm) FullHelp() [][]key.Binding { return c.Bindings().FullHelp() }

// View draws the dialog in a rounded frame (bare when narrow): the question, the details and
// the two buttons, the focused one marked with "▶" (visible without color)
// and highlighted.
func (c *Confirm) View() string {
	s := c.sight
	if s != nil && c.seen != s.frames.Load() {
		// Not shown whole in the frame before this one: whatever the focus
		// was, it is drawn, and starts, on No.
		c.yes = false
	}
	// Narrower than FramedConfirmWidth, the dialog goes without its frame
	// and its blank lines (and blank details): the review above it keeps
	// the lines they would take.
	framed := c.width >= FramedConfirmWidth
	inner := max(c.width, 12)
	if framed {
		inner = max(c.width-4, 12) // frame and padding take four cells
	}
	var lines []string
	for _, l := range wrapWordsBlock(sanitize.Block(c.prompt), inner) {
		lines = append(lines, c.Styles.Title.Render(l))
	}
	if framed && len(c.details) > 0 {
		lines = append(lines, "")
	}
	for _, d := range c.details {
		if framed || d != "" {
			lines = append(lines, wrapWordsBlock(sanitize.Block(d), inner)...)
		}
	}
	if framed {
		lines = append(lines, "")
	}
	lines = append(lines, c.button("Yes", c.yes)+"   "+c.button("No", !c.yes))
	c.box = strings.Join(lines, "\n")
	if framed {
		c.box = lipgloss.NewStyle().
			Border(lipgloss.RoundedBorder()).
			BorderForeground(c.Styles.Border.GetForeground()).
			Padding(0, 1).
			Render(c.box)
	}
	if s != nil {
		s.drawn = append(s.drawn, c)
	}
	return c.box
}

// FramedConfirmWidth is the narrowest a dialog is drawn in its frame:
// narrower, without the frame and the blank lines, it leaves the review
// above it the lines they would take. Screens give a dialog 76 to 100
// columns of a wide terminal; one narrower than this is in the compact
// layout, down to 60 columns.
const FramedConfirmWidth = 70

// A Sight tells dialogs whether the user can see them. The dashboard draws
// every frame through Frame: a dialog drawn into a frame is answerable
// only while the frame as it reaches the terminal (cut to its size,
// covered by nothing) holds the whole dialog. It is for one program's
// frames, drawn on its one goroutine.
type Sight struct {
	frames atomic.Uint64
	// drawn are the dialogs drawn since the last frame: Frame starts
	// afresh, so that one drawn outside it (a screen measuring its height
	// in Update) is not taken for one shown.
	drawn []*Confirm
}

// Watch makes c a dialog of this program's frames: it is answerable
// only once one of them has shown it whole.
func (s *Sight) Watch(c *Confirm) { c.sight = s }

// Frame draws a frame with draw and returns it; every dialog drawn into it
// learns whether it was shown whole.
func (s *Sight) Frame(draw func() string) string {
	s.drawn = s.drawn[:0]
	frame := draw()

	n := s.frames.Add(1)
	lines := strings.Split(ansi.Strip(frame), "\n")
	for _, c := range s.drawn {
		if contains(lines, strings.Split(ansi.Strip(c.box), "\n")) {
			c.seen = n
		} else {
			c.yes = false // cut: the next frame draws it on No
		}
	}
	s.drawn = s.drawn[:0]
	return frame
}

// contains reports whether box's lines are on consecutive lines of frame.
func contains(frame, box []string) bool {
	for i := 0; i+len(box) <= len(frame); i++ {
		if !strings.Contains(frame[i], box[0]) {
			continue
		}
		whole := true
		for j := 1; j < len(box) && whole; j++ {
			whole = strings.Contains(frame[i+j], box[j])
		}
		if whole {
			return true
		}
	}
	return false
}

func (c *Confirm) button(label string, focused bool) string {
	if focused {
		return c.Styles.Selected.Render(selectedMarker + "[ " + label + " ]")
	}
	return plainMarker + "[ " + label + " ]"
}
