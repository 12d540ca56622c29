package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/journal"
	"allot/core/session"
	"allot/core/upcoming"
	"allot/internal/atomicfile"
	"allot/internal/ical"
	"allot/internal/isotime"
	"allot/wallet"
	"allot/wallet/vesting"
)

var upcomingCommand = command{
	name:    "upcoming",
	args:    "[ALLOCATION_ID...] [--days N] [--ics FILE] [-o json|csv]",
	summary: "the unlocks ahead of the allocations given or followed, with totals per week and month, and as an iCalendar file",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		days := fs.Int("days", upcoming.DefaultDays, "list the unlocks of the next `N` days")
		icsPath := fs.String("ics", "", "also write the unlocks to the iCalendar file `FILE`, one event each, which a calendar imports again without doubling them")
		out := listOutputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if *days < 1 || *days > upcoming.MaxDays {
				return usagef("--days %d: give 1 to %d", *days, upcoming.MaxDays)
			}
			s, on, err := e.openAllocations(ctx, args, "list")
			if err != nil {
				return err
			}
			r := upcoming.Collect(ctx, s.CheckAllocation, on.ids, s.Now(), *days)
			if err := ctx.Err(); err != nil {
				return err
			}
			r.Name(s.VesterUnits(ctx))
			failed := 0
			for _, a := range r.Allocations {
				switch {
				case a.Err != nil:
					failed++
					fmt.Fprintf(e.Stderr, "allot: warning: allocation %s: %v\n", a.ID, withDemoAllocations(s, a.Err))
				case a.Unchecked != "":
					fmt.Fprintf(e.Stderr, "allot: warning: allocation %s is not fully checked (%s): its unlocks are the schedule's\n", a.ID, a.Unchecked)
				}
			}
			if *icsPath != "" {
				if err := writeICS(*icsPath, s.Now(), r); err != nil {
					return err
				}
				fmt.Fprintf(e.Stderr, "allot: wrote %d unlocks to %s\n", len(r.Unlocks), *icsPath)
			}
			switch *out {
			case formatJSON:
				err = writeJSON(e.Stdout, upcomingJSON(r, *days))
			case formatCSV:
				err = writeUpcomingCSV(e.Stdout, r)
			default:
				err = writeUpcomingTable(e.Stdout, r, *days)
			}
			if err != nil {
				return err
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d allocations could not be read (see above)", failed, len(on.ids))
			}
			return nil
		}
	},
}

// openAllocations opens the session of a command that works on the
// allocations given (ids checked first) or followed (allocations), what
// it does to them named by verb ("list", "watch").
func (e *env) openAllocations(ctx context.Context, given []string, verb string) (*opened, workedOn, error) {
	for _, id := range given {
		if err := api.CheckUUID("allocation id", id); err != nil {
			return nil, workedOn{}, usageError{msg: err.Error()}
		}
	}
	s, err := e.open(ctx, opening{})
	if err != nil {
		return nil, workedOn{}, err
	}
	ids, err := e.allocations(s, given, verb)
	if err != nil {
		return nil, workedOn{}, err
	}
	return s, ids, nil
}

// workedOn are the allocations a command works on, and, when they
// are the followed ones, where to read them again (session.Follows).
type workedOn struct {
	ids     []string
	follows *session.Follows // nil: the ids were given
}

// allocations are the ids a command works on: those given, else the
// profile's allocations and those followed on the deployment, each once.
// None is a usage error that says how to follow one, and offers the
// allocations looked up lately.
func (e *env) allocations(s *opened, given []string, verb string) (workedOn, error) {
	if len(given) > 0 {
		return workedOn{ids: slices.Compact(given)}, nil
	}
	follows, j := e.follows(s)
	ids, err := follows.IDs()
	if err != nil {
		fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
	}
	if len(ids) > 0 {
		return workedOn{ids: ids, follows: &follows}, nil
	}
	return workedOn{}, noAllocations(s, j, verb)
}

// follows are the allocations followed on s's deployment, and the journal
// beside which those followed with f are kept (nil, with a warning, when
// it cannot be opened).
func (e *env) follows(s *opened) (session.Follows, *journal.Journal) {
	var j *journal.Journal
	if s.StateDir != "" {
		var err error
		if j, err = journal.Open(s.StateDir); err != nil {
			fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
		}
	}
	return s.Follows(j), j
}

