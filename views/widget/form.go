package widget

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// FormField is one line of a Form: a text input checked as it is typed, or
// a choice among fixed options.
type FormField struct {
	// Label names the field on screen; Key names it for the screen that
	// owns the form (a request field, a row's part).
	Label, Key string
	// Check validates the value as it is typed; nil accepts anything.
	Check func(string) error
	// Options makes the field a choice, cycled with left and right.
	Options []string
	// Item is what one element of a list typed in the field is called
	// when an error names it by its index ("id 2: ..."); "item" if empty.
	Item string

	input  textinput.Model
	choice int
	err    error
	// touched: the user has left the field. edited: the user has changed
	// its value. set: err came from elsewhere (SetErr, Form.SetErrors) and
	// shows at once.
	touched, edited, set bool
}

// TextField is a text input; check runs on every change.
func TextField(key, label, placeholder string, check func(string) error) *FormField {
	in := textinput.New()
	in.Placeholder = placeholder
	in.Prompt = ""
	in.CharLimit = 200
	return &FormField{Key: key, Label: label, Check: check, input: in}
}

// SetPlaceholder changes what an empty text field shows.
func (f *FormField) SetPlaceholder(p string) { f.input.Placeholder = p }

// ChoiceField chooses one of options; the first is chosen.
func ChoiceField(key, label string, options ...string) *FormField {
	return &FormField{Key: key, Label: label, Options: options}
}

// Value is the field's text, or its chosen option.
func (f *FormField) Value() string {
	if f.Options != nil {
		return f.Options[f.choice]
	}
	return f.input.Value()
}

// SetValue sets the text (or chooses the option equal to v) and checks it.
func (f *FormField) SetValue(v string) {
	if f.Options != nil {
		for i, o := range f.Options {
			if o == v {
				f.choice = i
			}
		}
		return
	}
	f.input.SetValue(v)
	f.check()
}

// SetCharLimit bounds what may be typed.
func (f *FormField) SetCharLimit(n int) { f.input.CharLimit = n }

// Err is the field's validation error as last checked.
func (f *FormField) Err() error { return f.err }

// SetErr shows err under the field, for an error found elsewhere (the
// server naming this field's path). It stays until the field changes or
// is checked again (Form.Valid).
func (f *FormField) SetErr(err error) { f.err, f.set = err, err != nil }

func (f *FormField) check() {
	f.err, f.set = nil, false
	if f.Check != nil && f.Options == nil {
		f.err = f.Check(f.input.Value())
	}
}

// FormKeyMap holds a form's keys. It implements help.KeyMap with the keys
// every form handles; a Form's own ShortHelp and FullHelp add Submit when
// the form has a Submit.
type FormKeyMap struct {
	Next, Prev, Change key.Binding
	// Submit, on the last field, calls Form.Submit; on another it moves
	// to the next field. Without Form.Submit it is typed into the field.
	Submit key.Binding
}

// DefaultFormKeyMap returns the form's keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Change: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "change choice")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next field, submit on the last")),
	}
}

// ShortHelp implements help.KeyMap.
func (k FormKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Prev, k.Change} }

