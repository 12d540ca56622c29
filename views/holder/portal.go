package holder

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
)

// portal signs the unlocked account in to the claim portal (the message
// shown in full before it is signed), shows the submission of the signed-in
// wallet, and the humanity status of any wallet.
type portal struct {
	ctx  *views.Context
	keys portalKeys

	// Sign-in: the message waiting for a yes, and the confirm asking it.
	pending *wallet.Portal
	message string
	confirm *widget.Confirm
	// shown is the message, scrolled when the terminal is too short for
	// it and the question together.
	shown widget.Scroll

	submission *api.SubmissionAccounts
	// submitter is the wallet whose submission this is: shown only while
	// that wallet is the one signed in (unlocking another account, or the
	// session's end, signs it out).
	submitter common.Address
	// unread is why the last read of the submission failed: its facts are
	// then unknown, never the zero answer's "no".
	unread     error
	humanityIn textinput.Model
	humanity   string // the last answer, as a line

	reqs views.Requests
	seq  int
	busy string // what runs, for the screen; empty when idle
	err  error

	width, height int
}

type portalKeys struct {
	SignIn, SignOut, Refresh, Humanity key.Binding
	// Check and StopEdit answer while a wallet is typed.
	Check, StopEdit key.Binding
}

// NewPortal is the portal screen.
func NewPortal(ctx *views.Context) views.Screen {
	in := textinput.New()
	in.Prompt = "Wallet: "
	in.Placeholder = "0x… address"
	in.CharLimit = 42
	return &portal{ctx: ctx, humanityIn: in, keys: portalKeys{
		SignIn:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sign in")),
		SignOut:  key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sign out")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload submission")),
		Humanity: key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "humanity of a wallet")),
		Check:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "check the wallet")),
		StopEdit: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop editing")),
	}}
}

type humanityAnswer struct {
	wallet string
	res    *api.HumanityResult
}

func (p *portal) Title() string { return "Portal" }
func (p *portal) Mode() views.Mode {
	return views.Mode{Busy: p.busy != "", TakesKeys: p.humanityIn.Focused() || p.confirm != nil}
}

func (p *portal) SetSize(width, height int) {
	p.width, p.height = width, height
	p.humanityIn.Width = 44
	if p.confirm != nil {
		p.confirm.SetWidth(min(width, 90))
	}
	p.fitMessage()
}

// messageRows is what the sign-in message keeps before the page's head
// stays: five of its lines and where it scrolls, so the address, the
// chain and the expiry are read in few steps.
const messageRows = 6

func (p *portal) Init() tea.Cmd { return p.loadSubmission() }

func (p *portal) loadSubmission() tea.Cmd {
	pt, sess, ok := p.ctx.Wallet.Portal(p.ctx.Now())
	if !ok {
		return nil
	}
	p.seq = p.reqs.Next()
	p.busy = "reading the submission"
	p.submission, p.submitter, p.unread = nil, sess.Wallet, nil
	return views.Load(p.ctx, p.seq, func(ctx context.Context) (*api.SubmissionAccounts, error) {
		return pt.SubmissionAccounts(ctx)
	})
}

