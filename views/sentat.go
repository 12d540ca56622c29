package views

import "time"

// SentAt writes when a write whose answer was lost was sent, as every
// page about it says it ("15:04:05 UTC on 2 Jan 2006"): the time to give
// the service's operators, in UTC whatever the machine's zone.
func SentAt(t time.Time) string { return t.UTC().Format("15:04:05 UTC on 2 Jan 2006") }
