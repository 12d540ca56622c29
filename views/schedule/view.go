package schedule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"allot/core/act"
	"allot/internal/sanitize"
	"allot/views/widget"
)

func (s *schedule) View() string {
	w, h := max(s.width, 20), max(s.height, 6)
	var out []string
	switch s.state {
	case stageForm:
		out = s.formView(w, h)
	case stageReview:
		out = []string{s.asking.View()}
	case stageSending:
		out = []string{s.sending.Spinner() + " " + s.ctx.Styles.Title.Render("Creating schedule "+strconv.Quote(s.reviewed.Name)+"…")}
		out = append(out, s.listLines(w, h-2)...)
	case stageCreated:
		out = s.createdView(w, h)
	case stageResending:
		out = []string{s.asking.View()}
	case stageUnknown:
		out = s.unknownView(w, h)
	}
	return widget.Fit(strings.Join(out, "\n"), w, h)
}

func (s *schedule) formView(w, h int) []string {
	// A title only: the keys are the footer's (Keys), said once.
	left := []string{s.ctx.Styles.Title.Render("New unlock schedule")}
	// The form draws in its own size (layout), each line cut to it.
	left = append(left, strings.Split(s.form.View(), "\n")...)
	// Cut, then style: a style's codes cut or sanitized as text would be
	// drawn as "^[[1m".
	sum := sanitize.Truncate(s.sumLine(), s.formWidth)
	if s.sumErr != "" && (s.form.Tried() || s.form.Edited()) {
		sum = s.ctx.Styles.Title.Render(sum)
	}
	left = append(left, sum)
	msg, isErr := s.message, s.messageErr
	if msg == "" && len(s.general) > 0 && s.form.Tried() {
		msg, isErr = strings.Join(s.general, "; "), true
	}
	if isErr && msg != "" {
		msg = "✗ " + msg
	}
	left = append(left, sanitize.Truncate(msg, s.formWidth))
	chart := s.chartLines(s.chartWidth(w), s.chart)
	if w >= wideWidth {
		right := append(chart, "")
		right = append(right, s.listLines(w-s.formWidth-1, h-len(chart)-1)...)
		return side(left, right, s.formWidth, h, s.ctx.Styles)
	}
	out := append(left, chart...)
	if h >= 18 {
		out = append(out, s.listLines(w, 3)...)
	}
	return out
}

func (s *schedule) chartWidth(w int) int {
	if w >= wideWidth {
		return w - s.formWidth - 1
	}
	return w
}

// chartLines is a caption and the unlock chart, height lines in all.
func (s *schedule) chartLines(w, height int) []string {
	if height < 4 {
		return nil
	}
	start := s.ctx.Now()
	steps := unlockSteps(s.req)
	points := make([]widget.Point, len(steps))
	for i, st := range steps {
		points[i] = widget.Point{At: addMonths(start, st.Month), Fraction: st.Unlocked.InexactFloat64()}
	}
	last := steps[len(steps)-1]
	if last.Month == 0 {
		// Everything at the start: the axis still runs forward, to the
		// month after.
		points = append(points, widget.Point{At: addMonths(start, 1), Fraction: last.Unlocked.InexactFloat64()})
	}
	percent := last.Unlocked.Mul(decimal.NewFromInt(100)).Round(2).String()
	caption := fmt.Sprintf("Unlocked: %s%% by month %d (%s)", percent, last.Month, addMonths(start, last.Month).Format("2006-01-02"))
	if last.Unlocked.GreaterThan(decimal.NewFromInt(1)) {
		// The chart stops at 100%: the caption says what is wrong.
		caption = fmt.Sprintf("The portions sum to %s%%: nothing can unlock more than 100%%", percent)
	}
	lines := []string{s.ctx.Styles.Muted.Render(sanitize.Truncate(caption, w))}
	return append(lines, strings.Split(widget.Fit(widget.StepChart(points, start, w, height-1), w, height-1), "\n")...)
}

// listLines is the "Created here" pane in at most height lines.
func (s *schedule) listLines(w, height int) []string {
	if height < 1 {
		return nil
	}
	lines := []string{s.ctx.Styles.Muted.Render("Created here:")}
	switch {
	case s.listErr != nil:
		lines = append(lines, "  "+sanitize.Truncate(s.listErr.Error(), w-2))
	case len(s.list) == 0:
		lines = append(lines, s.ctx.Styles.Muted.Render("  none yet"))
	}
	for _, c := range s.list {
		lines = append(lines, "  "+sanitize.Truncate(c.Key+"  "+c.Name+"  "+c.At.UTC().Format("2006-01-02 15:04"), w-2))
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	return lines
}

func (s *schedule) createdView(w, h int) []string {
	c := s.created
	out := []string{
		s.ctx.Styles.Title.Render("Schedule created"),
		"",
		"  Key      " + sanitize.Line(c.Key),
		"  ID       " + sanitize.Line(c.ID),
		"  Name     " + sanitize.Line(c.Name),
		"  Created  " + widget.FormatTime(c.CreatedAt.Time, s.ctx.Now()),
		"",
		s.ctx.Styles.Muted.Render(sanitize.Truncate("c: copy the key · n: new schedule · esc: close", w)),
		"",
	}
	return append(out, s.listLines(w, h-len(out))...)
}

// unknownHead is the top of the page of a write whose answer was lost:
// what happened and what the check found.
func (s *schedule) unknownHead(w int) []string {
	out := []string{s.ctx.Styles.Title.Render(sanitize.Truncate("No answer from the service: the schedule may or may not have been created.", w)), ""}
	out = append(out, strings.Split(widget.Page(s.unknownNote(), w, 4), "\n")...)
	if s.hint != "" {
		out = append(out, strings.Split(widget.Page(s.hint, w, 2), "\n")...)
	}
	return out
}

func (s *schedule) unknownView(w, h int) []string {
	out := append(s.unknownHead(w), s.ctx.Styles.Muted.Render(sanitize.Truncate("Body sent (POST "+act.OpSchedule+"):", w)))
	out = append(out, s.scroll.View()...)
	keys := "c: check again · r: send again (asks first) · ↑/↓ scroll · esc: back to the form"
	if s.outcome.Applied() {
		keys = "↑/↓ scroll · esc: back to the form"
	}
	return append(out, "", s.ctx.Styles.Muted.Render(sanitize.Truncate(keys, w)))
}

func (s *schedule) Keys() widget.Bindings {
	if s.state == stageReview || s.state == stageResending {
		return s.asking.Bindings()
	}
	return s.bindings()
}

// side draws left and right columns with a bar between them.
func side(left, right []string, leftW, height int, st widget.Styles) []string {
	out := make([]string, height)
	bar := st.Border.Render("│")
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = l + strings.Repeat(" ", max(leftW-ansi.StringWidth(l), 0)) + bar + r
	}
	return out
}