func (p *portal) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.key(msg)
	case widget.ConfirmMsg:
		if !p.confirm.Answers(msg) {
			return nil
		}
		p.confirm = nil
		if !msg.Yes {
			p.pending, p.message = nil, ""
			return func() tea.Msg { return views.StatusMsg{Text: "sign-in cancelled: nothing was signed"} }
		}
		return p.signIn()
	case views.Loaded[wallet.Session]:
		if msg.Seq != p.seq {
			return nil
		}
		pt := p.pending
		p.busy, p.pending, p.message = "", nil, ""
		if msg.Err != nil {
			p.err = msg.Err
			return nil
		}
		p.submission = nil
		p.ctx.Wallet.SignedIn(pt, msg.Value)
		return tea.Batch(p.loadSubmission(),
			func() tea.Msg { return views.StatusMsg{Text: "signed in to the portal"} })
	case views.Loaded[*api.SubmissionAccounts]:
		if msg.Seq != p.seq {
			return nil
		}
		p.busy = ""
		if p.unread = msg.Err; msg.Err == nil {
			p.submission = msg.Value
		}
	case views.Loaded[humanityAnswer]:
		if msg.Seq != p.seq {
			return nil
		}
		p.busy = ""
		if msg.Err != nil {
			p.err = msg.Err
			return nil
		}
		verdict := "has NOT passed proof of humanity"
		if msg.Value.res.Verified {
			verdict = "passed proof of humanity"
		}
		p.humanity = msg.Value.wallet + " " + verdict
	}
	if p.humanityIn.Focused() {
		var cmd tea.Cmd
		p.humanityIn, cmd = p.humanityIn.Update(msg)
		return cmd
	}
	return nil
}

func (p *portal) key(msg tea.KeyMsg) tea.Cmd {
	if p.confirm != nil {
		if p.shown.Key(msg) {
			return nil
		}
		return p.confirm.Update(msg) // its Bindings, yes held until the message is read (askSignIn)
	}
	cmd, handled := p.bindings().Dispatch(msg)
	if !handled && p.humanityIn.Focused() {
		p.humanityIn, cmd = p.humanityIn.Update(msg)
	}
	return cmd
}

// bindings are the screen's keys as it stands (but for the sign-in
// question's, its own), which its dispatch, the footer and the help
// read: the wallet field's while it is typed, the portal's otherwise
// (none while a request runs).
func (p *portal) bindings() widget.Bindings {
	if p.humanityIn.Focused() {
		return widget.Bindings{
			{Key: p.keys.Check, Short: true, Run: p.askHumanity},
			{Key: p.keys.StopEdit, Short: true, Run: func() tea.Cmd { p.humanityIn.Blur(); return nil }},
		}
	}
	if p.busy != "" {
		return nil
	}
	// Signing out and reloading the submission need a portal session; a
	// read-only session signs nothing.
	signedOut := func() string {
		if _, _, ok := p.ctx.Wallet.Portal(p.ctx.Now()); !ok {
			return "not signed in to the portal"
		}
		return ""
	}
	readOnly := func() string {
		if err := p.ctx.Session.Writable(); err != nil {
			return err.Error()
		}
		return ""
	}
	return widget.Bindings{
		{Key: p.keys.SignIn, Short: true, Run: p.prepare, Disabled: readOnly},
		{Key: p.keys.SignOut, Short: true, Disabled: signedOut, Run: func() tea.Cmd {
			p.ctx.Wallet.SignOut()
			p.submission = nil
			return func() tea.Msg { return views.StatusMsg{Text: "signed out: the portal token is forgotten"} }
		}},
		{Key: p.keys.Refresh, Short: true, Run: p.loadSubmission, Disabled: signedOut},
		{Key: p.keys.Humanity, Short: true, Run: func() tea.Cmd {
			p.err = nil
			if addr, _, ok := p.ctx.Wallet.Account(); ok && p.humanityIn.Value() == "" {
				p.humanityIn.SetValue(addr.Hex())
			}
			return p.humanityIn.Focus()
		}},
	}
}

func (p *portal) askHumanity() tea.Cmd {
	p.err = nil
	v := strings.TrimSpace(p.humanityIn.Value())
	if err := api.CheckAddress("wallet", v); err != nil {
		p.err = err
		return nil
	}
	p.humanityIn.Blur()
	addr := common.HexToAddress(v).Hex()
	p.seq = p.reqs.Next()
	p.busy = "asking about humanity"
	client := p.ctx.Session.API
	return views.Load(p.ctx, p.seq, func(ctx context.Context) (humanityAnswer, error) {
		res, err := client.Humanity(ctx, addr)
		return humanityAnswer{wallet: addr, res: res}, err
	})
}

