package holder

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/history"
)

var (
	keyHistory     = key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "history on chain"))
	keyHistoryUp   = key.NewBinding(key.WithKeys("["), key.WithHelp("[", "history up"))
	keyHistoryDown = key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "history down"))
)

// timeline is the allocation screen's history on chain: the claims, the
// cancel, the revoke and the transfers of the allocation on show, read
// from the chain (wallet/history) in a command when it is first shown for
// a lookup, a spinner while it reads, an error in its place, one line an
// event, scrolled with [ and ].
type timeline struct {
	ctx  *views.Context
	spin spinner.Model
	reqs views.Requests // numbers the reads, from one allocation to the next

	shown   bool   // in the chart's place, H toggles it
	id      string // the allocation shown; "" before a lookup
	seq     int    // the read in flight or done for id; 0 none yet
	loading bool
	history *history.History
	err     error
	top     int // the first event shown

	width, height int
}

func newTimeline(ctx *views.Context) *timeline {
	return &timeline{ctx: ctx, spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// Lookup makes the timeline the one of allocation id, looked up (again):
// read at once when it is shown, else when it is next shown.
func (t *timeline) Lookup(id string) tea.Cmd {
	*t = timeline{ctx: t.ctx, spin: t.spin, reqs: t.reqs, shown: t.shown, id: id, width: t.width, height: t.height}
	if t.shown {
		return t.read()
	}
	return nil
}

// bindings are the timeline's keys: H shows it (reading it the first
// time) or the chart again, [ and ] scroll it while it is longer than
// its box.
func (t *timeline) bindings() widget.Bindings {
	up, down := keyHistoryUp, keyHistoryDown
	up.SetEnabled(t.scrolls())
	down.SetEnabled(t.scrolls())
	return widget.Bindings{
		{Key: keyHistory, Short: true, Run: func() tea.Cmd {
			if t.shown = !t.shown; t.shown {
				return t.read()
			}
			return nil
		}},
		{Key: up, Short: true, Run: func() tea.Cmd { t.Scroll(-1); return nil }},
		{Key: down, Short: true, Run: func() tea.Cmd { t.Scroll(1); return nil }},
	}
}

// read reads the history of the allocation, unless it is read or being
// read.
func (t *timeline) read() tea.Cmd {
	if t.id == "" || t.seq != 0 {
		return nil
	}
	t.seq, t.loading, t.err, t.history = t.reqs.Next(), true, nil, nil
	s, id := t.ctx.Session, t.id
	load := views.Load(t.ctx, t.seq, func(c context.Context) (*history.History, error) {
		return s.AllocationHistory(c, id, history.Options{})
	})
	return tea.Batch(t.spin.Tick, load)
}

// Update takes the read's answer and turns the spinner; handled is false
// for what is not the timeline's.
func (t *timeline) Update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if msg.ID != t.spin.ID() {
			return nil, false
		}
		if !t.loading {
			return nil, true
		}
		t.spin, cmd = t.spin.Update(msg)
		return cmd, true
	case views.Loaded[*history.History]:
		if msg.Seq != t.seq {
			return nil, true
		}
		t.loading, t.history, t.err, t.top = false, msg.Value, msg.Err, 0
		return nil, true
	}
	return nil, false
}

// Scroll moves the events shown by delta, within the history.
func (t *timeline) Scroll(delta int) {
	if t.history == nil {
		return
	}
	t.top = max(0, min(t.top+delta, len(t.history.Events)-t.rows()))
}

// rows is how many events fit under the title and the footer.
func (t *timeline) rows() int { return max(1, t.height-2) }

// SetSize gives the timeline its box.
func (t *timeline) SetSize(width, height int) {
	t.width, t.height = width, height
	t.Scroll(0)
}

