package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"allot/core/journal"
	"allot/core/rows"
	"allot/core/txlog"
	"allot/core/write"
	"allot/internal/sanitize"
)

var transactionsCommand = command{
	name:    "transactions",
	args:    "[--kind KIND] [--status STATUS] [-o json|csv]",
	summary: "list what this machine created, signed or sent, newest first, as the Transactions screen does",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		kind := fs.String("kind", "", "only the rows of `KIND` (as the KIND column says: claim, stake, START_DISTRIBUTION, schedule, ...; any case)")
		status := fs.String("status", "", "only the rows of `STATUS` (as the STATUS column says: UNKNOWN, CREATED, success, reverted, ...; any case)")
		out := listOutputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			j, err := journal.Open(s.StateDir)
			if err != nil {
				return err
			}
			learned := e.learn(ctx, s, j)
			// Rows stream from the journal's index, newest first, as they
			// are read: the first shows at once and memory stays flat
			// however long the journal. The table alone waits for all,
			// to size its columns.
			each := func(fn func(txlog.Row) error) error {
				var ferr error
				err := txlog.Each(j, s.Deployment(), func(r txlog.Row) bool {
					if r = learned.Apply(r); matches(r, *kind, *status) {
						ferr = fn(r)
					}
					return ferr == nil
				})
				var warn txlog.Warning
				if ferr == nil && errors.As(err, &warn) {
					// A damaged line (a crash while writing): what was
					// read is listed.
					fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
					return nil
				}
				return cmp.Or(ferr, err)
			}
			switch *out {
			case formatJSON:
				list := newJSONList(e.Stdout, "transactions")
				if err := each(func(r txlog.Row) error { return list.item(jsonRow(r)) }); err != nil {
					return err
				}
				return list.end()
			case formatCSV:
				return writeRowsCSV(e.Stdout, rows.Transactions, func(f func(*txlog.Row) error) error {
					return each(func(r txlog.Row) error { return f(&r) })
				})
			}
			listed, err := txlog.Read(j, s.Deployment())
			for i := range listed {
				listed[i] = learned.Apply(listed[i])
			}
			var warn txlog.Warning
			if errors.As(err, &warn) {
				fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
			} else if err != nil {
				return err
			}
			all := listed
			listed = onlyRows(listed, *kind, *status)
			if len(listed) == 0 {
				_, err := fmt.Fprintln(e.Stdout, noTransactions(s.Sandbox, *kind != "" || *status != "", all))
				return err
			}
			return writeRowsTable(e.Stdout, rows.Transactions, "", rowsOf(listed))
		}
	},
}

// learn asks the chain first about what was sent and not followed to its
// end (allot exited, or the node queued it): the journal learns the
// outcomes found, and the list reads them; what has no end yet is
// returned for the list to show.
func (e *env) learn(ctx context.Context, s *opened, j *journal.Journal) txlog.Learned {
	if s.Chain == nil {
		return nil
	}
	warn := func(err error) { fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err) }
	rec := s.Recorder(j)
	rec.Warn = warn
	learned, err := txlog.Learn(ctx, rec, s.Chain, s.Profile.ChainID, j, s.Deployment())
	if err != nil {
		warn(err)
	}
	return learned
}

// onlyRows keeps the rows of kind and status (matches).
func onlyRows(rows []txlog.Row, kind, status string) []txlog.Row {
	var out []txlog.Row
	for _, r := range rows {
		if matches(r, kind, status) {
			out = append(out, r)
		}
	}
	return out
}

// matches: r is of kind and status, each "" for any, compared as the
// columns show them, in any case.
func matches(r txlog.Row, kind, status string) bool {
	return (kind == "" || strings.EqualFold(r.Kind, kind)) && (status == "" || strings.EqualFold(r.Status, status))
}

// noTransactions says why nothing is listed; filtered, which kinds and
// statuses all, the rows before the filter, hold.
func noTransactions(sandbox, filtered bool, all []txlog.Row) string {
	switch {
	case filtered && len(all) > 0:
		var kinds, statuses []string
		for _, r := range all {
			if !slices.Contains(kinds, r.Kind) {
				kinds = append(kinds, r.Kind)
			}
			if !slices.Contains(statuses, r.Status) {
				statuses = append(statuses, r.Status)
			}
		}
		return fmt.Sprintf("No transactions of that kind and status (kinds here: %s; statuses here: %s).",
			sanitize.Line(strings.Join(kinds, ", ")), sanitize.Line(strings.Join(statuses, ", ")))
	case filtered:
		return "No transactions of that kind and status."
	case sandbox:
		return "No transactions: the embedded sandbox is a new world on each start, and this one has none. " +
			"Use a profile (or one for `allot sandbox`) to list what was sent across runs."
	}
	return "No transactions yet: what allot creates or sends (operator forms, claims, stakes, allot tx) is listed here."
}

// transactionJSON is one row as -o json prints it.
type transactionJSON struct {
	ID            string          `json:"id"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	CreatedAt     time.Time       `json:"createdAt"`
	Profile       string          `json:"profile"`
	Block         uint64          `json:"block,omitempty"`
	Confirmations uint64          `json:"confirmations,omitempty"`
	GasUsed       uint64          `json:"gasUsed,omitempty"`
	RevertReason  string          `json:"revertReason,omitempty"`
	QueuedBehind  *uint64         `json:"queuedBehind,omitempty"` // the nonce a queued transaction waits for
	Sent          json.RawMessage `json:"sent,omitempty"`         // the body a service transaction was created with
	About         []write.Field   `json:"about,omitempty"`        // what a write without sent asked for, as the screen's details say
}

func jsonRow(r txlog.Row) transactionJSON {
	j := transactionJSON{ID: r.ID, Kind: r.Kind, Status: r.Status, CreatedAt: r.At.UTC(), Profile: r.Profile,
		Block: r.Block, Confirmations: r.Confirmations, GasUsed: r.GasUsed, RevertReason: r.RevertReason, Sent: r.Sent}
	if behind, ok := r.QueuedBehind(); ok {
		j.QueuedBehind = &behind
	}
	if r.Sent == nil {
		// Only a row without its body is described: reading one back
		// costs as much as the rest of the row, and sent says it all.
		j.About = r.About()
	}
	return j
}
