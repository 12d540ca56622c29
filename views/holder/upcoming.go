package holder

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"allot/core/upcoming"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet/vesting"
)

var (
	keyUpPrev   = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up"))
	keyUpNext   = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
	keyUpOpen   = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the allocation"))
	keyUpReload = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "read again"))
	keyClaimAll = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim all claimable"))
)

// upcomingScreen lists the unlocks of the next upcoming.DefaultDays days
// of the allocations followed (the profile's allocations and those
// followed with f), with their totals per week, drawn as bars, and per
// month. With none followed it offers the allocations looked up lately
// (and the embedded sandbox's demo ones) to follow with f.
type upcomingScreen struct {
	views.Base
	ctx *views.Context

	ids     []string // followed
	offered []string // to follow, when none is
	cursor  int      // in the unlocks, or in offered
	top     int      // first unlock line drawn

	reqs       views.Requests
	seq        int
	busy       bool
	refreshing bool // a quiet read on the chain's rhythm
	report     *upcoming.Report
	// units names the vesters' amounts as the last load found them (one
	// contracts list a token); a refresh names with it, not asking again.
	units func(common.Address) string
	fresh views.Freshness
	err   error

	width, height int
}

// NewUpcoming is the Upcoming screen (:upcoming).
func NewUpcoming(ctx *views.Context) views.Screen { return &upcomingScreen{ctx: ctx} }

func (u *upcomingScreen) Title() string             { return "Upcoming" }
func (u *upcomingScreen) Mode() views.Mode          { return views.Mode{Busy: u.busy} }
func (u *upcomingScreen) SetSize(width, height int) { u.width, u.height = width, height }
func (u *upcomingScreen) Init() tea.Cmd             { return u.load() }
func (u *upcomingScreen) Keys() widget.Bindings     { return u.keys() }
func (u *upcomingScreen) listed() bool              { return len(u.ids) > 0 }

// unlocks are the unlocks listed; none before the report.
func (u *upcomingScreen) unlocks() []upcoming.Unlock {
	if u.report == nil {
		return nil
	}
	return u.report.Unlocks
}

// load reads the followed allocations' unlocks, or, with none followed,
// offers some to follow.
func (u *upcomingScreen) load() tea.Cmd {
	ids, err := follows(u.ctx).IDs()
	u.ids, u.err, u.cursor, u.top = ids, err, 0, 0
	if len(ids) == 0 {
		u.report, u.busy = nil, false
		u.offered = RecentAllocations(u.ctx)
		return nil
	}
	u.busy, u.refreshing, u.units = true, false, nil
	return u.collect()
}

// upcomingRead is a read of the unlocks, with the names it gave them.
type upcomingRead struct {
	report upcoming.Report
	units  func(common.Address) string
}

// collect reads the followed allocations' unlocks from now on, naming
// their amounts with the units known, else reading them.
func (u *upcomingScreen) collect() tea.Cmd {
	u.seq = u.reqs.Next()
	s, ids, now, units := u.ctx.Session, u.ids, u.ctx.Now(), u.units
	return views.Load(u.ctx, u.seq, func(c context.Context) (upcomingRead, error) {
		r := upcoming.Collect(c, s.CheckAllocation, ids, now, upcoming.DefaultDays)
		if units == nil {
			units = s.VesterUnits(c)
		}
		r.Name(units)
		return upcomingRead{r, units}, nil
	})
}

// refresh reads the unlocks again on the chain's rhythm, quietly: the
// list on show stays while it runs, and the cursor stays on its unlock
// (an unlock passed with the chain's time leaves the list; a claim, a
// cancel, a revoke or another allot's follow changes what is ahead).
func (u *upcomingScreen) refresh() tea.Cmd {
	if !u.listed() || u.busy || u.refreshing || u.report == nil {
		return nil
	}
	// Another allot may have followed or unfollowed one meanwhile.
	if ids, err := follows(u.ctx).IDs(); err == nil && len(ids) > 0 {
		u.ids = ids
	}
	u.refreshing = true
	return u.collect()
}

