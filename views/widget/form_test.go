package widget

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

// TestFormStaticCursorWaitsForNothing: a form blinks its cursor, so a focus
// change answers with the blink's timer; set static, the fields and those
// inserted later answer with nothing to wait for, and draw the same.
func TestFormStaticCursorWaitsForNothing(t *testing.T) {
	build := func() *Form {
		return NewForm(TextField("a", "A", "", nil), TextField("b", "B", "", nil))
	}
	tab := tea.KeyMsg{Type: tea.KeyTab}

	blinking := build()
	if blinking.Update(tab) == nil {
		t.Fatal("a form's focus change did not start the cursor's blink")
	}

	static := build()
	static.SetCursorMode(cursor.CursorStatic)
	static.Insert(2, TextField("c", "C", "", nil))
	for i := range 3 {
		if cmd := static.Update(tab); cmd != nil {
			t.Fatalf("focus change %d answered a command with the cursor static", i)
		}
	}
	if static.Focused() != 0 {
		t.Fatalf("three tabs over three fields focus %d, want 0", static.Focused())
	}
	if got := static.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}); got != nil {
		t.Error("typing answered a command with the cursor static")
	}

	blinking.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	blinking.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	static.Remove(2, 1)
	if b, s := blinking.View(), static.View(); b != s {
		t.Errorf("the static cursor draws differently:\nblinking:\n%s\nstatic:\n%s", b, s)
	}
}

