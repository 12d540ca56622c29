package creative

import (
	"fmt"
	"strings"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

func (c *creative) SetSize(width, height int) {
	c.width, c.height = width, height
	c.picker.height = max(height-5, 1)
	c.picker.clamp()
	if c.form != nil {
		c.form.SetSize(max(width, 20), 6)
	}
	if c.asking != nil {
		c.asking.SetSize(max(width, 20), max(height, 6))
	}
	c.bar.Width = max(min(width-4, 60), 10)
}

func (c *creative) View() string {
	w, h := max(c.width, 20), max(c.height, 6)
	title := c.ctx.Styles.Title.Render("Upload a creative")
	var out []string
	switch c.state {
	case stagePick:
		out = []string{title + c.ctx.Styles.Muted.Render(" · choose a file (enter) · esc: cancel"),
			c.ctx.Styles.Muted.Render(sanitize.Truncate(c.picker.dir, w))}
		out = append(out, c.picker.lines()...)
		// The refusal wraps (it names the allowed types) in at most three
		// lines; the picker gives up what it takes.
		var refusal []string
		if c.pickErr != "" {
			refusal = strings.Split(widget.Page("✗ "+sanitize.Line(c.pickErr), w, 3), "\n")
		}
		// Cut, not padded: the refusal is drawn under the list.
		out = append(strings.Split(widget.Fit(strings.Join(out, "\n"), w, min(len(out), h-max(len(refusal), 2))), "\n"), refusal...)
	case stageDetails:
		out = []string{title + c.ctx.Styles.Muted.Render(" · ctrl+s: review · esc: another file"), "",
			sanitize.Truncate(fmt.Sprintf("File: %s · %s · %s", c.file.Name, c.file.Type, views.ByteSize(c.file.Size)), w)}
		if c.file.Stored != c.file.Name {
			out = append(out, strings.Split(widget.Page("Stored as "+c.file.Stored+": the service stores names of letters, digits, '.', '_' and '-' only.", w, 2), "\n")...)
		}
		out = append(out, "")
		out = append(out, strings.Split(c.form.View(), "\n")...)
		if c.message != "" {
			out = append(out, "", sanitize.Truncate(c.message, w))
		}
	case stageReview, stageRetry:
		out = []string{c.asking.View()}
	case stageWorking:
		step := sanitize.Truncate(fmt.Sprintf("%s: %s…", c.file.Name, c.step), w)
		if c.registering.Busy() {
			step = c.registering.Spinner() + " " + sanitize.Truncate(fmt.Sprintf("%s: %s…", c.file.Name, c.step), w-2)
		}
		out = []string{title, "", step, ""}
		frac := 0.0
		if c.file.Size > 0 {
			frac = float64(c.sent) / float64(c.file.Size)
		}
		out = append(out, c.bar.ViewAs(frac), fmt.Sprintf("%d%% · %s of %s", int(frac*100), views.ByteSize(c.sent), views.ByteSize(c.file.Size)))
	case stageDone:
		r := c.result
		// Wrapped, not cut: a URL cut short cannot be read off the screen.
		// A long value wraps under itself, not under the labels.
		field := func(label, value string) string {
			const indent = "             "
			return fmt.Sprintf("%-13s", label) + strings.Join(widget.WrapWords(sanitize.Line(value), max(w-len(indent), 20)), "\n"+indent)
		}
		done := widget.Page("Uploaded and registered "+sanitize.Line(c.file.Name)+"\n\n"+
			field("Public URL", r.PublicURL)+"\n"+field("ID", r.ID)+"\n"+field("Storage key", r.StorageKey), w, 0)
		out = append([]string{title, ""}, strings.Split(done, "\n")...)
		out = append(out, "", c.ctx.Styles.Muted.Render("c: copy the public URL · esc: close"))
	case stageFailed:
		out = []string{title, "", "✗ " + sanitize.Line(c.err), ""}
		if c.unknown && c.uploaded != nil {
			out = append(out, strings.Split(widget.Page("No readable answer came: the creative may or may not be registered. The journal records the attempt. "+c.outcome.Note(), w, 0), "\n")...)
			if c.hint != "" {
				out = append(out, strings.Split(widget.Page(c.hint, w, 0), "\n")...)
			}
			out = append(out, "")
		}
		keys := "esc: back to the details (review sends everything again)"
		if c.againOffered() {
			keys = "r: register the uploaded file again (asks first) · " + keys
		}
		if c.unknown && c.uploaded != nil && !c.outcome.Applied() {
			keys = "c: check again · " + keys
		}
		out = append(out, c.ctx.Styles.Muted.Render(keys))
	}
	return widget.Fit(strings.Join(out, "\n"), w, h)
}

func (c *creative) Keys() widget.Bindings {
	if c.state == stageReview || c.state == stageRetry {
		return c.asking.Bindings()
	}
	return c.bindings()
}

// againOffered says whether r is offered on a failed registration: the
// file is uploaded, and no check found the first applied or is running.
func (c *creative) againOffered() bool {
	return c.uploaded != nil && !c.outcome.Applied() && !c.outcome.Checking()
}
