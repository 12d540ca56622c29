package session

import (
	"context"
	"sync"

	"allot/api"
)

// listsKey keys the contract lists a command has read in its context.
type listsKey struct{}

// readLists are the contract lists read so far, by token, with the error
// a read ended with.
type readLists struct {
	mu    sync.Mutex
	lists map[string]readList
}

type readList struct {
	list *api.List[api.Contract]
	err  error
}

// ReadListsOnce returns a context under which the session reads each
// token's contract list once: a command that needs it several times (a
// claim's outlook names its units, the signing policy its vesters and
// units, the review its known contracts) asks the service once and checks
// everything against the same list.
func ReadListsOnce(ctx context.Context) context.Context {
	return context.WithValue(ctx, listsKey{}, &readLists{lists: map[string]readList{}})
}

// tokenContracts is the contract list of token: the one read already
// under ctx (ReadListsOnce), else read now.
func (s *Session) tokenContracts(ctx context.Context, token string) (*api.List[api.Contract], error) {
	read, ok := ctx.Value(listsKey{}).(*readLists)
	if !ok {
		return s.API.Contracts(ctx, token)
	}
	read.mu.Lock()
	defer read.mu.Unlock()
	if r, ok := read.lists[token]; ok {
		return r.list, r.err
	}
	list, err := s.API.Contracts(ctx, token)
	read.lists[token] = readList{list, err}
	return list, err
}
