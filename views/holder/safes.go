package holder

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet/keystore"
)

// safesPane is the profile's Safes among the accounts (safes = [...],
// docs/custody.md), under the keystore's own on the Unlock page: each
// read from the chain through the session, with its threshold, nonce and
// owners, the owners whose keys the keystore holds marked. A Safe is no
// key to unlock: its owners sign for it. A listed address the canonical
// checks refuse is shown with why, never as an account. The list is read
// again on the lists' rhythm, quietly: the Safes on show stay while it
// runs, and one the node could not answer for keeps its last reading,
// marked stale in the header.
type safesPane struct {
	ctx  *views.Context
	spin spinner.Model

	reqs    views.Requests
	seq     int
	loading bool
	quiet   bool // the read in flight is a refresh
	list    []session.SafeAccount
	err     error // why the list could not be read, while none is on show
	fresh   views.Freshness
}

func newSafesPane(ctx *views.Context) *safesPane {
	return &safesPane{ctx: ctx, spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// read reads the profile's Safes, unless a read runs; a refresh (quiet)
// turns no spinner.
func (p *safesPane) read(quiet bool) tea.Cmd {
	if p.loading {
		return nil
	}
	p.seq, p.loading, p.quiet = p.reqs.Next(), true, quiet
	s := p.ctx.Session
	load := views.Load(p.ctx, p.seq, func(c context.Context) ([]session.SafeAccount, error) {
		return s.ReadSafes(c)
	})
	if quiet {
		return load
	}
	return tea.Batch(p.spin.Tick, load)
}

// Update takes the pane's answers, its spinner's ticks and the lists'
// rhythm; handled is false for what is not the pane's.
func (p *safesPane) Update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if msg.ID != p.spin.ID() {
			return nil, false
		}
		if !p.loading || p.quiet {
			return nil, true
		}
		p.spin, cmd = p.spin.Update(msg)
		return cmd, true
	case views.RefreshMsg:
		// A Safe's owners, threshold and nonce change by its own
		// transactions, which the lists' rhythm is quick enough for.
		if msg.Chain {
			return nil, true
		}
		return p.read(true), true
	case views.SafesChanged:
		p.loading = false // a read begun before the change is superseded
		return p.read(true), true
	case views.Loaded[[]session.SafeAccount]:
		if msg.Seq == p.seq {
			p.loading = false
			p.settle(msg.Value, msg.Err)
		}
		return nil, true
	}
	return nil, false
}

// settle shows a read's answer. A refresh that failed keeps what is on
// show, marked stale; a Safe the node did not answer for keeps its last
// good reading. A refusal is never kept over: it is shown at once.
func (p *safesPane) settle(list []session.SafeAccount, err error) {
	if err != nil {
		if len(p.list) > 0 {
			p.fresh.Stale = err
			return
		}
		p.err = err
		return
	}
	var stale error
	for i, a := range list {
		if a.Err == nil || a.Refused() {
			continue
		}
		for _, old := range p.list {
			if old.Address == a.Address && old.Err == nil {
				list[i], stale = old, a.Err
			}
		}
	}
	at := p.ctx.Now()
	if stale != nil {
		// A reading kept is as old as the last full one.
		at = p.fresh.At
	}
	p.list, p.err = list, nil
	p.fresh = views.Freshness{At: at, Stale: stale}
}

// Freshness is how old the Safes on show are; zero while there are none.
func (p *safesPane) Freshness() views.Freshness {
	if len(p.list) == 0 {
		return views.Freshness{}
	}
	return p.fresh
}

// View is the pane's lines in width: held are the addresses whose keys
// the keystore holds, unlocked the one unlocked now (zero: none); the
// Safe at index selected of the list is marked, hint under it.
func (p *safesPane) View(width int, held map[common.Address]bool, unlocked common.Address, selected int, hint []string) []string {
	st := p.ctx.Styles
	title := st.Title.Render("Safes of the profile")
	switch {
	case p.loading && !p.quiet && len(p.list) == 0:
		return []string{title, widget.Truncate(p.spin.View()+" Reading the profile's Safes from the chain…", width)}
	case p.err != nil:
		return append([]string{title}, wordWrap("✗ Could not read the profile's Safes: "+sanitize.Line(p.err.Error()), width)...)
	case len(p.list) == 0:
		if !p.ctx.Session.CanPin() {
			return nil
		}
		return []string{st.Muted.Render(widget.Truncate("Safes: the profile lists none (allot safe add SAFE lists one).", width))}
	}
	lines := []string{title}
	for i, a := range p.list {
		lines = append(lines, p.safeLines(a, width, held, unlocked, i == selected)...)
		if i == selected {
			lines = append(lines, hint...)
		}
	}
	return lines
}

// safeLines are one Safe's lines: the Safe (marked when the cursor is on
// it), what it takes to sign, and its owners, each marked when its key is
// here; or why it is no account.
func (p *safesPane) safeLines(a session.SafeAccount, width int, held map[common.Address]bool, unlocked common.Address, selected bool) []string {
	var lines []string
	switch {
	case a.Refused():
		return failedSafe(a, "is no Safe allot works with", width)
	case a.Err != nil:
		lines = failedSafe(a, "could not be read", width)
	default:
		lines = p.readSafeLines(a, width, held, unlocked)
	}
	if selected {
		lines[0] = p.ctx.Styles.Selected.Render("▶ " + strings.TrimPrefix(lines[0], "  "))
	}
	return lines
}

// readSafeLines are the lines of a Safe read from the chain.
func (p *safesPane) readSafeLines(a session.SafeAccount, width int, held map[common.Address]bool, unlocked common.Address) []string {
	st := p.ctx.Styles
	mine := 0
	for _, o := range a.Info.Owners {
		if held[o] {
			mine++
		}
	}
	lines := []string{
		widget.Truncate("  "+a.Address.Hex()+"  "+a.Info.Kind.String(), width),
		widget.Truncate(fmt.Sprintf("    %d of %d owners sign · nonce %s · %s", a.Info.Threshold, len(a.Info.Owners), a.Info.Nonce, keysHere(mine)), width),
	}
	for _, o := range a.Info.Owners {
		line := "      " + o.Hex()
		switch {
		case o == unlocked:
			line = "    ✓ " + o.Hex() + st.Muted.Render("  unlocked")
		case held[o]:
			line = "    ✓ " + o.Hex() + st.Muted.Render("  key in the keystore")
		}
		lines = append(lines, widget.Truncate(line, width))
	}
	return lines
}

// failedSafe are the lines of a Safe that is no account: the Safe and
// what befell it, then why, indented under it (without the address the
// reason starts with, said already).
func failedSafe(a session.SafeAccount, what string, width int) []string {
	lines := []string{widget.Truncate("  ✗ "+a.Address.Hex()+" "+what+":", width)}
	why := strings.TrimPrefix(sanitize.Line(a.Err.Error()), a.Address.Hex()+": ")
	for _, l := range wordWrap(why, max(width-4, 10)) {
		lines = append(lines, "    "+l)
	}
	return lines
}

// keysHere says how many of a Safe's owners' keys the keystore holds.
func keysHere(n int) string {
	switch n {
	case 0:
		return "no owner's key is in the keystore"
	case 1:
		return "1 owner's key is in the keystore"
	}
	return fmt.Sprintf("%d owners' keys are in the keystore", n)
}

// heldKeys are the addresses of the keystore's accounts that name one.
func heldKeys(accounts []keystore.Account) map[common.Address]bool {
	held := map[common.Address]bool{}
	for _, a := range accounts {
		if !a.Unnamed {
			held[a.Address] = true
		}
	}
	return held
}
