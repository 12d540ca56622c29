package views

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/app/journal"
	"allot/sanitize"
	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/vesting"
)

// maxRecent is how many recent lookups the allocation screen offers;
// recentTail is how much of the journal's end is read to find them.
const (
	maxRecent  = 8
	recentTail = 256 << 10
)

// allocation looks up an allocation: its merkle proof, verified here, the
// allocation and schedule decoded from the leaf, and an unlock chart.
type allocation struct {
	ctx    *Context
	input  textinput.Model
	recent []string
	pick   int // index in recent while choosing with up/down; -1 none

	seq    int
	busy   bool
	result *wallet.Verification
	detail *widget.Detail

	width, height int
}

// NewAllocation is the allocation lookup screen; id, when not empty, is
// looked up at once (the :alloc command).
func NewAllocation(ctx *Context) Screen {
	in := textinput.New()
	in.Placeholder = "allocation id (UUID)"
	in.CharLimit = 36
	in.Prompt = "Allocation: "
	in.Focus()
	a := &allocation{ctx: ctx, input: in, pick: -1, detail: widget.NewDetail()}
	a.recent = recentLookups(ctx.Journal, ctx.Session.Deployment())
	return a
}

// LookupMsg asks the allocation screen to look up an id.
type LookupMsg struct{ ID string }

// recentLookups are the allocations looked up lately on deployment d,
// newest first: ids of another deployment mean nothing here.
func recentLookups(j *journal.Journal, d journal.Deployment) []string {
	if j == nil {
		return nil
	}
	// The newest lookups are at the end: a bounded tail keeps opening a
	// screen cheap however long the journal grows.
	res, err := j.ReadTail(recentTail)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i := len(res.Entries) - 1; i >= 0 && len(out) < maxRecent; i-- {
		e := res.Entries[i]
		if e.Kind == journal.KindLookup && d.Owns(e) && !seen[e.Ref] && api.CheckUUID("id", e.Ref) == nil {
			seen[e.Ref] = true
			out = append(out, e.Ref)
		}
	}
	return out
}

func (a *allocation) Title() string   { return "Allocation" }
func (a *allocation) Busy() bool      { return a.busy }
func (a *allocation) Capturing() bool { return a.input.Focused() }
func (a *allocation) Narrowed() bool  { return false }
func (a *allocation) Init() tea.Cmd   { return textinput.Blink }

func (a *allocation) SetSize(width, height int) {
	a.width, a.height = width, height
	a.input.Width = min(40, max(width-14, 10))
	a.layout()
}

// layout sizes the fields pane: beside the chart on wide screens, above it
// otherwise; the line of the input stays on top.
func (a *allocation) layout() {
	rest := max(a.height-1, 3)
	if a.wide() {
		a.detail.SetSize(a.width/2, rest)
		return
	}
	a.detail.SetSize(a.width, rest-a.chartHeight()-1)
}

func (a *allocation) wide() bool { return a.width >= 120 }

func (a *allocation) chartHeight() int {
	if a.wide() {
		return min(a.height-2, 16)
	}
	return min(10, max(a.height-1, 3)/2)
}

func (a *allocation) lookup(id string) tea.Cmd {
	id = strings.TrimSpace(id)
	if err := api.CheckUUID("allocation id", id); err != nil {
		return func() tea.Msg { return ErrorMsg{Op: "allocation", Err: err} }
	}
	a.seq = nextSeq()
	a.busy = true
	a.input.Blur()
	a.input.SetValue(id)
	a.remember(id)
	s, j := a.ctx.Session, a.ctx.Journal
	return load(a.seq, func(c context.Context) (*wallet.Verification, error) {
		if j != nil {
			// A failed write only costs the recent list; the lookup goes on.
			_ = j.Append(s.Deployment().Stamp(journal.Entry{Kind: journal.KindLookup, Ref: id}))
		}
		p, err := s.API.MerkleProof(c, id)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		proof, err := wallet.DecodeProof(raw)
		if err != nil {
			return nil, err
		}
		opts := wallet.VerifyOptions{Now: a.ctx.Now()}
		if s.Chain != nil && s.VesterOf != nil {
			if vester, ok := s.VesterOf(p.DistributionID); ok {
				opts.Chain, opts.Vester = s.Chain, vester
			}
		}
		return wallet.VerifyProof(c, proof, opts), nil
	})
}