// Freshness says how old the unlocks on show are; zero before they are
// read.
func (u *upcomingScreen) Freshness() views.Freshness {
	if u.report == nil {
		return views.Freshness{}
	}
	return u.fresh
}

// settle shows report, read just now, keeping the cursor on the unlock
// it was on when that one is still ahead.
func (u *upcomingScreen) settle(report upcoming.Report) {
	var was *upcoming.Unlock
	if l := u.unlocks(); u.refreshing && u.cursor < len(l) {
		was = &l[u.cursor]
	}
	u.busy, u.refreshing = false, false
	u.report = &report
	u.fresh = views.Freshness{At: u.ctx.Now()}
	u.cursor = min(u.cursor, max(len(report.Unlocks)-1, 0))
	if was == nil {
		return
	}
	if i := slices.IndexFunc(report.Unlocks, func(x upcoming.Unlock) bool {
		return x.Allocation == was.Allocation && x.At.Equal(was.At)
	}); i >= 0 {
		u.cursor = i
	}
}

func (u *upcomingScreen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.Loaded[upcomingRead]:
		if msg.Seq != u.seq {
			return nil
		}
		u.units = msg.Value.units
		u.settle(msg.Value.report)
		return nil
	case views.RefreshMsg:
		if !msg.Chain {
			return nil // what is ahead is read from the chain: its rhythm
		}
		return u.refresh()
	case followedMsg:
		if msg.err != nil {
			return followStatus(u, msg)
		}
		return tea.Batch(followStatus(u, msg), u.load())
	case tea.KeyMsg:
		cmd, _ := u.keys().Dispatch(msg)
		return cmd
	}
	return nil
}

// keys are the screen's keys as it stands: its dispatch, the footer and
// the help read them. With none followed, f follows the allocation
// picked; with some, enter opens the one focused and f unfollows it.
func (u *upcomingScreen) keys() widget.Bindings {
	n := len(u.unlocks())
	if !u.listed() {
		n = len(u.offered)
	}
	up := widget.Binding{Key: keyUpPrev, Run: func() tea.Cmd { u.cursor = max(u.cursor-1, 0); return nil }}
	down := widget.Binding{Key: keyUpNext, Run: func() tea.Cmd { u.cursor = max(min(u.cursor+1, n-1), 0); return nil }}
	if !u.listed() {
		return widget.Bindings{up, down, widget.Names("↑/↓", "pick", up, down),
			{Key: keyFollow, Short: true, Run: func() tea.Cmd {
				if u.cursor >= n {
					return nil
				}
				return setFollowed(u.ctx, u, u.offered[u.cursor], true)
			}},
		}
	}
	return widget.Bindings{up, down, widget.Names("↑/↓", "move", up, down),
		{Key: keyUpOpen, Short: true, Run: func() tea.Cmd {
			if u.cursor >= n {
				return nil
			}
			a := NewAllocation(u.ctx).(*allocation)
			// The lookup's answer is the page's, once it is open.
			return tea.Sequence(views.Navigate(a), views.Address(a, a.lookup(u.unlocks()[u.cursor].Allocation)))
		}},
		{Key: keyUnfollow, Short: true, Run: func() tea.Cmd {
			if u.cursor >= n {
				return nil
			}
			return setFollowed(u.ctx, u, u.unlocks()[u.cursor].Allocation, false)
		}},
		{Key: keyUpReload, Short: true, Run: func() tea.Cmd {
			if u.busy {
				return nil
			}
			return u.load()
		}},
		{Key: keyClaimAll, Short: true, Run: func() tea.Cmd {
			return views.Navigate(NewClaimAll(u.ctx, slices.Clone(u.ids)))
		}, Disabled: func() string {
			if _, _, ok := u.ctx.Wallet.Account(); !ok {
				return "Unlock the key that pays first: u, then C"
			}
			return ""
		}},
	}
}

