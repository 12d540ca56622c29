package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"allot/core/act"
	"allot/core/journal"
	"allot/core/write"
)

// ledger is the embedded sandbox as an act.Ledger: its journal of applied
// writes, read once the requests it is still serving have ended. A write
// whose client gave up (a timeout) may still be in the handler; a check
// that did not wait for it could say "not applied" a moment before it is.
type ledger struct {
	server EmbeddedServer

	mu      sync.Mutex
	next    uint64
	serving map[uint64]chan struct{} // closed when the request ends
}

func newLedger(server EmbeddedServer) *ledger {
	return &ledger{server: server, serving: map[uint64]chan struct{}{}}
}

// ServeHTTP serves r through the sandbox, counted as in flight.
func (l *ledger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	done := make(chan struct{})
	l.mu.Lock()
	id := l.next
	l.next++
	l.serving[id] = done
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.serving, id)
		l.mu.Unlock()
		close(done)
	}()
	l.server.ServeHTTP(w, r)
}

func (l *ledger) Mark() int { return l.server.JournalLen() }

// AppliedAfter waits for the requests in flight now, then looks for the
// write among those the sandbox applied after mark, by its operation (a
// claim's names its allocation) and the SHA-256 of its body.
func (l *ledger) AppliedAfter(ctx context.Context, mark int, op, ref string, body []byte) (bool, error) {
	l.mu.Lock()
	var serving []chan struct{}
	for _, done := range l.serving {
		serving = append(serving, done)
	}
	l.mu.Unlock()
	for _, done := range serving {
		select {
		case <-done:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	operation := op
	if k, ok := write.Of(op); ok {
		operation = k.Path(ref) // a claim's names its allocation
	}
	sum := sha256.Sum256(body)
	want := hex.EncodeToString(sum[:])
	for _, e := range l.server.AppliedFrom(mark) {
		if e.Operation == operation && strings.EqualFold(e.BodySHA256, want) {
			return true, nil
		}
	}
	return false, nil
}

// Ledger is the embedded sandbox's record of the writes it applied, for
// act.Recorder.Check; nil on a real deployment, whose interface cannot
// tell.
func (s *Session) Ledger() act.Ledger { return s.ledger }

// Recorder journals the acts of this session in j; on the embedded
// sandbox it can check what a write whose answer was lost did.
func (s *Session) Recorder(j *journal.Journal) *act.Recorder {
	return &act.Recorder{Journal: j, Deployment: s.Deployment(), Ledger: s.ledger, ReadOnly: s.Writable()}
}
