package views

import (
	"strings"
	"time"
)

// A screen on show reads its data again by itself, on the rhythm of the
// profile's refresh (core/config): the dashboard sends it a
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

// Rows a refresh changed are marked for markFor: long enough to be seen
// at a glance, short enough that the next refresh's marks are not
// confused with these. Lists longer than maxMarked are not compared: a
// fingerprint per row would cost a pool's stakes their memory.
const (
	markFor   = 5 * time.Second
	maxMarked = 10_000
)

// markChanged marks the rows that differ from the last load's, or are
// new, after a refresh (quiet), until markFor has passed on the
// context's clock (see unmarkOld); a load the user asked for marks
// nothing.
func (l *List[R]) markChanged(rows []R, quiet bool) {
	if len(rows) > maxMarked {
		l.prints = nil
		return
	}
	prints := make(map[string]string, len(rows))
	changed := map[string]bool{}
	for _, r := range rows {
		id := l.id(r)
		var b strings.Builder
		for _, f := range l.fields(r) {
			b.WriteString(f.Label)
			b.WriteByte(0)
			b.WriteString(f.Value)
			b.WriteByte(0)
		}
		prints[id] = b.String()
		if old, ok := l.prints[id]; quiet && l.prints != nil && (!ok || old != prints[id]) {
			changed[id] = true
		}
	}
	l.prints = prints
	if len(changed) == 0 {
		changed = nil
	}
	l.Table.SetChanged(changed)
	l.markedUntil = l.Ctx.Now().Add(markFor)
}

// unmarkOld ends the marks once their moment has passed: the dashboard
// draws every second while the header says how old the rows are.
func (l *List[R]) unmarkOld() {
	if !l.markedUntil.IsZero() && !l.Ctx.Now().Before(l.markedUntil) {
		l.Table.SetChanged(nil)
		l.markedUntil = time.Time{}
	}
}

// shown says rows were loaded and are on show: a failed load keeps them.
func (l *List[R]) shown() bool { return !l.fresh.At.IsZero() && l.Err == nil }
