package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/views"
	"allot/views/widget"
)

// reviewPage is a page whose keys are a write review's, as :schedule's
// and :creative's reviews have them, with the body's scroll beside.
type reviewPage struct {
	page
	review *views.WriteReview
}

func (p reviewPage) Keys() widget.Bindings {
	scroll := key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgup/pgdn", "scroll the request"))
	return append(widget.Bindings{{Key: scroll, Short: true, Label: true}}, p.review.Confirm.Bindings()...)
}

// TestReviewFooterKeepsItsNegation: at 60x20, the documented minimum,
// the review's footer never reads "n/esc do" (cut from "do not send"):
// a description is shortened only where its meaning survives.
func TestReviewFooterKeepsItsNegation(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	q := widget.NewConfirm("send", "Send this schedule?")
	m.Update(views.NavigateMsg{Screen: reviewPage{page{title: "Review"}, views.NewWriteReview(m.ctx, "Review", "", []string{"{}"}, q)}})
	footer := ansi.Strip(m.footer())
	if strings.Contains(footer, "n/esc do") && !strings.Contains(footer, "do not send") {
		t.Errorf("the footer at %dx%d reads %q", MinWidth, MinHeight, footer)
	}
	if !strings.Contains(footer, "y send") {
		t.Errorf("the footer at %dx%d lacks y send: %q", MinWidth, MinHeight, footer)
	}
}
