package holder

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/journal"
	"allot/core/session"
	"allot/views"
	"allot/wallet"
)

// lookup looks up allocation id: its proof read and verified, the
// lookup journaled once the service has shown it knows the id.
func (a *allocation) lookup(id string) tea.Cmd {
	id = strings.TrimSpace(id)
	a.input.Blur()
	a.input.SetValue(id)
	if err := api.CheckUUID("allocation id", id); err != nil {
		a.result = nil
		return func() tea.Msg { return views.ErrorMsg{Op: "allocation", Err: err} }
	}
	a.seq = a.reqs.Next()
	a.busy, a.looking, a.refreshing, a.retry = true, id, false, ""
	s, j := a.ctx.Session, a.ctx.Journal
	now := a.ctx.Now()
	// An earlier lookup's failure leaves the status line as this one
	// starts: it says nothing of this one. In sequence, not in a batch:
	// a batch runs both at once, and a failure quicker than the clear
	// would be wiped by it.
	clear := func() tea.Msg { return views.StatusMsg{} }
	return tea.Sequence(clear, views.Load(a.ctx, a.seq, func(c context.Context) (lookedUp, error) {
		v, basis, err := verify(c, s, id, now, nil, func() {
			if j != nil {
				// Only an id the service knows is worth offering again. A
				// failed write only costs the recent list.
				_ = j.Append(s.Deployment().Stamp(journal.Entry{Kind: journal.KindLookup, Ref: id}))
			}
		})
		if err != nil {
			return lookedUp{}, err
		}
		return lookedUp{v: v, unit: s.VesterUnits(c)(v.Vester), basis: basis, safe: holderSafe(c, s, v)}, nil
	}))
}

// lookedUp is a lookup's answer: the allocation verified, how its
// amounts are named (session.VesterUnits): after the token whose
// contracts list its vester, not the token the dashboard shows, which may
// be another; the basis it was verified on; and the Safe of the profile
// it pays now, if any (holderSafe).
type lookedUp struct {
	v     *wallet.Verification
	unit  string
	basis session.VerifyBasis
	safe  *session.SafeAccount
}

// verify reads allocation id's proof from the service and verifies it,
// against the chain, as of now, on basis, or on one read now when basis
// is nil (session.VerifyBasis: the contract lists and the pins); known
// runs once the service has shown it knows the id. It returns the basis
// it verified on.
func verify(c context.Context, s *session.Session, id string, now time.Time, basis *session.VerifyBasis, known func()) (*wallet.Verification, session.VerifyBasis, error) {
	p, err := s.API.MerkleProof(c, id)
	if err != nil {
		return nil, session.VerifyBasis{}, err
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, session.VerifyBasis{}, err
	}
	proof, err := wallet.DecodeProof(raw)
	if err != nil {
		return nil, session.VerifyBasis{}, err
	}
	known()
	if basis == nil {
		b := s.VerifyBasis(c)
		basis = &b
	}
	opts := basis.Options
	opts.Now = now
	v := wallet.VerifyProof(c, proof, opts)
	v.Trust = basis.Trusts(v)
	return v, *basis, nil
}
