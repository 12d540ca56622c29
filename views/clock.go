package views

import (
	"time"

	"allot/internal/clock"
)

// After fires once d has passed on the context's clock: a screen's
// countdown waits on it, so that tests move time instead of sleeping.
func (c *Context) After(d time.Duration) <-chan time.Time {
	if c.Clock == nil {
		return clock.System.After(d)
	}
	return c.Clock.After(d)
}
