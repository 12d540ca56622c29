package proposals

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// NewSafeClaimFor is the claim of allocation id sent by a Safe of the
// profile, proposed by the unlocked key, from the allocation's page: the
// form chooses the Safe among the profile's Safes the unlocked key owns,
// read from the chain as it opens.
func NewSafeClaimFor(ctx *views.Context, id string) views.Screen {
	p := &propose{claim: true, choose: true}
	p.FormSign = views.NewFormSign(ctx, p.head, "review the Safe transaction")
	p.scroll.Styles = ctx.Styles
	p.chosenID = id
	return p
}

// readSafes reads the profile's Safes, to choose the one that claims.
func (p *propose) readSafes() tea.Cmd {
	p.Working = "Reading the profile's Safes"
	p.Seq = p.Reqs.Next()
	s := p.Ctx.Session
	return views.Load(p.Ctx, p.Seq, func(c context.Context) ([]session.SafeAccount, error) { return s.ReadSafes(c) })
}

// settleSafes makes the form once the Safes are read: the Safe, among
// those the unlocked key owns, then the claim's fields. A Safe that could
// not be read, or is no Safe, is not offered; the head says why none is.
func (p *propose) settleSafes(msg views.Loaded[[]session.SafeAccount]) tea.Cmd {
	p.Working = ""
	me, _, unlocked := p.Ctx.Wallet.Account()
	p.safes = map[string]session.SafeAccount{}
	var options, skipped []string
	for _, a := range msg.Value {
		switch {
		case a.Err != nil:
			skipped = append(skipped, a.Address.Hex()+": "+sanitize.Line(a.Err.Error()))
		case unlocked && a.Info.IsOwner(me):
			o := a.Address.Hex()
			p.safes[o] = a
			options = append(options, o)
		}
	}
	switch {
	case msg.Err != nil:
		p.loadErr = msg.Err
	case !unlocked:
		p.loadErr = errors.New("no key is unlocked: unlock an owner's key of the Safe first (esc, then u)")
	case len(options) == 0 && len(msg.Value) == 0:
		p.loadErr = errors.New("the profile lists no Safe (allot safe add SAFE lists one)")
	case len(options) == 0:
		p.loadErr = fmt.Errorf("the unlocked key %s owns none of the profile's Safes that could be read", me.Hex())
	}
	if len(skipped) > 0 && p.loadErr != nil {
		p.loadErr = fmt.Errorf("%w; not offered: %s", p.loadErr, strings.Join(skipped, "; "))
	}
	if p.loadErr != nil {
		p.Withhold()
		return nil
	}
	form := widget.NewForm(append([]*widget.FormField{widget.ChoiceField("safe", "Safe", options...)}, claimFields()...)...)
	form.Styles = p.Ctx.Styles
	p.Form = form
	p.SetSize(p.Width, p.height)
	form.Field("allocation").SetValue(p.chosenID)
	p.safe = p.safes[options[0]]
	return p.Form.Focus(0)
}

// chooseHead is what the form says above its fields when it chooses the
// Safe.
func (p *propose) chooseHead() string {
	st := p.Ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Claim, sent by a Safe of the profile") + "\n")
	b.WriteString(st.Muted.Render(widget.Truncate("the unlocked owner's key proposes and signs first; nothing is sent to the chain", max(p.Width, 20))) + "\n")
	if me, _, ok := p.Ctx.Wallet.Account(); ok {
		b.WriteString("Signing as the owner " + me.Hex() + "\n")
	}
	if p.loadErr != nil {
		for _, l := range widget.WrapWords("✗ "+sanitize.Line(p.loadErr.Error()), max(p.Width, 20)) {
			b.WriteString(l + "\n")
		}
	}
	return b.String() + "\n"
}
