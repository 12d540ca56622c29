// Package holder holds the stakeholder's screens: the allocation lookup
// and its proof check, the claim and stake forms that end in signing, the
// keystore unlock and the portal. The D-ids in its comments (D16) are
// entries of docs/deployment.md.
package holder

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/safe/proposal"
	"allot/wallet/vesting"
)

// allocation looks up an allocation: its merkle proof, verified here, the
// allocation and schedule decoded from the leaf, and an unlock chart. The
// id field takes keys only while it is edited (/, i or enter; esc leaves
// it), so the dashboard's keys work on this screen as on any other.
type allocation struct {
	views.Base
	ctx    *views.Context
	input  textinput.Model
	recent []string
	// demo are the embedded sandbox's demo allocations, for a newcomer to
	// start from; none on a real deployment.
	demo []string
	pick int // index in picks() while choosing with up/down; -1 none
	// replace: the id in the field is a whole one shown (looked up, or
	// picked), which what is typed or pasted next replaces, not extends.
	replace bool

	reqs    views.Requests // the lookups' and the quiet refreshes'
	seq     int
	busy    bool
	looking string // the id of the lookup in flight, as the user gave it
	result  *wallet.Verification
	detail  *widget.Detail
	// timeline is the allocation's history on chain, shown in the
	// chart's place (timeline.go).
	timeline *timeline
	// count counts down to the next unlock (countdown.go); countRows are
	// the lines it takes under the id, which the layout gives it.
	count     countdown
	countRows int
	// following: the allocation on show is followed (follow.go).
	following bool
	// holderSafe is the Safe of the profile the allocation on show pays
	// now, as read with it; nil when it pays none (allocation_transfer.go).
	holderSafe *session.SafeAccount

	// refreshing is a quiet verification of the allocation on show on
	// its way, numbered refreshSeq; fresh says how old the one on show is
	// (allocation_refresh.go).
	refreshing bool
	refreshSeq int
	fresh      views.Freshness
	// retry is the id of a lookup that failed as the service was down,
	// looked up again on the lists' rhythm until it answers; "" none.
	retry string
	// basis is what the allocation on show was verified on (the contract
	// lists, the pins), which the chain's refresh verifies on again; nil
	// once the lists' rhythm says to read it anew.
	basis *session.VerifyBasis

	width, height int
}

// NewAllocation is the allocation lookup screen.
func NewAllocation(ctx *views.Context) views.Screen {
	in := textinput.New()
	in.Placeholder = "allocation id (UUID)"
	in.CharLimit = 36
	in.Prompt = "Allocation: "
	a := &allocation{ctx: ctx, input: in, pick: -1, detail: widget.NewDetail(), timeline: newTimeline(ctx), count: countdown{ctx: ctx}}
	a.recent = ctx.Journal.RecentLookups(ctx.Session.Deployment(), views.MaxRecent)
	a.demo = demoAllocations(ctx)
	return a
}

// LookupMsg asks the allocation screen to look up an id.
type LookupMsg struct{ ID string }

// RecentAllocations are the ids the command line's :alloc completes: the
// allocations looked up lately on this deployment, newest first, then, on
// the embedded sandbox, its demo allocations, as the Allocation screen
// offers them.
func RecentAllocations(ctx *views.Context) []string {
	ids := ctx.Journal.RecentLookups(ctx.Session.Deployment(), views.MaxRecent)
	for _, id := range demoAllocations(ctx) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (a *allocation) Title() string { return "Allocation" }
func (a *allocation) Mode() views.Mode {
	return views.Mode{Busy: a.busy, TakesKeys: a.input.Focused()}
}

func (a *allocation) SetSize(width, height int) {
	a.width, a.height = width, height
	a.input.Width = min(40, max(width-14, 10))
	a.layout()
}

// layout sizes the fields pane: beside the chart on wide screens, above it
// otherwise; the line of the input stays on top.
func (a *allocation) layout() {
	a.timeline.SetSize(a.historyBox())
	rest := max(a.height-1-a.countRows, 3)
	if a.wide() {
		a.detail.SetSize(a.width/2, rest)
		return
	}
	a.detail.SetSize(a.width, rest-a.chartHeight()-1)
}

func (a *allocation) wide() bool { return a.width >= 120 }

func (a *allocation) chartHeight() int {
	if a.wide() {
		return min(a.height-2-a.countRows, 16)
	}
	// The countdown's lines come out of the chart's, not the fields'.
	return max(min(10, max(a.height-1, 3)/2)-a.countRows, 3)
}

// remember puts id first in the recent lookups; the journal keeps it for
// the next run (written by the lookup's command: an fsync has no place on
// the UI goroutine).
func (a *allocation) remember(id string) {
	out := []string{id}
	for _, r := range a.recent {
		if r != id && len(out) < views.MaxRecent {
			out = append(out, r)
		}
	}
	a.recent = out
	a.pick = -1
}

// picks are the ids offered to look up: the recent ones, then the demo
// allocations not among them.
func (a *allocation) picks() []string {
	out := slices.Clone(a.recent)
	for _, id := range a.demo {
		if !slices.Contains(a.recent, id) {
			out = append(out, id)
		}
	}
	return out
}

// edit starts editing the id field.
func (a *allocation) edit() tea.Cmd {
	a.input.Focus()
	a.input.CursorEnd()
	a.replace = a.input.Value() != ""
	return textinput.Blink
}

// move moves the pick by delta within the offered ids.
func (a *allocation) move(delta int) bool {
	picks := a.picks()
	if len(picks) == 0 {
		return false
	}
	if a.pick < 0 && delta < 0 {
		a.pick = 0
	} else {
		a.pick = max(0, min(a.pick+delta, len(picks)-1))
	}
	return true
}

func (a *allocation) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := a.timeline.Update(msg); ok {
		return cmd
	}
	if cmd, ok := a.refreshUpdate(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case LookupMsg:
		return a.lookup(msg.ID)
	case tickMsg:
		return a.onTick(msg)
	case followedMsg:
		if msg.err == nil && msg.id == a.looking {
			a.following = msg.on
		}
		return followStatus(a, msg)
	case views.TxStatusMsg:
		// A claim mined changes what was withdrawn and what is claimable,
		// a transfer where the tokens go, and a Safe's execution may be
		// either: what is on show is read again rather than left stale.
		if msg.Final && (msg.Op == "claim" || msg.Op == proposal.OpTransfer || msg.Op == "safe exec") && a.result != nil && !a.busy {
			return a.lookup(a.looking)
		}
		return nil
	case views.Loaded[lookedUp]:
		if msg.Seq != a.seq {
			return nil
		}
		a.busy, a.retry = false, ""
		if msg.Err != nil {
			a.result = nil
			if api.Unavailable(msg.Err) {
				a.retry = a.looking
			}
			return func() tea.Msg { return views.ErrorMsg{Op: "allocation", Err: msg.Err} }
		}
		v := msg.Value.v
		a.result, a.count.unit, a.basis = v, msg.Value.unit, &msg.Value.basis
		a.holderSafe = msg.Value.safe
		a.fresh = views.Freshness{At: a.ctx.Now()}
		// The id remembered is the one asked for: the service's answer
		// could name any other.
		a.remember(a.looking)
		ids, _ := follows(a.ctx).IDs()
		a.following = slices.Contains(ids, a.looking)
		a.detail.SetFields(verificationFields(v, a.ctx.Now(), unit(msg.Value.unit)))
		// The verdict replaces whatever an earlier lookup left in the
		// status line.
		text := "allocation " + a.looking + ": " + v.Outcome().String()
		status := func() tea.Msg { return views.StatusMsg{Text: text, Error: v.Outcome() == wallet.Fail} }
		return tea.Batch(status, a.timeline.Lookup(a.looking), a.count.start(a.seq, v))
	case tea.KeyMsg:
		return a.key(msg)
	}
	if a.input.Focused() {
		var cmd tea.Cmd
		a.input, cmd = a.input.Update(msg)
		return cmd
	}
	return nil
}

