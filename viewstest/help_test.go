package viewstest

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// toy answers x (changing what it draws), y (with a command) and, while
// it takes keys, typed text; its help names only what it is given.
type toy struct {
	views.Base
	mode  views.Mode
	text  string
	help  []key.Binding
	typed bool
	// inert: it answers no key.
	inert bool
}

func (s *toy) Title() string         { return "toy" }
func (s *toy) SetSize(int, int)      {}
func (s *toy) View() string          { return s.text }
func (s *toy) Mode() views.Mode      { return s.mode }
func (s *toy) Keys() widget.Bindings { return widget.Described(s.help...).InFooter() }
func (s *toy) Update(msg tea.Msg) tea.Cmd {
	k, _ := msg.(tea.KeyMsg)
	switch {
	case s.inert:
	case k.String() == "x":
		s.text += "x"
	case k.String() == "y":
		return func() tea.Msg { return nil }
	case s.typed && k.Type == tea.KeyRunes, k.String() == "q":
		s.text += k.String()
	}
	return nil
}

func bind(keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], "does"))
}

// TestHelpDrift: the checker reports a key handled but not named, a key
// named that does nothing, and leaves out what the dashboard answers and
// what a text field types.
func TestHelpDrift(t *testing.T) {
	build := func(s toy) func(*testing.T) views.Screen {
		return func(*testing.T) views.Screen { c := s; return &c }
	}
	for _, c := range []struct {
		name string
		s    toy
		c    HelpCase
		want []string
	}{
		{"named", toy{help: []key.Binding{bind("x"), bind("y")}}, HelpCase{}, nil},
		{"unnamed", toy{help: []key.Binding{bind("x")}}, HelpCase{}, []string{`"y" is handled`}},
		{"dead", toy{help: []key.Binding{bind("x"), bind("y"), bind("z")}}, HelpCase{}, []string{`offers "z"`}},
		{"idle", toy{help: []key.Binding{bind("x"), bind("y"), bind("z")}}, HelpCase{Idle: []string{"z"}}, nil},
		{"idle but acts", toy{help: []key.Binding{bind("x"), bind("y")}}, HelpCase{Idle: []string{"x"}}, []string{`"x" is named idle`}},
		// q quits while the screen is idle; typed while it takes keys.
		{"root's q", toy{help: []key.Binding{bind("x"), bind("y")}}, HelpCase{}, nil},
		{"typing", toy{typed: true, mode: views.Mode{TakesKeys: true}, help: []key.Binding{bind("x"), bind("y")}}, HelpCase{Typing: true}, nil},
		{"typed q is a key", toy{mode: views.Mode{TakesKeys: true}, help: []key.Binding{bind("x"), bind("y")}}, HelpCase{}, []string{`"q" is handled`}},
		// Every key the screen answers is the dashboard's: nothing is checked.
		{"nothing tried", toy{mode: views.Mode{TakesKeys: true}, inert: true}, HelpCase{}, []string{"checks nothing"}},
		{"no screen", toy{}, HelpCase{Build: func(*testing.T) views.Screen { return nil }}, []string{"no screen"}},
	} {
		if c.c.Build == nil {
			c.c.Build = build(c.s)
		}
		got := helpDrift(t, c.c)
		if len(got) != len(c.want) || !slices.ContainsFunc(got, func(g string) bool { return len(c.want) == 0 || strings.Contains(g, c.want[0]) }) && len(c.want) > 0 {
			t.Errorf("%s: drift %q, want %q", c.name, got, c.want)
		}
	}
}
