package schedule

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// key gives k to the stage's bindings, then to what the stage holds: the
// form, the question being asked, the body's scroll.
func (s *schedule) key(k tea.KeyMsg) tea.Cmd {
	switch {
	case s.state == stageReview || s.state == stageResending:
		return s.asking.Update(k)
	case s.state == stageUnknown && s.scroll.Key(k):
		return nil
	}
	form := s.state == stageForm
	cmd, handled := s.bindings().Dispatch(k)
	if !handled && form {
		cmd = s.form.Update(k)
		s.syncKinds()
		s.revalidate()
	}
	return cmd
}

// bindings are the page's keys in its stage, which its dispatch, the
// footer and the help read; a question (review, resend) answers its own.
// The form's keys are its own, listed in the help beside the page's.
func (s *schedule) bindings() widget.Bindings {
	switch s.state {
	case stageForm:
		return append(widget.Bindings{
			{Key: keyReview, Short: true, Run: s.review},
			{Key: keyAdd, Short: true, Run: s.addPiece},
			{Key: keyRemove, Short: true, Run: func() tea.Cmd { s.removePiece(); return nil }},
			{Key: keyCancel, Short: true, Run: func() tea.Cmd { return views.Back }},
		}, widget.Described(s.form.ShortHelp()...).InGroup("form")...)
	case stageCreated:
		return widget.Bindings{
			{Key: keyCopy, Short: true, Run: func() tea.Cmd { return s.ctx.Clipboard.Copy(s.created.Key) }},
			{Key: keyNew, Short: true, Run: func() tea.Cmd { s.reset(); return s.form.Focus(0) }},
			{Key: keyClose, Short: true, Run: func() tea.Cmd { return views.Back }},
		}
	case stageUnknown:
		// A write a check found applied is not sent again: c and r leave
		// the footer (r says why when pressed).
		open := !s.outcome.Applied()
		return widget.Bindings{
			{Key: keyCheck, Short: open, Run: func() tea.Cmd {
				s.hint = ""
				cmd := s.outcome.Check()
				s.layout()
				return cmd
			}},
			{Key: keyResend, Short: open, Run: func() tea.Cmd { s.askResend(); return nil }},
			{Key: s.scroll.Help("scroll body"), Short: true}, // s.scroll.Key moves it
			{Key: keyEdit, Short: true, Run: func() tea.Cmd {
				s.state = stageForm
				return s.form.Focus(s.form.Focused())
			}},
		}
	}
	return nil
}
