package views

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/internal/sanitize"
	"allot/views/widget"
)

// WriteReview is the review of a write before it is sent, as the operator,
// schedule and creative screens show it: a title, a caption, the exact
// body, and the question (default No) under it. The body scrolls when it
// is taller than the page: it gives up its rows so that the question is
// always drawn whole, and a question is answered only while drawn whole
// (widget.Confirm's sight rule).
type WriteReview struct {
	// Confirm is the question; its answer is the screen's to act on
	// (Confirm.Answers).
	Confirm *widget.Confirm

	styles         widget.Styles
	title, caption string
	body, lines    []string // the body's lines, and those wrapped to the width
	scroll         widget.Scroll

	width, height int
}

// NewWriteReview reviews body, lines already safe to draw (PrettyBody
// makes them of a JSON body), under title and caption ("" for none),
// asking q. Lines are wrapped where they must, never cut: every byte of a
// body is shown.
func NewWriteReview(ctx *Context, title, caption string, body []string, q *widget.Confirm) *WriteReview {
	// Yes sends the write, whatever the question's words: the help says so.
	q.Keys.Yes.SetHelp("y", "send")
	q.Keys.No.SetHelp("n/esc", "do not send")
	q.Brief = true // the footer names the answers and the scroll
	r := &WriteReview{Confirm: q, styles: ctx.Styles, title: title, caption: caption, body: body, width: 80, height: 20}
	r.SetSize(r.width, r.height)
	return r
}

// SetSize lays the review out in width x height: the question at most 80
// columns wide, the body in the rows the title and the question leave.
func (r *WriteReview) SetSize(width, height int) {
	r.width, r.height = max(width, 20), max(height, 4)
	r.Confirm.SetWidth(min(r.width, 80))
	r.lines = widget.Hardwrap(r.lines, r.body, r.width)
	r.scroll.SetLines(r.lines)
	rows := r.height - len(r.head()) - lipgloss.Height(r.Confirm.View())
	r.scroll.SetSize(r.width, max(rows, 1))
}

// Scroll is the body's window: where it stands, what is below.
func (r *WriteReview) Scroll() *widget.Scroll { return &r.scroll }

// Lines are the body's lines as wrapped to the width.
func (r *WriteReview) Lines() []string { return r.lines }

// Update scrolls the body or passes the key to the question.
func (r *WriteReview) Update(k tea.KeyMsg) tea.Cmd {
	if r.scroll.Key(k) {
		return nil
	}
	return r.Confirm.Update(k)
}

func (r *WriteReview) head() []string {
	out := []string{r.styles.Title.Render(sanitize.Truncate(r.title, r.width))}
	if r.caption != "" {
		out = append(out, r.styles.Muted.Render(sanitize.Truncate(r.caption, r.width)))
	}
	return out
}

// View draws the review in at most its height; on a page too short even
// for the question and one row of body, the top goes first, never the
// question.
func (r *WriteReview) View() string {
	out := append(r.head(), r.scroll.View()...)
	out = append(out, strings.Split(r.Confirm.View(), "\n")...)
	if len(out) > r.height {
		out = out[len(out)-r.height:]
	}
	return strings.Join(out, "\n")
}

// Bindings are the question's keys and the body's scroll (Update moves
// it), which the footer and the help list: the footer the answers and,
// when the body is taller than its window, the scroll.
func (r *WriteReview) Bindings() widget.Bindings {
	return append(r.Confirm.Bindings(), widget.Binding{Key: r.scroll.Help("scroll the body"), Short: true, Label: true})
}
