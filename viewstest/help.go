package viewstest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

// RootKeys are the keys the dashboard answers itself before an idle
// screen sees them (its keyMap: quit, help, the command line, back, the
// tabs and their numbers, token, error details, unlock, lock); a screen
// that owns esc (Mode.OwnsEsc) is given esc. app's tests hold this list
// to the dashboard's keymap, which viewstest cannot import: app's tests
// import viewstest.
var RootKeys = []string{"q", "ctrl+c", "?", "f1", ":", "esc", "tab", "shift+tab", "T", "E", "u", "L", "p", "1", "2", "3", "4", "5", "6"}

// RootKeysTaking are the keys the dashboard answers itself even while a
// screen takes every key (Mode.TakesKeys): help and quit at once.
var RootKeysTaking = []string{"ctrl+c", "f1"}

// typed are the keys a focused text field answers by editing its text:
// the characters, and textinput's own keys (left/right, home/end, the
// deletions, paste). They are the field's, named by no screen's help.
func typed(k tea.KeyMsg) bool {
	if k.Type == tea.KeyRunes || k.Type == tea.KeySpace {
		return true
	}
	m := textinput.DefaultKeyMap
	return key.Matches(k, m.CharacterForward, m.CharacterBackward, m.WordForward, m.WordBackward,
		m.DeleteWordBackward, m.DeleteWordForward, m.DeleteAfterCursor, m.DeleteBeforeCursor,
		m.DeleteCharacterBackward, m.DeleteCharacterForward, m.LineStart, m.LineEnd, m.Paste)
}

// everyKey is each key a user can press that a screen might answer: the
// printable characters, the named keys and the control letters.
func everyKey() []tea.KeyMsg {
	var keys []tea.KeyMsg
	for r := rune(' ' + 1); r < 127; r++ {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	for _, k := range []tea.KeyType{
		tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight, tea.KeyShiftUp, tea.KeyShiftDown, tea.KeyPgUp, tea.KeyPgDown,
		tea.KeyHome, tea.KeyEnd, tea.KeyEnter, tea.KeyEsc, tea.KeyTab, tea.KeyShiftTab,
		tea.KeyBackspace, tea.KeyDelete, tea.KeySpace,
	} {
		keys = append(keys, tea.KeyMsg{Type: k})
	}
	for k := tea.KeyCtrlA; k <= tea.KeyCtrlZ; k++ {
		// ctrl+i and ctrl+m are tab and enter; ctrl+h is backspace.
		if k != tea.KeyCtrlI && k != tea.KeyCtrlM && k != tea.KeyCtrlH {
			keys = append(keys, tea.KeyMsg{Type: k})
		}
	}
	return keys
}

// Helped is every key the enabled bindings of groups name in their help.
func Helped(groups ...[]key.Binding) map[string]bool {
	in := map[string]bool{}
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() && b.Help().Key != "" {
				for _, k := range b.Keys() {
					in[k] = true
				}
			}
		}
	}
	return in
}

// reserved says whether the dashboard answers k itself, before a screen in
// mode m would see it.
func reserved(k string, m views.Mode) bool {
	if m.TakesKeys {
		return slices.Contains(RootKeysTaking, k)
	}
	return slices.Contains(RootKeys, k) && !(k == "esc" && m.OwnsEsc)
}

// HelpCase is one state of a screen whose help is checked: Build makes a
// fresh screen in that state for each key pressed, so that keys do not
// interfere. Typing says a text field has the focus there: what it types
// and its editing keys are not the screen's to name. Idle names keys its
// help rightly offers that happen to do nothing in that very state (up on
// a table's first row); one there that acts is a drift. A case no key
// changes checks nothing and fails: a state that answers no key has no
// help to check.
type HelpCase struct {
	Name   string
	Build  func(t *testing.T) views.Screen
	Typing bool
	Idle   []string
}

// state is what a key may change of a screen: what it draws and its mode.
func state(s views.Screen) string { return fmt.Sprintf("%+v\n%s", s.Mode(), s.View()) }

// CheckHelp holds a screen's help to what it handles, in the state of c:
// a key the dashboard leaves to the screen whose press changes what the
// screen draws or its mode, or answers a command, must be named in its
// full help; a key the help or the footer names must do something; and
// the footer names nothing the full help does not.
func CheckHelp(t *testing.T, c HelpCase) {
	t.Helper()
	t.Run(c.Name, func(t *testing.T) {
		for _, p := range helpDrift(t, c) {
			t.Error(p)
		}
	})
}

// helpDrift is what CheckHelp reports, one line a drift.
func helpDrift(t *testing.T, c HelpCase) []string {
	var drift []string
	first := c.Build(t)
	if first == nil {
		return []string{"Build gave no screen: the case checks nothing"}
	}
	mode := first.Mode()
	full, short := Helped(first.Keys().FullHelp()...), Helped(first.Keys().ShortHelp())
	for k := range short {
		if !full[k] {
			drift = append(drift, fmt.Sprintf("%q is in the footer but not in the full help", k))
		}
	}
	did := map[string]bool{}
	for _, k := range everyKey() {
		name := k.String()
		if reserved(name, mode) || c.Typing && typed(k) && !full[name] {
			continue
		}
		s := c.Build(t)
		if s == nil {
			return append(drift, "Build gave no screen: the case checks nothing")
		}
		before := state(s)
		cmd := s.Update(k)
		after := state(s)
		if cmd == nil && after == before {
			continue
		}
		did[name] = true
		if !full[name] {
			drift = append(drift, fmt.Sprintf("%q is handled (command %v, state changed %v) but not in the help", name, cmd != nil, after != before))
		}
	}
	// A state no key changes is a case built wrong (a screen still
	// loading, say): its help would pass unchecked.
	if len(did) == 0 {
		drift = append(drift, "no key does anything in this state: the case checks nothing")
	}
	// Idle excuses a key that does nothing here; one that acts is named
	// there by mistake, and would excuse a binding gone dead later.
	for _, k := range c.Idle {
		if did[k] {
			drift = append(drift, fmt.Sprintf("%q is named idle but does something", k))
		}
	}
	seen := map[key.Help]bool{}
	for _, g := range append(first.Keys().FullHelp(), first.Keys().ShortHelp()) {
		for _, b := range g {
			if !b.Enabled() || b.Help().Key == "" || seen[b.Help()] {
				continue
			}
			seen[b.Help()] = true
			if !slices.ContainsFunc(b.Keys(), func(k string) bool {
				return did[k] || reserved(k, mode) || slices.Contains(c.Idle, k)
			}) {
				drift = append(drift, fmt.Sprintf("the help offers %q (%s) but none of %q does anything", b.Help().Key, b.Help().Desc, b.Keys()))
			}
		}
	}
	return drift
}
