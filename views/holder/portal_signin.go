package holder

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// fitMessage wraps the sign-in message to the width and gives it the
// rows signInLayout leaves it.
func (p *portal) fitMessage() {
	if p.confirm == nil {
		return
	}
	p.shown.Styles = p.ctx.Styles
	p.shown.SetLines(strings.Split(widget.Page(sanitize.Block(p.message), p.width, 0), "\n"))
	_, _, rows := p.signInLayout()
	p.shown.SetSize(p.width, rows)
}

// signInLayout is what goes above the sign-in message, whether rules
// frame it, and its rows. The question is drawn whole below it (it is
// answered only when seen) and the message keeps messageRows rows (its
// lines and where it scrolls), or all of it when shorter; what is around
// them gives way first, the rules, then the blank line, the head's
// status, the title, and last the caption that says the message is
// signed as shown.
func (p *portal) signInLayout() (top []string, rules bool, rows int) {
	head := strings.Split(strings.TrimSuffix(widget.Page(p.head(), p.width, 0), "\n"), "\n")
	caption := sanitize.Truncate("Sign-in message (EIP-4361), exactly as it will be signed:", p.width)
	free := p.height - lipgloss.Height(p.confirm.View())
	want := min(lipgloss.Height(widget.Page(sanitize.Block(p.message), p.width, 0))+1, messageRows)
	top = append(append(head, ""), caption)
	rules = len(top)+2+want <= free
	for _, shorter := range [][]string{append(head, caption), {head[0], caption}, {caption}, nil} {
		if len(top)+want <= free {
			break
		}
		top = shorter
	}
	rows = free - len(top)
	if rules {
		rows -= 2
	}
	return top, rules, max(rows, 2)
}

// prepare builds the sign-in message and shows it whole with a question;
// nothing is signed until the user says yes.
func (p *portal) prepare() tea.Cmd {
	p.err = nil
	if err := p.ctx.Session.Writable(); err != nil {
		p.err = err
		return nil
	}
	addr, _, ok := p.ctx.Wallet.Account()
	if !ok {
		p.err = errors.New("no account is unlocked: press u (or :unlock) to unlock one, then sign in")
		return nil
	}
	pt, err := p.ctx.Session.Portal()
	if err != nil {
		p.err = err
		return nil
	}
	msg, err := pt.Prepare(addr)
	if err != nil {
		p.err = fmt.Errorf("sign in: %w", err)
		return nil
	}
	p.pending, p.message = pt, msg.String()
	p.askSignIn(addr.Hex())
	p.fitMessage()
	p.shown.Home()
	return nil
}

// askSignIn asks whether to sign the message as account. Nothing is
// signed that was not seen whole: until the message was read to its end
// (the URI, the nonce and the expiry are there), only No answers, and
// the other keys say why.
func (p *portal) askSignIn(account string) {
	p.confirm = p.ctx.Confirm("signin", "Sign this message with "+account+"?",
		"The signature proves to the portal that you hold this wallet; the portal answers with a session token, kept in memory only. It moves no funds.")
	p.confirm.SetWidth(min(p.width, 90))
	p.confirm.Hold = func() string {
		if p.shown.SeenEnd() {
			return ""
		}
		return "see the whole message before signing: ↓/pgdn shows the rest"
	}
}

func (p *portal) signIn() tea.Cmd {
	signer := p.ctx.Wallet.Signer()
	if signer == nil {
		p.err = errors.New("the account locked itself before signing: unlock it again (u)")
		return nil
	}
	pt, text, rec := p.pending, p.message, p.ctx.Recorder
	p.seq = p.reqs.Next()
	p.busy = "signing in"
	return views.Load(p.ctx, p.seq, func(ctx context.Context) (wallet.Session, error) {
		return rec.SignIn(ctx, pt, text, signer)
	})
}