// noAllocations is the usage error of a command with no allocation to
// work on: it says how to follow one, and offers those looked up lately.
func noAllocations(s *opened, j *journal.Journal, verb string) error {
	msg := "no allocation to " + verb + ": give ids, list allocations = [\"ID\"] in the profile, or follow one with f on the allocation screen"
	if recent := j.RecentLookups(s.Deployment(), 3); len(recent) > 0 {
		msg += "; looked up lately: " + strings.Join(recent, " ")
	}
	return usagef("%s", msg)
}

// unlockJSON is one unlock as `upcoming -o json` prints it: amounts as
// exact decimals in token units and in base units.
type unlockJSON struct {
	Allocation string `json:"allocation"`
	Time       string `json:"time"`
	Percent    string `json:"percent"`
	Amount     string `json:"amount"`
	AmountWei  string `json:"amountWei"`
	Vested     string `json:"vested"`
	VestedWei  string `json:"vestedWei"`
	Token      string `json:"token,omitempty"`
	Symbol     string `json:"symbol,omitempty"`
	UID        string `json:"uid"`
}

type totalJSON struct {
	Start     string `json:"start"`
	Token     string `json:"token,omitempty"`
	Symbol    string `json:"symbol,omitempty"`
	Amount    string `json:"amount"`
	AmountWei string `json:"amountWei"`
	Unlocks   int    `json:"unlocks"`
}

type followedJSON struct {
	ID        string `json:"id"`
	State     string `json:"state,omitempty"`
	Unchecked string `json:"unchecked,omitempty"`
	Unlocks   int    `json:"unlocks"`
	Error     string `json:"error,omitempty"`
}

type upcomingOutput struct {
	From        string         `json:"from"`
	To          string         `json:"to"`
	Days        int            `json:"days"`
	Unlocks     []unlockJSON   `json:"unlocks"`
	Weeks       []totalJSON    `json:"weeks"`
	Months      []totalJSON    `json:"months"`
	Allocations []followedJSON `json:"allocations"`
}

func upcomingJSON(r upcoming.Report, days int) upcomingOutput {
	out := upcomingOutput{From: isotime.Format(r.From), To: isotime.Format(r.To), Days: days,
		Unlocks: []unlockJSON{}, Weeks: totalsJSON(r.Totals(upcoming.Week)), Months: totalsJSON(r.Totals(upcoming.Month)),
		Allocations: []followedJSON{}}
	for _, u := range r.Unlocks {
		out.Unlocks = append(out.Unlocks, unlockJSON{
			Allocation: u.Allocation, Time: isotime.Format(u.At), Percent: vesting.FormatPPM(u.PPM),
			Amount: wallet.FormatUnits(u.Amount), AmountWei: u.Amount.String(),
			Vested: wallet.FormatUnits(u.Vested), VestedWei: u.Vested.String(),
			Token: tokenHex(u.Token), Symbol: u.Unit, UID: unlockUID(u),
		})
	}
	for _, a := range r.Allocations {
		j := followedJSON{ID: a.ID, State: a.State, Unchecked: a.Unchecked, Unlocks: a.Unlocks}
		if a.Err != nil {
			j.Error = a.Err.Error()
		}
		out.Allocations = append(out.Allocations, j)
	}
	return out
}

func totalsJSON(totals []upcoming.Total) []totalJSON {
	out := []totalJSON{}
	for _, t := range totals {
		out = append(out, totalJSON{Start: t.Start.Format(time.DateOnly), Token: tokenHex(t.Token), Symbol: t.Unit,
			Amount: wallet.FormatUnits(t.Amount), AmountWei: t.Amount.String(), Unlocks: t.Unlocks})
	}
	return out
}

// tokenHex names a token by its address; "" when unknown.
func tokenHex(a common.Address) string {
	if a == (common.Address{}) {
		return ""
	}
	return a.Hex()
}

// writeUpcomingCSV writes one row an unlock, for a spreadsheet.
func writeUpcomingCSV(w io.Writer, r upcoming.Report) error {
	t := newCSV(w, "time", "allocation", "percent", "amount", "token", "symbol")
	for _, u := range r.Unlocks {
		t.row(isotime.Format(u.At), u.Allocation, vesting.FormatPPM(u.PPM), wallet.FormatUnits(u.Amount), tokenHex(u.Token), csvText(u.Unit))
	}
	return t.flush()
}

