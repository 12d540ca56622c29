package views_test

import (
	"testing"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestFormSignHelpFollowsTheField: a signing form's help is its form's,
// for the field in focus: ←/→ is offered on a choice, where it changes
// the choice, and not on a text field, where it moves the cursor.
func TestFormSignHelpFollowsTheField(t *testing.T) {
	f := views.NewFormSign(&views.Context{Styles: widget.DefaultStyles()}, func() string { return "" }, "review",
		widget.TextField("amount", "Amount", "", nil), widget.ChoiceField("kind", "Kind", "a", "b"))
	if viewstest.Helped(f.Bindings(nil).ShortHelp())["left"] {
		t.Error("on a text field the help offers ←/→ to change a choice")
	}
	f.Form.Focus(1)
	if !viewstest.Helped(f.Bindings(nil).ShortHelp())["left"] {
		t.Error("on a choice the help does not offer ←/→")
	}
}