func (p *portal) View() string {
	st := p.ctx.Styles
	if p.confirm != nil {
		top, rules, _ := p.signInLayout()
		rule := st.Border.Render(strings.Repeat("─", min(p.width, 60)))
		out := top
		if rules {
			out = append(out, rule)
		}
		out = append(out, p.shown.View()...)
		if rules {
			out = append(out, rule)
		}
		out = append(out, p.confirm.View())
		return widget.Page(strings.Join(out, "\n"), p.width, p.height)
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	b.WriteString(p.head())
	_, sess, signed := p.ctx.Wallet.Portal(p.ctx.Now())
	line("")
	line(st.Title.Render("Submission"))
	switch {
	case p.submission != nil && signed && sess.Wallet == p.submitter:
		s := p.submission
		claim := "(not named)"
		if s.ClaimWallet != nil {
			claim = sanitize.Line(*s.ClaimWallet)
		}
		line(fmt.Sprintf("submitted %s · humanity passed %s · claim wallet %s", yesNo(s.Submitted), yesNo(s.PohPassed), claim))
		if len(s.Accounts) == 0 {
			line(st.Muted.Render("no submission accounts"))
		}
		for _, a := range s.Accounts {
			desc := ""
			if a.Description != nil {
				desc = " · " + sanitize.Line(*a.Description)
			}
			line(hang(fmt.Sprintf("  %s  %s  eligible %s%s", sanitize.Line(a.Value), sanitize.Line(a.Type), yesNo(a.IsEligible), desc), p.width, 4))
		}
	case p.unread != nil && signed:
		line("submitted unknown · humanity passed unknown: ✗ " + sanitize.Line(p.unread.Error()))
	case signed:
		line(st.Muted.Render("r reads the submission accounts of the signed-in wallet"))
	default:
		line(st.Muted.Render("Sign in to see the submission accounts of your wallet."))
	}
	line("")
	line(st.Title.Render("Proof of humanity"))
	if p.humanityIn.Focused() {
		line(p.humanityIn.View())
		line(st.Muted.Render("enter asks · esc cancels"))
	} else {
		line(st.Muted.Render("h asks whether any wallet passed proof of humanity"))
	}
	if p.humanity != "" {
		line(p.humanity)
	}
	if p.busy != "" {
		line("")
		line(p.busy + "…")
	}
	if p.err != nil {
		line("")
		line("✗ " + sanitize.Line(p.err.Error()))
	}
	return widget.Page(b.String(), p.width, p.height)
}

// head is the title and where the wallet stands: unlocked, signed in.
func (p *portal) head() string {
	st := p.ctx.Styles
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(st.Title.Render("Claim portal"))
	now := p.ctx.Now()
	addr, _, unlocked := p.ctx.Wallet.Account()
	_, sess, signed := p.ctx.Wallet.Portal(now)
	switch {
	case signed:
		line(fmt.Sprintf("Signed in as %s; the session expires in %s (o signs out).", sess.Wallet.Hex(), sess.TimeLeft(now).Round(1e9)))
	case unlocked:
		line(fmt.Sprintf("Not signed in. s signs in as %s (the message is shown before anything is signed).", addr.Hex()))
	default:
		line("Not signed in, and no account is unlocked: press u (or :unlock) first.")
	}
	return b.String()
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// Keys are the sign-in question's and the message's scroll (p.shown.Key
// moves it) while it is asked, the screen's otherwise.
func (p *portal) Keys() widget.Bindings {
	if p.confirm != nil {
		return append(p.confirm.Bindings(), widget.Binding{Key: p.shown.Help("scroll the message"), Short: true, Label: true})
	}
	return p.bindings()
}

// hang wraps s to width with its lines after the first indented by
// indent, so that a wrapped account reads as one, not as the next.
func hang(s string, width, indent int) string {
	lines := strings.Split(widget.Page(s, max(width-indent, 20), 0), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", indent) + strings.TrimLeft(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}