// FullHelp implements help.KeyMap.
func (k FormKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Form is a column of fields, one focused, each checked as it is typed and
// its error shown in place, under it. Cancelling is the owning screen's
// key; submitting is too, unless the screen sets Submit.
//
// A field's Key names it for the screen; it may be the path the service
// uses for the value ("name", "data[2].amount"), and then SetErrors puts
// the service's errors under the fields they are about.
type Form struct {
	Keys   FormKeyMap
	Styles Styles
	// Submit, when set, is what enter on the last field does (the screen's
	// review or send); enter on another field moves to the next. The form
	// counts it as a try: every field's error shows from then on.
	Submit func() tea.Cmd
	// ErrorsOnLeave holds a field's own error (its Check) back until the
	// user has left the field or tried to submit: "not a number" does not
	// greet the first character typed, and once shown it follows what is
	// typed. Errors set by the screen or the service show at once. Off,
	// errors show as they are typed.
	ErrorsOnLeave bool

	fields        []*FormField
	focus         int
	offset        int // first line drawn when the form is taller than its space
	width, height int
	labelWidth    int
	cursorMode    cursor.Mode
	current       *FormField // the focused field, to mark it touched when left
	tried         bool       // a submit was tried: every error shows
}

// NewForm returns a form of fields, the first focused.
func NewForm(fields ...*FormField) *Form {
	f := &Form{Keys: DefaultFormKeyMap(), Styles: DefaultStyles(), width: 60, height: 20}
	f.Insert(0, fields...)
	return f
}

// Fields are the form's fields in order.
func (f *Form) Fields() []*FormField { return f.fields }

// Field is the field of key k, or nil.
func (f *Form) Field(k string) *FormField {
	for _, fld := range f.fields {
		if fld.Key == k {
			return fld
		}
	}
	return nil
}

// Focused is the index of the focused field.
func (f *Form) Focused() int { return f.focus }

// Insert adds fields at index i; the focus stays on its field.
func (f *Form) Insert(i int, fields ...*FormField) {
	i = min(max(i, 0), len(f.fields))
	for _, fld := range fields {
		fld.input.Cursor.SetMode(f.cursorMode)
	}
	f.fields = append(f.fields[:i], append(fields, f.fields[i:]...)...)
	if len(f.fields) > len(fields) && f.focus >= i {
		f.focus += len(fields)
	}
	f.measure()
	f.Focus(f.focus)
}

// SetCursorMode sets how the text fields, and those inserted later, show
// their cursor; a form blinks it. Tests that run every command a key
// answers to its end set it static: each focus change would otherwise wait
// out a 530 ms blink.
func (f *Form) SetCursorMode(m cursor.Mode) {
	f.cursorMode = m
	for _, fld := range f.fields {
		fld.input.Cursor.SetMode(m)
	}
}

// Remove deletes n fields from index i.
func (f *Form) Remove(i, n int) {
	if i < 0 || n <= 0 || i+n > len(f.fields) {
		return
	}
	f.fields = append(f.fields[:i], f.fields[i+n:]...)
	switch {
	case f.focus >= i+n:
		f.focus -= n
	case f.focus >= i:
		f.focus = i
	}
	f.measure()
	f.Focus(f.focus)
}

// Focus moves the focus to field i.
func (f *Form) Focus(i int) tea.Cmd {
	if len(f.fields) == 0 {
		f.focus = 0
		return nil
	}
	f.focus = min(max(i, 0), len(f.fields)-1)
	if now := f.fields[f.focus]; f.current != now {
		if f.current != nil {
			f.current.touched = true
		}
		f.current = now
	}
	var cmd tea.Cmd
	for j, fld := range f.fields {
		if j == f.focus && fld.Options == nil {
			cmd = fld.input.Focus()
		} else {
			fld.input.Blur()
		}
	}
	return cmd
}

// Recheck checks every field again, but for those showing an error set
// elsewhere (the service's stays until its field changes): for a form
// whose fields' checks read one another, as a request's Validate does.
func (f *Form) Recheck() {
	for _, fld := range f.fields {
		if !fld.set {
			fld.check()
		}
	}
}

// Try counts as a try to submit without checking: every field's error
// shows from then on.
func (f *Form) Try() { f.tried = true }

// Tried reports whether a submit was tried (Try, Valid, Submit).
func (f *Form) Tried() bool { return f.tried }

// Edited reports whether the user has changed a field's value.
func (f *Form) Edited() bool {
	for _, fld := range f.fields {
		if fld.edited {
			return true
		}
	}
	return false
}

// Valid checks every field and focuses the first that fails. It counts as
// a try to submit: every field's error shows from then on.
func (f *Form) Valid() bool {
	f.tried = true
	for i, fld := range f.fields {
		fld.check()
		if fld.err != nil {
			f.Focus(i)
			return false
		}
	}
	return true
}

// HasError reports whether a field shows an error now.
func (f *Form) HasError() bool {
	for _, fld := range f.fields {
		if f.shown(fld) != nil {
			return true
		}
	}
	return false
}

// shown is the error fld shows now, nil while ErrorsOnLeave holds it back.
func (f *Form) shown(fld *FormField) error {
	if fld.err == nil || f.ErrorsOnLeave && !fld.touched && !fld.set && !f.tried {
		return nil
	}
	return fld.err
}

// SetSize sets the space the form draws in.
func (f *Form) SetSize(width, height int) {
	f.width, f.height = max(width, 20), max(height, 1)
	f.measure()
}

func (f *Form) measure() {
	f.labelWidth = 0
	for _, fld := range f.fields {
		f.labelWidth = max(f.labelWidth, displayWidth(fld.Label))
	}
	// Labels take what they need while 30 cells stay for the values,
	// and a third of the width at least: a third alone cut the
	// schedule's "Piece 1 delay (months)" at 60 columns.
	f.labelWidth = min(f.labelWidth, max(f.width/3, f.width-30))
	for _, fld := range f.fields {
		fld.input.Width = max(f.width-f.labelWidth-5, 4)
	}
}

// Update moves between fields, changes choices and types into the focused
// field, checking it.
func (f *Form) Update(msg tea.Msg) tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	fld := f.fields[f.focus]
	if k, ok := msg.(tea.KeyMsg); ok {
		if cmd, handled := f.Bindings().Dispatch(k); handled || fld.Options != nil {
			return cmd // a choice takes no typing
		}
	}
	before := fld.input.Value()
	var cmd tea.Cmd
	fld.input, cmd = fld.input.Update(msg)
	if fld.input.Value() != before {
		fld.edited = true
		fld.check()
	}
	return cmd
}