// writeUpcomingTable prints the unlocks, then their totals per week and
// per month, and what was found of each allocation that will not unlock.
// Each amount is written as the dashboard's :upcoming writes it
// (upcoming.FormatAmount), followed by its token (unitText).
func writeUpcomingTable(w io.Writer, r upcoming.Report, days int) error {
	fmt.Fprintf(w, "Unlocks of the next %d days, from %s\n", days, r.From.Format("2006-01-02 15:04 UTC"))
	if len(r.Unlocks) == 0 {
		fmt.Fprintln(w, "none")
	} else {
		t := newTable(w, "WHEN (UTC)", "IN", "ALLOCATION", "PERCENT", "AMOUNT", "TOKEN")
		t.alignDecimals(3, 4)
		for _, u := range r.Unlocks {
			t.row(u.At.UTC().Format("2006-01-02 15:04"), inText(u.At.Sub(r.From)), u.Allocation,
				vesting.FormatPPM(u.PPM)+"%", upcoming.FormatAmount(u.Amount), unitText(u.Unit, u.Token))
		}
		if err := t.flush(); err != nil {
			return err
		}
		for _, p := range []struct {
			title  string
			period upcoming.Period
		}{{"Per week (from Monday, UTC)", upcoming.Week}, {"Per month (UTC)", upcoming.Month}} {
			fmt.Fprintln(w, "\n"+p.title)
			t := newTable(w, "FROM", "UNLOCKS", "AMOUNT", "TOKEN")
			t.alignDecimals(1, 2)
			for _, tot := range r.Totals(p.period) {
				t.row(tot.Start.Format(time.DateOnly), strconv.Itoa(tot.Unlocks), upcoming.FormatAmount(tot.Amount), unitText(tot.Unit, tot.Token))
			}
			if err := t.flush(); err != nil {
				return err
			}
		}
	}
	for _, a := range r.Allocations {
		switch {
		case a.Err != nil:
		case a.State == "revoked":
			fmt.Fprintf(w, "\n%s is revoked: nothing of it unlocks\n", a.ID)
		case a.State == "cancelled":
			fmt.Fprintf(w, "\n%s is cancelled: nothing unlocks after its cancel time\n", a.ID)
		case a.Unlocks == 0:
			fmt.Fprintf(w, "\n%s: no unlock in the next %d days\n", a.ID, days)
		}
	}
	return nil
}

// unitText names the token of an amount: its unit ("MRD"), else its
// address, else "?" (its vester's record was not read).
func unitText(unit string, token common.Address) string {
	switch {
	case unit != "":
		return unit
	case token != (common.Address{}):
		return token.Hex()
	}
	return "?"
}

// inText says how far ahead d is, in its two largest units: "6d 23h".
func inText(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, minutes)
	}
	return fmt.Sprintf("%dm", max(minutes, 1))
}

// unlockUID is an unlock's iCalendar UID: the allocation and the time,
// the same on every export, so a calendar updates the event.
func unlockUID(u upcoming.Unlock) string {
	return u.Allocation + "-" + u.At.UTC().Format("20060102T150405Z") + "@allot"
}

// writeICS writes the unlocks as an iCalendar file, replacing FILE whole
// (a new file renamed over it).
func writeICS(path string, now time.Time, r upcoming.Report) error {
	events := make([]ical.Event, len(r.Unlocks))
	for i, u := range r.Unlocks {
		unit := " tokens"
		if u.Unit != "" {
			unit = " " + u.Unit
		}
		events[i] = ical.Event{
			UID:     unlockUID(u),
			Start:   u.At,
			Summary: "Unlock: " + wallet.FormatUnits(u.Amount) + unit + " (" + vesting.FormatPPM(u.PPM) + "%) of allocation " + u.Allocation,
			Description: "Allocation " + u.Allocation + " unlocks " + wallet.FormatUnits(u.Amount) + unit + " (" +
				vesting.FormatPPM(u.PPM) + "% of it); " + wallet.FormatUnits(u.Vested) + unit + " vested in all from then." +
				tokenLine(u.Token) + "\nListed by allot upcoming.",
		}
	}
	var b bytes.Buffer
	if err := ical.Write(&b, "-//allot//upcoming unlocks//EN", now, events); err != nil {
		return fmt.Errorf("--ics: %w", err)
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("--ics: %w", err)
	}
	return nil
}

func tokenLine(token common.Address) string {
	if token == (common.Address{}) {
		return ""
	}
	return "\nToken " + token.Hex() + "."
}
