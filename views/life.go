package views

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// The screens' work lives as long as the profile they show: a load, a
// transaction followed, a lookup, all run under the Context's root,
// which the dashboard ends when the user quits or switches profile, so
// that nothing keeps a connection, a goroutine or a chain's session busy
// for a screen no one sees. A write is the exception (Write).

// How long a screen's work may take. Each bounds one kind of work under
// the root; the client has its own timeout per request on top.
const (
	// RequestTimeout bounds a screen's call: it covers the client's
	// retries and the pages of a listing, which a slow service serves in
	// minutes, and a write's own wait for its answer.
	RequestTimeout = 2 * time.Minute
	// LookupTimeout bounds a lookup the user typed (:contract NAME): one
	// listing, worth a minute before the command line says it failed.
	LookupTimeout = time.Minute
	// CompletionTimeout bounds the names the command line completes: a
	// hint, not worth holding a connection longer than a glance.
	CompletionTimeout = 30 * time.Second
	// HeadTimeout bounds a look at the chain's head (the refresh's): one
	// cheap call, looked at again soon if it fails.
	HeadTimeout = 10 * time.Second
)

// Begin starts the screens' work anew: what ran under the previous root
// is cancelled. The dashboard begins once when it opens and again on
// each profile switch.
func (c *Context) Begin() {
	c.End()
	c.root, c.end = context.WithCancel(context.Background())
}

// End cancels every piece of work started under the root: the dashboard
// ends it as it quits.
func (c *Context) End() {
	if c.end != nil {
		c.end()
	}
}

// Root is the context the screens' work runs under, read on the UI
// goroutine as the work is started. A Context that was never begun (a
// screen tested alone) never ends.
func (c *Context) Root() context.Context {
	if c.root == nil {
		return context.Background()
	}
	return c.root
}

// Bound is the root bounded by d, for one piece of work.
func (c *Context) Bound(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.Root(), d)
}

// Write runs a write off the UI goroutine as Load runs a read, but
// detached from the root: quitting or switching profile does not cut it
// off. Cut off once sent, a write's outcome becomes unknown when it would
// have had one (applied, refused); left alone it ends with its answer,
// journaled, within RequestTimeout. Quitting asks first while one runs.
// A screen sends a write to the service with a Sending, which runs it so;
// Write itself runs what is no service write: the signing flow's
// transactions, a pin written to the profile.
func Write[T any](seq int, fn func(context.Context) (T, error)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := writeContext()
		defer cancel()
		v, err := fn(ctx)
		return Loaded[T]{Seq: seq, Value: v, Err: err}
	}
}

// writeContext is a write's: its own time, no root.
func writeContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), RequestTimeout)
}
