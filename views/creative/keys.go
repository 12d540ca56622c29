package creative

import (
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// key gives k to the stage's bindings, then to what the stage holds: the
// form, or the question being asked.
func (c *creative) key(k tea.KeyMsg) tea.Cmd {
	switch c.state {
	case stageReview, stageRetry:
		return c.asking.Update(k)
	}
	cmd, handled := c.bindings().Dispatch(k)
	switch {
	case c.state == stagePick:
		c.picker.clamp()
	case !handled && c.state == stageDetails:
		// The form checks what changed; enter on the last field reviews.
		cmd = c.form.Update(k)
		if c.state == stageDetails {
			if loose := c.unmatched(); loose != "" {
				c.message = loose
			}
		}
	}
	return cmd
}

// bindings are the page's keys in its stage, which its dispatch, the
// footer and the help read; a question (review, retry) answers its own.
func (c *creative) bindings() widget.Bindings {
	back := func() tea.Cmd { return views.Back }
	switch c.state {
	case stagePick:
		return append(widget.Bindings{
			{Key: keyChoose, Short: true, Run: c.choose},
			{Key: keyUp, Short: true, Run: func() tea.Cmd { return c.picker.read(filepath.Dir(c.picker.dir)) }},
			{Key: keyClose, Short: true, Run: back},
		}, c.picker.bindings()...)
	case stageDetails:
		return append(widget.Bindings{
			{Key: keyReview, Short: true, Run: c.review},
			{Key: keyBack, Short: true, Run: func() tea.Cmd {
				c.state = stagePick
				c.message = ""
				return tea.Batch(c.picker.read(c.picker.dir), c.picker.tick())
			}},
		}, widget.Described(c.form.ShortHelp()...).InFooter()...)
	case stageFailed:
		// A check is offered while it can still tell; r while the file is
		// uploaded and no check found the first registration applied.
		check, again := keyCheck, keyAgain
		check.SetEnabled(c.unknown && c.uploaded != nil)
		again.SetEnabled(c.uploaded != nil)
		return widget.Bindings{
			{Key: check, Short: !c.outcome.Applied(), Run: func() tea.Cmd { c.hint = ""; return c.outcome.Check() }},
			{Key: again, Short: c.againOffered(), Run: func() tea.Cmd { c.askRegister(); return nil }},
			{Key: keyBack, Short: true, Run: func() tea.Cmd {
				c.state, c.err, c.uploaded = stageDetails, "", nil
				return c.form.Focus(c.form.Focused())
			}},
		}
	case stageDone:
		return widget.Bindings{
			{Key: keyCopy, Short: true, Run: func() tea.Cmd { return c.ctx.Clipboard.Copy(c.result.PublicURL) }},
			{Key: keyClose, Short: true, Run: back},
		}
	}
	return nil
}

// choose opens the folder under the cursor, or inspects the file there.
func (c *creative) choose() tea.Cmd {
	f := c.picker
	if f.cursor >= len(f.entries) {
		return nil
	}
	e := f.entries[f.cursor]
	if e.dir {
		return f.read(filepath.Join(f.dir, e.name))
	}
	c.pickErr = ""
	path := filepath.Join(f.dir, e.name)
	return func() tea.Msg { return inspect(path) }
}