func (t *timeline) View() string {
	muted := t.ctx.Styles.Muted
	lines := []string{t.ctx.Styles.Title.Render(t.fit("History on chain"))}
	switch {
	case t.loading:
		lines = append(lines, t.spin.View()+" "+t.fit("Reading the allocation's claims, cancel, revoke and transfers from the chain…"))
	case t.err != nil:
		lines = append(lines, wrap("Could not read the history: "+sanitize.Line(t.err.Error()), t.width)...)
	case t.history == nil:
		lines = append(lines, muted.Render(t.fit("H: read it from the chain")))
	case len(t.history.Events) == 0:
		lines = append(lines, muted.Render(t.fit(fmt.Sprintf("No claim, cancel, revoke or transfer in blocks %d to %d.", t.history.FromBlock, t.history.ToBlock))))
	default:
		events := t.history.Events
		end := min(len(events), t.top+t.rows())
		for _, e := range events[t.top:end] {
			lines = append(lines, t.fitFirst(eventLines(e)...))
		}
		count := fmt.Sprintf("%d–%d of %d", t.top+1, end, len(events))
		if t.scrolls() {
			count += " · [ ] scroll"
		}
		if n := t.history.Skipped; n > 0 {
			count = fmt.Sprintf("%d skipped: the node's answers disagree (allot history says why) · ", n) + count
		}
		// The command is whole or left out: a command cut short cannot
		// be run.
		lines = append(lines, muted.Render(t.fitFirst(count+" · full hashes: allot history "+t.id, count)))
	}
	if len(lines) > t.height {
		lines = lines[:max(t.height, 1)]
	}
	return strings.Join(lines, "\n")
}

// eventLines are one event in a line, from the whole (when, what, how
// much, where, the fee, the transaction, the sender) to the shortest,
// which gives up the sender, then the transaction, then the fee.
func eventLines(e history.Event) []string {
	at := e.Time.UTC().Format("2006-01-02 15:04")
	var head, fee string
	switch e.Kind {
	case history.Claim:
		what := "claim"
		if e.Handler {
			what = "claim via handler"
		}
		symbol := e.Symbol
		if symbol == "" {
			symbol = short(e.Token)
		}
		head = fmt.Sprintf("%s  %s %s %s → %s", at, what, wallet.FormatTokens(e.Amount), symbol, short(e.Recipient))
		fee = "  fee " + wallet.FormatUnits(e.Fee) + " ETH" // as allot history's FEE (ETH)
	case history.Transfer:
		head = fmt.Sprintf("%s  transfer of beneficiary → %s", at, short(e.NewBeneficiary))
	default:
		head = fmt.Sprintf("%s  %s", at, e.Kind)
	}
	tx, by := "  tx "+shortHash(e.Tx), "  by "+short(e.Sender)
	return []string{head + fee + tx + by, head + fee + tx, head + fee, head}
}

// fitFirst is the first of forms that fits the width, or the last cut.
func (t *timeline) fitFirst(forms ...string) string {
	for _, f := range forms {
		if lipgloss.Width(f) <= t.width {
			return f
		}
	}
	return t.fit(forms[len(forms)-1])
}

func short(a common.Address) string {
	h := a.Hex()
	return h[:6] + "…" + h[len(h)-4:]
}

func shortHash(h common.Hash) string {
	s := h.Hex()
	return s[:10] + "…"
}

func (t *timeline) fit(s string) string { return sanitize.Truncate(s, max(t.width, 1)) }

// wrap breaks s into lines of at most width runes, at spaces where it can.
func wrap(s string, width int) []string {
	width = max(width, 10)
	var lines []string
	for len([]rune(s)) > width {
		r := []rune(s)
		cut := strings.LastIndex(string(r[:width]), " ")
		if cut <= 0 {
			cut = len(string(r[:width]))
		}
		lines = append(lines, strings.TrimSpace(s[:cut]))
		s = strings.TrimSpace(s[cut:])
	}
	return append(lines, s)
}

// scrolls reports whether the history on show is longer than its box.
func (t *timeline) scrolls() bool {
	return t.shown && t.history != nil && len(t.history.Events) > t.rows()
}

// historyBox is the timeline's box on the allocation screen: the chart's
// place, heading included.
func (a *allocation) historyBox() (width, height int) {
	if a.wide() {
		return a.width - a.width/2 - 2, a.chartHeight()
	}
	return a.width, a.chartHeight()
}

// besideDetail lays box out where the chart goes: beside the fields on a
// wide screen, under them otherwise.
func (a *allocation) besideDetail(box string) string {
	if a.wide() {
		return lipgloss.JoinHorizontal(lipgloss.Top, a.detail.View(), "  ", box)
	}
	return a.detail.View() + "\n" + box
}