func typeInto(f *Form, s string) {
	for _, r := range s {
		f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func number(v string) error {
	if strings.Trim(v, "0123456789.") != "" {
		return errors.New("not a number")
	}
	return nil
}

func staticForm(fields ...*FormField) *Form {
	f := NewForm(fields...)
	f.SetCursorMode(cursor.CursorStatic)
	return f
}

// TestFormErrorsOnLeave: with ErrorsOnLeave a field's own error waits
// until the user leaves the field or tries to submit; without it the error
// shows as typed, as before.
func TestFormErrorsOnLeave(t *testing.T) {
	build := func() *Form {
		return staticForm(TextField("amount", "Amount", "", number), TextField("fee", "Fee", "", number))
	}
	eager := build()
	typeInto(eager, "x")
	if !strings.Contains(eager.View(), "✗ not a number") || !eager.HasError() {
		t.Errorf("without ErrorsOnLeave the error shows as typed:\n%s", eager.View())
	}

	f := build()
	f.ErrorsOnLeave = true
	typeInto(f, "x")
	if strings.Contains(f.View(), "✗") || f.HasError() {
		t.Errorf("an error showed while the field is being typed:\n%s", f.View())
	}
	if f.Fields()[0].Err() == nil {
		t.Error("the held error is not checked: Err is nil")
	}
	f.Update(tea.KeyMsg{Type: tea.KeyTab})
	typeInto(f, "y")
	if v := f.View(); strings.Count(v, "✗ not a number") != 1 || !f.HasError() {
		t.Errorf("after leaving Amount its error shows, Fee's not yet:\n%s", v)
	}
	if f.Valid() {
		t.Fatal("Valid with two bad fields")
	}
	if v := f.View(); strings.Count(v, "✗ not a number") != 2 || f.Focused() != 0 {
		t.Errorf("a try to submit shows every error and focuses the first (focus %d):\n%s", f.Focused(), v)
	}
	// Once shown, a field's error follows what is typed: fixed, it goes
	// before the field is left.
	f.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	typeInto(f, "7")
	if v := f.View(); strings.Count(v, "✗ not a number") != 1 {
		t.Errorf("the fixed field still shows its error:\n%s", v)
	}
}

// TestFormServiceErrorsLastUntilTheFieldChanges: an error the service set
// stays through Recheck until its field changes, by typing or by a
// choice changed.
func TestFormServiceErrorsLastUntilTheFieldChanges(t *testing.T) {
	g := staticForm(TextField("amount", "Amount", "", number), TextField("fee", "Fee", "", number))
	g.ErrorsOnLeave = true
	g.SetErrors([]PathError{{Path: "fee", Message: "too high"}})
	g.Focus(0)
	typeInto(g, "1")
	g.Recheck()
	if v := g.View(); !strings.Contains(v, "✗ too high") {
		t.Fatalf("Recheck dropped the service's error of a field not changed:\n%s", v)
	}
	g.Focus(1)
	typeInto(g, "2")
	g.Recheck()
	if v := g.View(); strings.Contains(v, "✗") {
		t.Fatalf("the service's error stays after its field changed:\n%s", v)
	}

	// A choice changed ends the service's error on it, as typing does.
	h := staticForm(ChoiceField("kind", "Kind", "one-off", "periodic"))
	h.SetErrors([]PathError{{Path: "kind", Message: "not offered here"}})
	h.Update(tea.KeyMsg{Type: tea.KeyRight})
	if v := h.View(); strings.Contains(v, "✗") {
		t.Fatalf("the service's error stays after the choice changed:\n%s", v)
	}
}

// TestFormSetErrorsByPath: the service's errors go under the fields their
// paths are about, a row as a whole to the row's first field, an index
// into a list to the list's field; the rest come back in order.
func TestFormSetErrorsByPath(t *testing.T) {
	f := staticForm(
		TextField("name", "Name", "", nil),
		TextField("data[0].id", "Allocation 1", "", nil),
		TextField("data[0].amount", "Amount 1", "", number),
		TextField("data[1].id", "Allocation 2", "", nil),
		TextField("data[1].amount", "Amount 2", "", number),
		TextField("allocationIds", "Allocation IDs", "", nil),
	)
	f.SetSize(100, 20)
	f.Field("name").SetErr(errors.New("an earlier error"))
	many := make([]PathError, 0, 10)
	for i := range 10 {
		many = append(many, PathError{Path: "name", Message: fmt.Sprintf("problem %d", i)})
	}
	unmatched := f.SetErrors(append([]PathError{
		{Path: "token", Message: "unknown token"},
		{Path: "data[1].amount.value", Message: "at most 18 decimals"},
		{Path: "data[1]", Message: "same allocation twice \x1b[2J"},
		{Path: "allocationIds[3]", Message: "not a UUID"},
		{Path: "", Message: "bad request"},
		{Path: "dat", Message: "no such field"},
	}, many...))

	want := map[string]string{
		"data[1].amount": "at most 18 decimals",
		"data[1].id":     "same allocation twice ^[[2J",
		"allocationIds":  "item 4: not a UUID",
		"name":           "problem 0; problem 1; problem 2; 7 more",
	}
	for _, fld := range f.Fields() {
		got := ""
		if fld.Err() != nil {
			got = fld.Err().Error()
		}
		if got != want[fld.Key] {
			t.Errorf("field %s: error %q, want %q", fld.Key, got, want[fld.Key])
		}
	}
	if len(unmatched) != 3 || unmatched[0].Path != "token" || unmatched[1].String() != "bad request" || unmatched[2].Path != "dat" {
		t.Errorf("unmatched %v, want token, the request's and dat, in order", unmatched)
	}
	if f.Focused() != 0 {
		t.Errorf("focus %d, want the first field with an error (name)", f.Focused())
	}
	if strings.Contains(f.View(), "\x1b") {
		t.Error("a service message's escape reached the view")
	}

	// Fixing a field takes its error away; a new answer replaces the old.
	f.Focus(4)
	typeInto(f, "5")
	if f.Field("data[1].amount").Err() != nil || f.Field("data[1].id").Err() == nil {
		t.Error("typing into Amount 2 should clear its error and only its error")
	}
	f.SetErrors([]PathError{{Path: "data[0]", Message: "unknown allocation"}})
	if f.Field("data[1].id").Err() != nil || f.Field("data[0].id").Err() == nil || f.Focused() != 1 {
		t.Errorf("a second answer: errors of the first stay, or focus %d is not on Allocation 1", f.Focused())
	}
}

// TestFormSubmitOnLastEnter: with Submit, enter moves to the next field
// and submits on the last; without it, enter moves nothing and submits
// nothing, as before.
func TestFormSubmitOnLastEnter(t *testing.T) {
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	plain := staticForm(TextField("a", "A", "", nil), TextField("b", "B", "", nil))
	plain.Update(enter)
	if plain.Focused() != 0 {
		t.Errorf("without Submit enter moved the focus to %d", plain.Focused())
	}
	for _, b := range plain.ShortHelp() {
		if b.Help().Key == "enter" {
			t.Error("a form without Submit offers enter in its help")
		}
	}

	type submitted struct{}
	calls := 0
	f := staticForm(TextField("a", "A", "", nil), ChoiceField("b", "B", "x", "y"), TextField("c", "C", "", number))
	f.ErrorsOnLeave = true
	f.Submit = func() tea.Cmd {
		calls++
		return func() tea.Msg { return submitted{} }
	}
	if f.Update(enter); f.Focused() != 1 || calls != 0 {
		t.Fatalf("enter on the first field: focus %d, %d submits; want focus 1, none", f.Focused(), calls)
	}
	if f.Update(enter); f.Focused() != 2 || calls != 0 {
		t.Fatalf("enter on a choice: focus %d, %d submits; want focus 2, none", f.Focused(), calls)
	}
	typeInto(f, "x")
	if strings.Contains(f.View(), "✗") {
		t.Errorf("the last field's error shows before it is left or submitted:\n%s", f.View())
	}
	cmd := f.Update(enter)
	if calls != 1 || cmd == nil {
		t.Fatalf("enter on the last field: %d submits, want 1", calls)
	}
	if _, ok := cmd().(submitted); !ok {
		t.Error("enter on the last field did not return Submit's command")
	}
	if !strings.Contains(f.View(), "✗ not a number") {
		t.Errorf("after a try to submit every error shows:\n%s", f.View())
	}
	found := false
	for _, b := range f.ShortHelp() {
		found = found || b.Help().Key == "enter"
	}
	if !found {
		t.Error("a form with Submit does not offer enter in its help")
	}
}

// TestFormLabelsWholeAt60: at 60 columns a label of 26 cells (the
// schedule's "Piece 1 frequency (months)") is drawn whole: the labels take
// what they need while 30 cells stay for the values, not a third of the
// width, which cut it to "Piece 1 delay (mont…".
func TestFormLabelsWholeAt60(t *testing.T) {
	f := NewForm(TextField("name", "Name", "", nil), TextField("frequency", "Piece 1 frequency (months)", "", nil))
	f.SetSize(60, 10)
	if v := f.View(); !strings.Contains(v, "Piece 1 frequency (months)") || strings.Contains(v, "…") {
		t.Errorf("at 60 columns:\n%s", v)
	}
	f.SetSize(40, 10)
	if v := f.View(); !strings.Contains(v, "Piece 1 freq…") {
		t.Errorf("at 40 columns, a third of the width:\n%s", v)
	}
}
