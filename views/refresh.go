package views

import "time"

// A screen on show reads its data again by itself, on the rhythm of the
// profile's refresh (internal/config): the dashboard sends it a
// RefreshMsg from its one clock, and the header says how old the data on
// show is. A refresh is quiet: the rows stay on show while it runs, the
// cursor stays on its row, and a refresh that fails leaves them, marked
// stale, rather than an empty table.

// RefreshMsg asks the screen on show to read its data again, as r does,
// but quietly. Chain says it is the chain's rhythm (the numbers read from
// the chain), not the service lists'.
type RefreshMsg struct{ Chain bool }

// Freshness is how old a screen's data is, for the header.
type Freshness struct {
	// At is when the data on show was read; zero before it first was.
	At time.Time
	// Stale is why the last refresh failed; the older data stays on show.
	Stale error
}

// Refresher is a screen that reads its data again on a RefreshMsg.
type Refresher interface {
	Freshness() Freshness
}
