// Package memnet is an in-process network: a net.Listener whose connections
// are in-memory pipes, and a dialer for an http.Transport that reaches it.
// The embedded sandbox runs a real http.Server on it, so the client talks
// real HTTP (headers, status codes, even connection resets) without opening
// a socket.
package memnet

import (
	"context"
	"errors"
	"net"
	"sync"
)

// Listener is an in-memory net.Listener.
type Listener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

// Listen returns a new in-memory listener.
func Listen() *Listener {
	return &Listener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// Accept waits for the next connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close stops the listener; pending dials fail.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

// Addr returns a placeholder address.
func (l *Listener) Addr() net.Addr { return addr{} }

// DialContext connects to the listener, whatever network and address are
// asked for; its signature fits http.Transport.DialContext.
func (l *Listener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, errors.New("memnet: listener closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type addr struct{}

func (addr) Network() string { return "memnet" }
func (addr) String() string  { return "in-process" }
