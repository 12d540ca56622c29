package operator

import (
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// key gives msg to what holds it first (a question, the open pick list,
// the body's scroll), then to the stage's bindings, then to the form.
func (o *operator) key(msg tea.KeyMsg) tea.Cmd {
	switch o.state {
	case stageReview, stageResend:
		return o.asking.Update(msg)
	case stageForm:
		o.hint = ""
		if o.pick != nil {
			o.pickKey(msg)
			return nil
		}
	case stageResult:
		o.scroll.Key(msg)
		return nil
	case stageUnknown:
		defer o.fitScroll() // the check and a hint change the page
		if o.scroll.Key(msg) {
			return nil
		}
	}
	form := o.state == stageForm
	cmd, handled := o.bindings().Dispatch(msg)
	if !handled && form {
		return o.form.Update(msg)
	}
	return cmd
}

// bindings are the page's keys in its stage, which its dispatch, the
// footer and the help read; a question (review, resend) answers its own,
// and the pick list and the form theirs, listed here. ctrl+r opens the
// demo admin wallets on an admin field, the recent lookups elsewhere.
func (o *operator) bindings() widget.Bindings {
	scroll := widget.Binding{Key: o.scroll.Help("scroll"), Short: true} // o.scroll.Key moves it
	closing := widget.Binding{Key: keyClose, Short: true}               // the dashboard's esc
	switch o.state {
	case stageForm:
		if o.pick != nil {
			return widget.Described(o.pick.help()...).InFooter()
		}
		fund := o.action == api.ActionFundDistribution
		add, del, admins, recent := keyAddRow, keyDelRow, keyAdmins, keyRecent
		add.SetEnabled(fund)
		del.SetEnabled(fund)
		admins.SetEnabled(o.adminFocused() && len(o.admins) > 0)
		recent.SetEnabled(o.action != api.ActionInitialize && !admins.Enabled())
		return append(widget.Bindings{
			{Key: keyReview, Short: true, Run: o.review},
			{Key: add, Short: true, Run: o.addRow},
			{Key: del, Short: true, Run: func() tea.Cmd { o.removeRow(); return nil }},
			{Key: admins, Short: true, Run: func() tea.Cmd { o.openAdmins(); return nil }},
			{Key: recent, Short: true, Run: func() tea.Cmd { o.openPick(); return nil }},
			{Key: keyCancel, Short: true, Run: func() tea.Cmd { return views.Back }},
		}, widget.Described(o.form.ShortHelp()...).InGroup("form")...)
	case stageResult:
		return widget.Bindings{scroll, closing}
	case stageUnknown:
		// A write a check found applied is not sent again: c and r leave
		// the footer (r says why when pressed).
		open := !o.outcome.Applied()
		return widget.Bindings{
			{Key: keyCheck, Short: open, Run: o.outcome.Check},
			{Key: keyResend, Short: open, Run: o.askResend},
			scroll, closing,
		}
	}
	return nil
}
