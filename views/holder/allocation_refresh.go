package holder

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/views"
	"allot/wallet"
)

// The allocation on show is verified again on the chain's rhythm: what
// is unlocked, claimed and claimable moves with the blocks. The check is
// quiet: the figures on show stay while it runs, nothing is journaled
// and the status line is left alone; one that fails leaves them, marked
// stale in the header. It verifies on the basis the last check read (the
// tokens' contract lists and the profile's pins: session.VerifyBasis),
// which the lists' rhythm has read anew by the next check; a block costs
// no contract list and no read of the profile's file. Signing reads the
// pins at its own review, whatever the screen shows. A lookup that failed
// as the service was down (api.Unavailable) is made again on the lists'
// rhythm; its error leaves the status line as it starts.

// reverified is a check's answer: the allocation verified again, the
// basis when the check read it anew, and the Safe of the profile it pays
// now, if any, read again too: its owners and nonce may have moved.
type reverified struct {
	v     *wallet.Verification
	basis *session.VerifyBasis
	safe  *session.SafeAccount
}

// refreshUpdate takes a RefreshMsg and the answer of the check it
// starts; ok says msg was one of them.
func (a *allocation) refreshUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case views.RefreshMsg:
		if !msg.Chain {
			// The lists may have changed: the next check reads them. A
			// lookup the service was down for tries again, as a list whose
			// first load failed does.
			a.basis = nil
			if a.retry != "" && a.result == nil && !a.busy && !a.input.Focused() {
				return a.lookup(a.retry), true
			}
			return nil, true
		}
		return a.refresh(), true
	case views.Loaded[reverified]:
		if !a.refreshing || msg.Seq != a.refreshSeq {
			return nil, false
		}
		a.refreshing = false
		if msg.Err != nil {
			a.fresh.Stale = msg.Err
			return nil, true
		}
		a.result, a.holderSafe = msg.Value.v, msg.Value.safe
		if msg.Value.basis != nil {
			a.basis = msg.Value.basis
		}
		a.fresh = views.Freshness{At: a.ctx.Now()}
		a.detail.UpdateFields(verificationFields(a.result, a.ctx.Now(), unit(a.count.unit)))
		return nil, true
	}
	return nil, false
}

// refresh verifies the allocation on show again, unless none is, or a
// lookup or a check runs.
func (a *allocation) refresh() tea.Cmd {
	if a.result == nil || a.busy || a.refreshing {
		return nil
	}
	a.refreshSeq, a.refreshing = a.reqs.Next(), true
	s, id, now, basis := a.ctx.Session, a.looking, a.ctx.Now(), a.basis
	return views.Load(a.ctx, a.refreshSeq, func(c context.Context) (reverified, error) {
		v, read, err := verify(c, s, id, now, basis, func() {})
		if err != nil {
			return reverified{}, err
		}
		r := reverified{v: v, safe: holderSafe(c, s, v)}
		if basis == nil {
			r.basis = &read
		}
		return r, nil
	})
}

// Freshness says how old the allocation on show is; zero before one is.
func (a *allocation) Freshness() views.Freshness {
	if a.result == nil {
		return views.Freshness{}
	}
	return a.fresh
}
