package browse

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
)

// NewStakesByRef is the stakes of the token's pool whose id or name (in
// any case) is ref: the screen looks the pool up itself, then reads its
// stakes. A ref that names no pool is the screen's own error state.
func NewStakesByRef(ctx *views.Context, ref string) views.Screen {
	s := newStakes(ctx, api.Pool{Name: ref})
	s.ref = ref
	if ctx.Session != nil {
		client, token := ctx.Session.API, ctx.Token
		s.pools = func(c context.Context) ([]api.Pool, error) {
			all, err := client.AllPools(c, token)
			return all.Items, err
		}
	}
	return s
}

// NoPoolError is a pool id or name that names no one pool of the token:
// none, or more than one (IDs), which the screen does not choose between,
// as `allot stakes --pool` does not.
type NoPoolError struct {
	Ref string
	IDs []string // the pools the name fits, when more than one
}

// maxNamedPools bounds the ids an ambiguous name lists.
const maxNamedPools = 5

func (e *NoPoolError) Error() string {
	if len(e.IDs) == 0 {
		return fmt.Sprintf("no pool %q in this token", e.Ref)
	}
	ids := e.IDs
	if len(ids) > maxNamedPools {
		ids = append(ids[:maxNamedPools:maxNamedPools], "…")
	}
	return fmt.Sprintf("%q names more than one pool of this token: open one by its id: %s", e.Ref, strings.Join(ids, ", "))
}

// findPool looks up the pool that ref names among the token's pools.
func (s *stakes) findPool() tea.Cmd {
	s.Seq = views.NextSeq()
	s.Err, s.finding = nil, true
	s.Table.SetLoading(func() string { return "" })
	ref, pools := s.ref, s.pools
	return views.Load(s.Seq, func(c context.Context) (api.Pool, error) {
		all, err := pools(c)
		if err != nil {
			return api.Pool{}, fmt.Errorf("list the pools: %w", err)
		}
		return poolByRef(all, ref)
	})
}

// poolByRef is the pool whose id is ref, else the one named ref exactly,
// else the one named ref but for case; a name that fits more than one is
// an error that lists their ids, as the command line's --pool.
func poolByRef(all []api.Pool, ref string) (api.Pool, error) {
	var exact, folded []api.Pool
	for _, p := range all {
		switch {
		case p.ID == ref:
			return p, nil
		case p.Name == ref:
			exact = append(exact, p)
		case strings.EqualFold(p.Name, ref):
			folded = append(folded, p)
		}
	}
	fits := exact
	if len(fits) == 0 {
		fits = folded
	}
	switch len(fits) {
	case 0:
		return api.Pool{}, &NoPoolError{Ref: ref}
	case 1:
		return fits[0], nil
	}
	ids := make([]string, len(fits))
	for i, p := range fits {
		ids[i] = p.ID
	}
	return api.Pool{}, &NoPoolError{Ref: ref, IDs: ids}
}

// found takes the pool that ref names and reads its stakes.
func (s *stakes) found(msg views.Loaded[api.Pool]) tea.Cmd {
	s.finding = false
	if msg.Err != nil {
		s.Err = msg.Err // drawn where the stakes would be
		s.Table.SetLoading(nil)
		return nil
	}
	s.pool = msg.Value
	s.SetTitle(s.pool.Name)
	return s.reloadWhole()
}
