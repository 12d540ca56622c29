package views

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/views/widget"
)

// TestWriteReviewKeepsQuestionWhole: however tall the body and however
// small the page, the review fits the page and its last lines are the
// whole question; the body scrolls to its end above it.
func TestWriteReviewKeepsQuestionWhole(t *testing.T) {
	body := PrettyBody([]byte(`{"data":[` + strings.Repeat(`{"allocationId":"3f1a2b4c-0000-4000-8000-000000000001","amount":"1"},`, 30) + `{}]}`))
	for _, size := range [][2]int{{60, 15}, {60, 20}, {120, 36}, {200, 12}, {20, 4}} {
		ctx := &Context{Styles: widget.DefaultStyles()}
		q := ctx.Confirm("t", "Send this request to the service?")
		r := NewWriteReview(ctx, "Review: POST transactions/create", "The body, exactly as it will be sent:", body, q)
		r.SetSize(size[0], size[1])
		for range 100 {
			lines := strings.Split(ansi.Strip(r.View()), "\n")
			if len(lines) > size[1] {
				t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
			}
			question := strings.Split(ansi.Strip(q.View()), "\n")
			if got := lines[len(lines)-len(question):]; strings.Join(got, "\n") != strings.Join(question, "\n") {
				t.Fatalf("%dx%d: the question is not whole at the bottom:\n%s", size[0], size[1], strings.Join(lines, "\n"))
			}
			if r.Scroll().Below() == 0 {
				break
			}
			r.Update(tea.KeyMsg{Type: tea.KeyPgDown})
		}
		// A page of four lines is the question's alone.
		if r.Scroll().Below() != 0 && size[1] > 4 {
			t.Errorf("%dx%d: the body's end is never shown", size[0], size[1])
		}
	}
}