func (u *upcomingScreen) View() string {
	muted := u.ctx.Styles.Muted
	var b strings.Builder
	if u.err != nil {
		b.WriteString(u.ctx.Styles.Fail.Render(sanitize.Truncate(u.err.Error(), u.width)) + "\n")
	}
	if !u.listed() {
		b.WriteString(widget.Page("You follow no allocation. Follow one with f on its Allocation screen, or list "+
			"allocations = [\"ID\"] in the profile; its unlocks of the next "+fmt.Sprint(upcoming.DefaultDays)+" days show here.", u.width, 0) + "\n")
		if len(u.offered) > 0 {
			what := "Looked up lately"
			if u.ctx.Session.Fixtures != nil {
				what += ", then the sandbox's demo allocations"
			}
			b.WriteString("\n" + widget.Page(muted.Render(what+" (f follows the one picked):"), u.width, 0) + "\n")
		}
		for i, id := range u.offered {
			marker := "  "
			if i == u.cursor {
				marker = "▶ "
			}
			line := marker + sanitize.Line(id)
			if state := demoState(u.ctx, id); state != "" {
				line += "  " + muted.Render(state)
			}
			b.WriteString(line + "\n")
		}
		return b.String()
	}
	if u.report == nil {
		b.WriteString(muted.Render(fmt.Sprintf("Reading the unlocks of %d followed allocations…", len(u.ids))) + "\n")
		return b.String()
	}
	r := u.report
	title := fmt.Sprintf("Unlocks of the next %d days · %d followed · from %s", upcoming.DefaultDays, len(u.ids), r.From.Format("2006-01-02 15:04 UTC"))
	if ansi.StringWidth(title) > u.width {
		title = fmt.Sprintf("Next %d days · %d followed · from %s", upcoming.DefaultDays, len(u.ids), r.From.Format("2006-01-02"))
	}
	b.WriteString(u.ctx.Styles.Title.Render(sanitize.Truncate(title, u.width)) + "\n")
	notes := u.notes()
	// The chart has a third of the screen, and what the unlocks leave.
	chart := u.chart(max(u.height/3, u.height-2-len(notes)-len(u.unlocks())))
	rows := max(u.height-2-len(notes)-len(chart), 3)
	b.WriteString(u.list(rows))
	for _, line := range chart {
		b.WriteString(line + "\n")
	}
	for _, n := range notes {
		b.WriteString(muted.Render(sanitize.Truncate(n, u.width)) + "\n")
	}
	return b.String()
}

// list draws rows lines of unlocks, the cursor's among them. The amount
// and its token stay whole: on a narrow screen the allocation's id is
// shortened (enter opens it whole), then the time left is left out.
func (u *upcomingScreen) list(rows int) string {
	list := u.unlocks()
	if len(list) == 0 {
		return u.ctx.Styles.Muted.Render("No unlock ahead in this window.") + "\n"
	}
	rows--
	u.top = min(max(u.top, u.cursor-rows+1), u.cursor)
	amounts := make([]string, len(list))
	amountWidth := len("AMOUNT")
	for i, x := range list {
		amounts[i] = amountText(x.Amount, x.Unit, x.Token)
		amountWidth = max(amountWidth, lipgloss.Width(amounts[i]))
	}
	// WHEN, IN, ALLOCATION, PERCENT and AMOUNT, two spaces apart.
	idWidth, in := 36, true
	if 16+2+8+2+idWidth+2+9+2+amountWidth > u.width {
		idWidth = 10 // 8 characters and "…", under the whole heading
	}
	if 16+2+8+2+idWidth+2+9+2+amountWidth > u.width {
		in = false
	}
	line := func(when, left, id, percent, amount string) string {
		cells := []string{when}
		if in {
			cells = append(cells, fmt.Sprintf("%-8s", left))
		}
		cells = append(cells, fmt.Sprintf("%-*s", idWidth, sanitize.Truncate(id, idWidth)), fmt.Sprintf("%9s", percent), amount)
		return sanitize.Truncate(strings.Join(cells, "  "), u.width)
	}
	var b strings.Builder
	b.WriteString(u.ctx.Styles.Muted.Render(line(fmt.Sprintf("%-16s", "WHEN (UTC)"), "IN", "ALLOCATION", "PERCENT", "AMOUNT")) + "\n")
	for i := u.top; i < len(list) && i < u.top+rows; i++ {
		x := list[i]
		text := line(x.At.UTC().Format("2006-01-02 15:04"), widget.FormatDuration(int64(x.At.Sub(u.report.From).Seconds())),
			x.Allocation, vesting.FormatPPM(x.PPM)+"%", amounts[i])
		if i == u.cursor {
			text = u.ctx.Styles.Selected.Render(text)
		}
		b.WriteString(text + "\n")
	}
	return b.String()
}