func (a *allocation) View() string {
	var b strings.Builder
	line, under := a.idLine()
	b.WriteString(line + "\n")
	for _, l := range under {
		b.WriteString(l + "\n")
	}
	if len(under) != a.countRows {
		a.countRows = len(under)
		a.layout()
	}
	if a.input.Focused() || a.result == nil {
		a.viewPicks(&b)
		return b.String()
	}
	if a.timeline.shown {
		b.WriteString(a.besideDetail(a.timeline.View()))
		return b.String()
	}
	v := a.result
	chartPoints := make([]widget.Point, 0, 1+len(v.Timeline))
	for _, p := range v.Timeline {
		chartPoints = append(chartPoints, widget.Point{At: p.At, Fraction: float64(p.PPM) / vesting.PercentScale})
	}
	now := a.ctx.Now()
	heading := "Unlock schedule · unlocked now " + vesting.FormatPPM(v.UnlockedPPM) + "%"
	switch {
	case v.Unclaimable != nil:
		heading = "Unlock schedule · cannot be claimed now"
	case v.Standing != nil && v.Standing.Terminated():
		heading += " · " + v.Standing.State() + ": see State"
	}
	title := a.ctx.Styles.Title.Render(sanitize.Truncate(heading, a.width))
	if a.wide() {
		chart := title + "\n" + widget.StepChart(chartPoints, now, a.width-a.width/2-2, a.chartHeight())
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, a.detail.View(), "  ", chart))
		return b.String()
	}
	b.WriteString(a.detail.View() + "\n" + title + "\n" + widget.StepChart(chartPoints, now, a.width, a.chartHeight()-1))
	return b.String()
}

// viewPicks lists the ids to pick from, and how.
func (a *allocation) viewPicks(b *strings.Builder) {
	muted := a.ctx.Styles.Muted
	switch {
	case a.busy:
		b.WriteString(muted.Render("Looking up and verifying…") + "\n")
	case a.input.Focused() && a.replace:
		b.WriteString(muted.Render("Type or paste an id: it replaces this one · enter looks it up, esc stops · ↑/↓ pick below") + "\n")
	case a.input.Focused():
		b.WriteString(muted.Render("Type an id: enter looks it up, esc stops · ↑/↓ pick below") + "\n")
	default:
		b.WriteString(muted.Render("/ or i: type an id · ↑/↓ and enter: look one up below") + "\n")
	}
	for i, id := range a.picks() {
		switch {
		case i == 0 && len(a.recent) > 0:
			b.WriteString("\n" + muted.Render("Recent lookups:") + "\n")
		case i == len(a.recent):
			b.WriteString("\n" + muted.Render("Demo allocations of the embedded sandbox (state as seeded):") + "\n")
		}
		marker := "  "
		if i == a.pick {
			marker = "▶ "
		}
		line := marker + sanitize.Line(id)
		if state := demoState(a.ctx, id); state != "" && slices.Contains(a.demo, id) {
			line += "  " + muted.Render(state)
		}
		b.WriteString(line + "\n")
	}
}

func (a *allocation) Keys() widget.Bindings { return a.bindings() }
