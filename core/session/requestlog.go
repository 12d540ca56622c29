package session

import (
	"sync"

	"allot/api"
)

// RequestLogSize is how many exchanges the request inspector keeps.
const RequestLogSize = 500

// RequestLog keeps the most recent HTTP exchanges for the request inspector.
// The api client appends from its own goroutines; the dashboard reads.
type RequestLog struct {
	mu      sync.Mutex
	ring    []api.Exchange
	next    int
	full    bool
	version uint64
	notify  chan struct{}
}

// NewRequestLog returns an empty log.
func NewRequestLog() *RequestLog {
	return &RequestLog{ring: make([]api.Exchange, RequestLogSize), notify: make(chan struct{}, 1)}
}

// Add records an exchange, dropping the oldest when the log is full.
func (l *RequestLog) Add(x api.Exchange) {
	l.mu.Lock()
	l.ring[l.next] = x
	l.next = (l.next + 1) % len(l.ring)
	l.full = l.full || l.next == 0
	l.version++
	l.mu.Unlock()
	select {
	case l.notify <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// All returns the exchanges, oldest first.
func (l *RequestLog) All() []api.Exchange {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.full {
		return append([]api.Exchange(nil), l.ring[:l.next]...)
	}
	out := make([]api.Exchange, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

// Version changes whenever an exchange is added.
func (l *RequestLog) Version() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

// Changed receives a value after exchanges were added. It holds at most one
// pending wake-up, so a slow reader never blocks the client.
func (l *RequestLog) Changed() <-chan struct{} { return l.notify }
