package operator

import (
	"errors"
	"fmt"
	"strings"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// View draws the current state in the size given, every line cut to the
// width.
func (o *operator) View() string {
	var lines []string
	switch o.state {
	case stageForm:
		lines = o.formView()
	case stageReview, stageResend:
		lines = []string{o.asking.View()}
	case stageSending:
		lines = []string{o.ctx.Styles.Title.Render(o.heading()), "", o.sending.Spinner() + " sending " + o.action + " to the service…"}
	case stageResult:
		lines = o.resultView()
	case stageUnknown:
		lines = o.unknownView()
	}
	return widget.Fit(strings.Join(lines, "\n"), o.width, o.height)
}

// heading names the action and the contract.
func (o *operator) heading() string {
	h := o.Title()
	if o.contract.Name != "" && o.action != api.ActionFundDistribution {
		h += " · " + sanitize.Line(o.contract.Name)
	}
	return h
}

func (o *operator) formView() []string {
	// The line under the title is for what went wrong or a hint; the
	// form's keys are in the footer, said once.
	status := ""
	switch {
	case o.general == fixMarked && !o.form.HasError():
		// The marked fields were fixed: the message went with their marks.
	case o.general != "":
		status = o.ctx.Styles.Fail.Render("✗ " + o.general)
	case o.hint != "":
		status = o.hint
	case o.adminFocused():
		status = o.adminNote()
	}
	if o.pick != nil {
		// The list's own line says its keys; esc closes it, not the form.
		return append([]string{o.ctx.Styles.Title.Render(o.heading()), ""}, o.pick.view(o.ctx.Styles, o.height-2)...)
	}
	// The warning takes the blank line: the form keeps its height.
	gap := ""
	if w := o.duplicateRows(); w != "" {
		gap = "! " + w
	}
	return []string{o.ctx.Styles.Title.Render(o.heading()), status, gap, o.form.View()}
}

// duplicateRows warns of an allocation in two rows of a funding
// (api.RepeatedAllocation).
func (o *operator) duplicateRows() string {
	ids := make([]string, len(o.rows))
	for i, r := range o.rows {
		ids[i] = r.id.Value()
	}
	if i, j, ok := api.RepeatedAllocation(ids); ok {
		return fmt.Sprintf("rows %d and %d fund the same allocation: it would be funded twice", i+1, j+1)
	}
	return ""
}

// rewrap lays the pretty body out for the width (never cut: every byte
// of the body is shown), when the body or the width changes, not on
// every frame.
func (o *operator) rewrap() {
	o.lines = widget.Hardwrap(o.lines, o.pretty, o.width)
}

func (o *operator) resultLines() []string {
	var lines []string
	if o.result == nil || len(o.result.Transactions) == 0 {
		return []string{"The service answered with no transactions."}
	}
	for _, tx := range o.result.Transactions {
		status, _ := tx.Shown()
		lines = append(lines, "  "+sanitize.Line(tx.TransactionID)+"  "+sanitize.Line(status))
	}
	return lines
}

func (o *operator) resultView() []string {
	n := 0
	if o.result != nil {
		n = len(o.result.Transactions)
	}
	noun := "transactions"
	if n == 1 {
		noun = "transaction"
	}
	lines := []string{o.ctx.Styles.Title.Render(fmt.Sprintf("Created %d %s (%s)", n, noun, o.action))}
	lines = append(lines, o.scroll.View()...)
	// The status above is the service's answer, and the last it gives.
	return append(lines, "They are on the Transactions screen (4).",
		"Their execution is not reported by the interface: no later state will be shown.")
}

func (o *operator) unknownView() []string {
	lines := append(o.unknownHead(), o.ctx.Styles.Muted.Render("Body sent:"))
	// Its keys are the footer's (Keys), as on every other page.
	return append(lines, o.scroll.View()...)
}

// unknownHead is what the page of an unknown outcome says above the body
// sent: what happened, and what the check found.
func (o *operator) unknownHead() []string {
	wrap := func(s string) []string { return strings.Split(widget.Page(s, o.width, 0), "\n") }
	lines := []string{o.ctx.Styles.Fail.Render("Outcome unknown: " + o.action)}
	lines = append(lines, wrap("The service may or may not have created the transaction(s): the request was sent but no readable answer came ("+
		sanitize.Line(errorCause(o.unknownErr))+"). It is recorded in the local journal.")...)
	lines = append(lines, "Body SHA-256 "+o.bodySum(), "")
	var check string
	switch v := o.outcome.Verdict(); {
	case o.outcome.Checking():
		check = "Checking whether the service applied it…"
	case o.outcome.CheckErr() != "":
		check = "The check failed: " + o.outcome.CheckErr() + ". Press c to check again."
	case v == nil:
	case v.Check == act.Applied:
		check = "applied: the service created it. It is not sent again."
	case v.Check == act.NotApplied:
		check = "not applied: safe to resend (r)."
	default:
		check = fmt.Sprintf("allot cannot check: %s. "+
			"Ask the service's operators whether a transaction with action %s was created at about %s "+
			"from a body with SHA-256 %s (the journal holds the body). Resend (r) only if they say it was not.",
			strings.TrimSuffix(v.Reason, "."), o.action, views.SentAt(o.sentAt), o.bodySum())
	}
	lines = append(lines, wrap(o.outcome.Numbered(check))...)
	if o.hint != "" {
		lines = append(lines, wrap(o.hint)...)
	}
	return lines
}

// errorCause is the innermost reason of err, short.
func errorCause(err error) string {
	var unknown *api.OutcomeUnknownError
	if errors.As(err, &unknown) && unknown.Err != nil {
		return sanitize.Truncate(unknown.Err.Error(), 120)
	}
	if err == nil {
		return "no answer"
	}
	return sanitize.Truncate(err.Error(), 120)
}

func (o *operator) Keys() widget.Bindings {
	if o.state == stageReview || o.state == stageResend {
		return o.asking.Bindings()
	}
	return o.bindings()
}