// chart draws the weekly totals as bars, each token's on its own scale,
// then the monthly ones, each named with its token.
func (u *upcomingScreen) chart(lines int) []string {
	weeks := u.report.Totals(upcoming.Week)
	if len(weeks) == 0 {
		return nil
	}
	// Each token's bars on its own scale: amounts of different tokens
	// are not compared.
	type token struct {
		addr common.Address
		unit string
	}
	full := map[token]decimal.Decimal{}
	for _, w := range weeks {
		k := token{w.Token, w.Unit}
		full[k] = decimal.Max(full[k], decimal.NewFromBigInt(w.Amount, 0))
	}
	label := func(t upcoming.Total) string { return amountText(t.Amount, t.Unit, t.Token) }
	// A month's total is one piece: a narrow screen breaks the line
	// between months (their spaces held by no-break spaces while
	// wrapping), each further line under the first month.
	const nbsp = "\u00a0"
	var parts []string
	for _, m := range u.report.Totals(upcoming.Month) {
		parts = append(parts, strings.ReplaceAll(m.Start.Format("Jan 2006")+" "+label(m), " ", nbsp))
	}
	head := "Per month: "
	var months []string
	for i, line := range widget.WrapWords(strings.Join(parts, " · "), max(u.width-len(head), 1)) {
		line = strings.ReplaceAll(line, nbsp, " ")
		if i == 0 {
			months = append(months, u.ctx.Styles.Muted.Render(head)+line)
		} else {
			months = append(months, strings.Repeat(" ", len(head))+line)
		}
	}
	width := max(min(u.width-40, 40), 4)
	out := []string{"", u.ctx.Styles.Muted.Render("Per week, from Monday (UTC):")}
	// The weeks get what the months leave of the chart's lines, one at
	// least.
	if room := max(lines-len(out)-len(months), 1); len(weeks) > room {
		out[1] = u.ctx.Styles.Muted.Render(fmt.Sprintf("Per week, from Monday (UTC), the first %d of %d:", room, len(weeks)))
		weeks = weeks[:room]
	}
	for _, w := range weeks {
		out = append(out, sanitize.Truncate(w.Start.Format("2006-01-02")+"  "+widget.Bar(decimal.NewFromBigInt(w.Amount, 0), full[token{w.Token, w.Unit}], width)+"  "+label(w), u.width))
	}
	out = append(out, months...)
	return out
}

// amountText is an amount of tokens as every screen writes it
// (upcoming.FormatAmount, as allot upcoming's table does), with its token: its unit ("1,000.00 MRD"), else its
// address, else that it is unknown (its vester's record was not read).
func amountText(units *big.Int, unit string, token common.Address) string {
	text := upcoming.FormatAmount(units)
	switch {
	case unit != "":
		return text + " " + unit
	case token != (common.Address{}):
		return text + "  " + token.Hex()
	}
	return text + "  token unknown"
}

// notes say what kept an allocation's unlocks out, or not checked.
func (u *upcomingScreen) notes() []string {
	var out []string
	for _, a := range u.report.Allocations {
		if u.width < 100 { // the id shortened as in the list, the words whole
			a.ID = sanitize.Truncate(a.ID, 9)
		}
		switch {
		case a.Err != nil:
			out = append(out, a.ID+": "+a.Err.Error())
		case a.State == "revoked":
			out = append(out, a.ID+" is revoked: nothing of it unlocks")
		case a.State == "cancelled":
			out = append(out, a.ID+" is cancelled: nothing more unlocks")
		case a.Unchecked != "":
			out = append(out, a.ID+" not fully checked: "+a.Unchecked)
		}
	}
	if len(out) > 4 {
		out = append(out[:3], fmt.Sprintf("and %d more", len(out)-3))
	}
	return slices.Clip(out)
}