// remember puts id first in the recent lookups; the journal keeps it for
// the next run (written by the lookup's command: an fsync has no place on
// the UI goroutine).
func (a *allocation) remember(id string) {
	out := []string{id}
	for _, r := range a.recent {
		if r != id && len(out) < maxRecent {
			out = append(out, r)
		}
	}
	a.recent = out
}

func (a *allocation) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case LookupMsg:
		return a.lookup(msg.ID)
	case loaded[*wallet.Verification]:
		if msg.seq != a.seq {
			return nil
		}
		a.busy = false
		if msg.err != nil {
			a.input.Focus()
			return func() tea.Msg { return ErrorMsg{Op: "allocation", Err: msg.err} }
		}
		a.result = msg.value
		a.detail.SetFields(verificationFields(msg.value, a.ctx.Now()))
		return nil
	case tea.KeyMsg:
		if a.input.Focused() {
			return a.updateInput(msg)
		}
		if key.Matches(msg, keyNewLookup) {
			a.input.SetValue("")
			a.input.Focus()
			return textinput.Blink
		}
		if key.Matches(msg, keyClaim) && a.result != nil && !a.busy {
			unlocked, beneficiary := "", common.Address{}
			if a.result.Unlocked != nil {
				unlocked = wallet.FormatUnits(a.result.Unlocked)
			}
			if a.result.Args != nil {
				beneficiary = a.result.Args.Allocation.OriginalBeneficiary
			}
			return navigate(NewClaim(a.ctx, a.result.Proof.ID, unlocked, beneficiary))
		}
		return a.detail.Update(msg)
	}
	if a.input.Focused() {
		var cmd tea.Cmd
		a.input, cmd = a.input.Update(msg)
		return cmd
	}
	return nil
}

func (a *allocation) updateInput(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		return a.lookup(a.input.Value())
	case "esc":
		if a.result != nil {
			a.input.Blur()
			return nil
		}
	case "up", "down":
		if len(a.recent) == 0 {
			return nil
		}
		if msg.String() == "down" {
			a.pick = min(a.pick+1, len(a.recent)-1)
		} else {
			a.pick = max(a.pick-1, 0)
		}
		a.input.SetValue(a.recent[a.pick])
		a.input.CursorEnd()
		return nil
	}
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	return cmd
}

func mark(ok bool) string {
	if ok {
		return "✓ PASS"
	}
	return "✗ FAIL"
}

var (
	passStyle = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#3FB950"}).Bold(true)
	failStyle = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#F85149"}).Bold(true)
)

func markStyle(ok bool) lipgloss.Style {
	if ok {
		return passStyle
	}
	return failStyle
}