// View draws the fields, a label column then the input; a field's error is
// on the line under it. The focused field is marked "▶" and the view
// scrolls to keep it in sight.
func (f *Form) View() string {
	var lines []string
	focusLine := 0
	for i, fld := range f.fields {
		marker := plainMarker
		if i == f.focus {
			marker = selectedMarker
			focusLine = len(lines)
		}
		label := truncate(fld.Label, f.labelWidth)
		label += strings.Repeat(" ", f.labelWidth-displayWidth(label))
		var value string
		var more []string // the options that go on lines of their own
		if fld.Options != nil {
			indent := strings.Repeat(" ", f.labelWidth+3)
			room := f.width - len(indent)
			for j, o := range fld.Options {
				part := "( ) " + o
				if j == fld.choice {
					part = "(•) " + o
				}
				switch {
				case j == 0:
					value = part
				case len(more) == 0 && displayWidth(value+"  "+part) <= room:
					value += "  " + part
				case len(more) > 0 && displayWidth(more[len(more)-1])-len(indent)+2+displayWidth(part) <= room:
					more[len(more)-1] += "  " + part
				default:
					// Not cut: an option too wide for the line goes under
					// the first, whole.
					more = append(more, indent+part)
				}
			}
		} else {
			value = fld.input.View()
		}
		line := marker + label + " " + value
		if i == f.focus {
			line = f.Styles.Title.Render(marker+label) + " " + value
		}
		lines = append(lines, line)
		lines = append(lines, more...)
		if err := f.shown(fld); err != nil {
			msg := "✗ " + sanitize.Line(err.Error())
			lines = append(lines, strings.Repeat(" ", f.labelWidth+3)+truncate(msg, max(f.width-f.labelWidth-3, 4)))
		}
	}
	if len(lines) > f.height {
		if focusLine < f.offset {
			f.offset = focusLine
		}
		if focusLine+1 >= f.offset+f.height {
			f.offset = focusLine + 2 - f.height
		}
		f.offset = min(max(f.offset, 0), len(lines)-f.height)
		lines = lines[f.offset : f.offset+f.height]
	} else {
		f.offset = 0
	}
	for i, l := range lines {
		lines[i] = truncate(l, f.width)
	}
	return strings.Join(lines, "\n")
}
