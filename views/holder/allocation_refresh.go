package holder

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/wallet"
)

// The allocation on show is verified again on the chain's rhythm: what
// is unlocked, claimed and claimable moves with the blocks. The check is
// quiet: the figures on show stay while it runs, nothing is journaled
// and the status line is left alone; one that fails leaves them, marked
// stale in the header.

// refreshUpdate takes a RefreshMsg and the answer of the check it
// starts; ok says msg was one of them.
func (a *allocation) refreshUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case views.RefreshMsg:
		if !msg.Chain {
			return nil, true // the chain's numbers: their own rhythm
		}
		return a.refresh(), true
	case views.Loaded[*wallet.Verification]:
		if !a.refreshing || msg.Seq != a.refreshSeq {
			return nil, false
		}
		a.refreshing = false
		if msg.Err != nil {
			a.fresh.Stale = msg.Err
			return nil, true
		}
		a.result = msg.Value
		a.fresh = views.Freshness{At: a.ctx.Now()}
		a.detail.UpdateFields(verificationFields(msg.Value, a.ctx.Now(), unit(a.count.unit)))
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
	a.refreshSeq, a.refreshing = views.NextSeq(), true
	s, id, now := a.ctx.Session, a.looking, a.ctx.Now()
	return views.Load(a.ctx, a.refreshSeq, func(c context.Context) (*wallet.Verification, error) {
		return verify(c, s, id, now, func() {})
	})
}

// Freshness says how old the allocation on show is; zero before one is.
func (a *allocation) Freshness() views.Freshness {
	if a.result == nil {
		return views.Freshness{}
	}
	return a.fresh
}