func verificationFields(v *wallet.Verification, now time.Time) []widget.Field {
	onChain := widget.Field{Label: "On-chain root", Value: "not checked (no chain or vester known)"}
	if v.OnChainOK != nil {
		onChain = widget.Field{Label: "On-chain root", Value: mark(*v.OnChainOK) + "  " + v.OnChainRoot.Hex(), Style: markStyle(*v.OnChainOK)}
	} else if v.ChainErr != nil {
		onChain.Value = "not checked: " + v.ChainErr.Error()
	}
	fields := []widget.Field{
		{Label: "Allocation", Value: v.Proof.ID},
		{Label: "Leaf", Value: mark(v.LeafOK) + "  " + v.Leaf.Hex(), Style: markStyle(v.LeafOK)},
		{Label: "Computed root", Value: v.ComputedRoot.Hex()},
		onChain,
		{Label: "Root index", Value: fmt.Sprint(v.Proof.RootIndex)},
	}
	if v.Args == nil {
		return append(fields, widget.Field{Label: "Leaf content", Value: mark(false) + "  " + fmt.Sprint(v.ArgsErr), Style: failStyle})
	}
	al, sc := v.Args.Allocation, v.Args.Schedule
	if v.WalletOK != nil {
		fields = append(fields, widget.Field{Label: "Wallet = beneficiary", Value: mark(*v.WalletOK), Style: markStyle(*v.WalletOK)})
	}
	fields = append(fields,
		widget.Field{Label: "Beneficiary", Value: al.OriginalBeneficiary.Hex()},
		widget.Field{Label: "Total", Value: widget.FormatAmount(wallet.FormatUnits(al.TotalAllocation))},
		widget.Field{Label: "Unlocked now", Value: fmt.Sprintf("%s%%  %s", vesting.FormatPPM(v.UnlockedPPM), widget.FormatAmount(wallet.FormatUnits(v.Unlocked)))},
		widget.Field{Label: "Flags", Value: fmt.Sprintf("cancelable %t · revokable %t · transferable by admin %t · by beneficiary %t",
			al.Cancelable, al.Revokable, al.TransferableByAdmin, al.TransferableByBeneficiary)},
		widget.Field{Label: "Schedule", Value: sc.Kind + " " + sc.UnlockScheduleID},
	)
	if v.ScheduleErr != nil {
		fields = append(fields, widget.Field{Label: "Schedule check", Value: mark(false) + "  " + v.ScheduleErr.Error(), Style: failStyle})
	}
	switch sc.Kind {
	case vesting.Calendar:
		for i, ts := range sc.UnlockTimestamps {
			pct := "?"
			if i < len(sc.UnlockPercents) && sc.UnlockPercents[i].IsUint64() {
				pct = vesting.FormatPPM(sc.UnlockPercents[i].Uint64())
			}
			fields = append(fields, widget.Field{Label: fmt.Sprintf("  unlock %d", i+1), Value: fmt.Sprintf("%s%% at %s", pct, widget.FormatTime(time.Unix(int64(ts), 0), now))})
		}
	case vesting.Interval:
		for i, p := range sc.Pieces {
			fields = append(fields, widget.Field{Label: fmt.Sprintf("  piece %d", i+1), Value: fmt.Sprintf("%s%% in %d steps of %s from %s",
				vesting.FormatPPM(uint64(p.Percent)), p.NumberOfPeriods, widget.FormatDuration(int64(p.PeriodLength)), widget.FormatTime(time.Unix(int64(p.StartDate), 0), now))})
		}
	}
	for i, sib := range v.Proof.Siblings {
		fields = append(fields, widget.Field{Label: fmt.Sprintf("  proof %d", i), Value: sib.Hex()})
	}
	return fields
}

func (a *allocation) View() string {
	var b strings.Builder
	b.WriteString(a.input.View() + "\n")
	if a.input.Focused() || a.result == nil {
		if len(a.recent) > 0 {
			b.WriteString(a.ctx.Styles.Muted.Render("Recent (up/down):") + "\n")
			for i, r := range a.recent {
				marker := "  "
				if i == a.pick {
					marker = "▶ "
				}
				b.WriteString(marker + r + "\n")
			}
		} else {
			b.WriteString(a.ctx.Styles.Muted.Render("Type an allocation id and press enter.") + "\n")
		}
		return b.String()
	}
	v := a.result
	chartPoints := make([]widget.Point, 0, 1+len(v.Timeline))
	for _, p := range v.Timeline {
		chartPoints = append(chartPoints, widget.Point{At: p.At, Fraction: float64(p.PPM) / vesting.PercentScale})
	}
	now := a.ctx.Now()
	title := a.ctx.Styles.Title.Render(sanitize.Truncate("Unlock schedule · unlocked now "+vesting.FormatPPM(v.UnlockedPPM)+"%", a.width))
	if a.wide() {
		chart := title + "\n" + widget.StepChart(chartPoints, now, a.width-a.width/2-2, a.chartHeight())
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, a.detail.View(), "  ", chart))
		return b.String()
	}
	b.WriteString(a.detail.View() + "\n" + title + "\n" + widget.StepChart(chartPoints, now, a.width, a.chartHeight()-1))
	return b.String()
}

func (a *allocation) ShortHelp() []key.Binding {
	if a.input.Focused() {
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "look up")),
			key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "recent"))}
	}
	keys := []key.Binding{keyNewLookup}
	if a.result != nil {
		keys = append(keys, keyClaim)
	}
	return append(keys, a.detail.ShortHelp()...)
}

func (a *allocation) FullHelp() [][]key.Binding { return [][]key.Binding{a.ShortHelp()} }
