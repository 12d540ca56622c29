package holder

import (
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/vesting"
)

// nextHorizon is how far ahead the allocation screen looks for the next
// unlock: past it, a schedule has none worth counting down to.
const nextHorizon = 50 * 365 * 24 * time.Hour

// countdown is the allocation screen's count down to the next unlock of
// the allocation on show. Its tick waits on the context's clock, lands
// each time the text changes and exactly at the unlock, when the screen
// computes Unlocked and Claimable again at that time.
type countdown struct {
	ctx  *views.Context
	seq  int // the lookup counted for; a tick of another is dropped
	next vesting.Unlock
	ok   bool // there is a next unlock
	// unit names the amounts ("MRD"), as the lookup found them named
	// (lookedUp); "" when unknown.
	unit string
}

// tickMsg is a countdown's tick for the lookup seq.
type tickMsg struct{ seq int }

// start counts down to v's next unlock after v.At.
func (c *countdown) start(seq int, v *wallet.Verification) tea.Cmd {
	c.seq, c.ok = seq, false
	if v == nil || v.Args == nil || v.Unclaimable != nil {
		return nil
	}
	c.next, c.ok = wallet.NextUnlock(*v.Args, v.Standing, v.At, nextHorizon)
	return c.tick(v.At)
}

// tick waits until the countdown's text next changes: each second in its
// last hour, each minute in its last day, each hour before; the last
// wait ends at the unlock itself.
func (c *countdown) tick(now time.Time) tea.Cmd {
	if !c.ok {
		return nil
	}
	left := c.next.At.Sub(now)
	step := time.Hour
	switch {
	case left <= time.Hour:
		step = time.Second
	case left <= 24*time.Hour:
		step = time.Minute
	}
	wait := left % step
	if wait <= 0 {
		wait = min(step, max(left, time.Second))
	}
	seq, after := c.seq, c.ctx.After(wait)
	return func() tea.Msg {
		<-after
		return tickMsg{seq: seq}
	}
}

// passed reports whether the next unlock has come by now.
func (c *countdown) passed(now time.Time) bool { return c.ok && !now.Before(c.next.At) }

// text is "next unlock in 2d 4h: 10%, 1,470.21 MRD", or "" when none is
// ahead. The amount is named as the header names a token (its symbol, or
// name, its id when it has none), when its token is known.
func (c *countdown) text(now time.Time) string {
	if !c.ok {
		return ""
	}
	left := int64(c.next.At.Sub(now).Round(time.Second) / time.Second)
	text := "next unlock in " + widget.FormatDuration(max(left, 1)) + ": " + vesting.FormatPPM(c.next.PPM) + "%, " +
		wallet.FormatTokens(c.next.Amount)
	if c.unit != "" {
		text += " " + c.unit
	}
	return text
}

// onTick moves the screen's result on when the unlock has passed, and
// waits for the next change.
func (a *allocation) onTick(msg tickMsg) tea.Cmd {
	if msg.seq != a.count.seq || a.result == nil {
		return nil
	}
	now := a.ctx.Now()
	if !a.count.passed(now) {
		return a.count.tick(now)
	}
	a.result = a.result.AsOf(now)
	a.detail.UpdateFields(verificationFields(a.result, now, unit(a.count.unit)))
	return a.count.start(a.count.seq, a.result)
}

// idLine is the line of the id, with the countdown beside it when it fits
// there; when it does not, the countdown is under, on lines of its own
// broken between words, never cut. No countdown while an id is typed or
// none is looked up.
func (a *allocation) idLine() (line string, under []string) {
	next := ""
	if !a.input.Focused() && a.result != nil {
		next = sanitize.Line(a.count.text(a.ctx.Now()))
	}
	if next == "" {
		return a.input.View(), nil
	}
	line = strings.TrimRight(a.input.View(), " ")
	if beside := "  · " + next; lipgloss.Width(line+beside) <= a.width {
		return line + beside, nil
	}
	return line, widget.WrapWords(next, a.width)
}
