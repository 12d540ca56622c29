package browse

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
)

// NewStakesByRef is the stakes of the token's pool whose id or name (in
// any case) is ref: the screen looks the pool up itself (api.PoolByRef,
// as `allot stakes --pool` does), then reads its stakes. A ref that names
// no one pool is the screen's own error state.
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

// findPool looks up the pool that ref names among the token's pools.
func (s *stakes) findPool() tea.Cmd {
	s.Seq = s.Reqs.Next()
	s.Err, s.finding = nil, true
	s.Table.SetLoading(func() string { return "" })
	ref, pools := s.ref, s.pools
	return views.Load(s.Ctx, s.Seq, func(c context.Context) (api.Pool, error) {
		all, err := pools(c)
		if err != nil {
			return api.Pool{}, fmt.Errorf("list the pools: %w", err)
		}
		return api.PoolByRef(all, ref)
	})
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
