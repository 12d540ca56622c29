// Package rows describes, once per row type, how a pool, a stake, a
// contract and a transaction are written: each column's title, the
// dashboard's width rule, the exact value (what the CSV writes) and how a
// value of its kind reads in a table. The dashboard's columns and details
// (views) and the commands' table and CSV (app/cli) are all made from these
// descriptions, so that they cannot disagree, and a column added here shows
// in each. It is plain Go: a view maps what it says to styles. The D-ids
// its comments cite are docs/deployment.md's.
package rows

import (
	"strconv"
	"strings"
	"time"

	"allot/internal/amount"
	"allot/internal/isotime"
)

// Place is where a row is written.
type Place uint8

const (
	Dashboard Place = 1 << iota // the dashboard's table
	Details                     // the dashboard's details of the row
	Table                       // the commands' table
	CSV                         // the commands' -o csv
)

// Kind says how a value is written: every place writes a kind alike.
type Kind uint8

const (
	// Text is text as it came (names, ids, addresses, statuses): it is
	// sanitized where it is drawn, and guarded against formulas in CSV.
	Text Kind = iota
	// Tokens is an amount of the token, exact: grouped in the tables,
	// the token's symbol in the header and after it in the details.
	Tokens
	// Ether is an amount of ether, exact: "ether" where Tokens names the
	// token.
	Ether
	// Percent is a decimal percentage: "6.50%" in the tables.
	Percent
	// Minute is a time, exact in D15: to the minute in UTC in the tables
	// ("2026-11-22 10:04 UTC"), also how far from now in the details.
	Minute
	// Second is Minute to the second, for what happens many times a
	// minute ("2026-11-22 10:04:05").
	Second
	// Seconds is a span of seconds: "1d 1h" (isotime.Span).
	Seconds
	// Count is a whole number.
	Count
)

// Number says whether values of kind k are numbers, which the tables
// right-align with their decimal points lined up.
func (k Kind) Number() bool { return k == Tokens || k == Ether || k == Percent || k == Count }

// Tone is what a value says, for a view to draw (the dashboard's theme):
// it is said in words too, never by colour alone.
type Tone uint8

const (
	Plain   Tone = iota
	Pass         // went as it should: a transaction mined
	Fail         // did not: reverted, dropped
	Unknown      // cannot be told yet: a write whose answer was lost
)

// Width is the dashboard's rule for a column's width (widget.Column's
// fields of the same names); the commands' table is as wide as its cells.
type Width struct {
	Min, Max, Flex, Priority int
	// Free marks free text people read (a name), which gets the room
	// left before values of a fixed form grow.
	Free bool
}

// Column is one column of rows of type R.
type Column[R any] struct {
	// Title heads the column on the dashboard and labels it in the
	// details; the commands' table heads it in capitals.
	Title string
	// Field heads the column in the CSV: the field's name in -o json
	// where it has one.
	Field string
	Kind  Kind
	// Out are the places the column is not written in; zero: everywhere.
	Out   Place
	Width Width
	// Value appends the exact value to dst: text as it came, a decimal
	// as the service wrote it, a time in D15; nothing for none (a time
	// not set, a block not mined), which the tables show as "-". Its
	// arguments are in a method expression's order, so that a compact
	// row's own method is one: (*api.StakeRow).AppendID.
	Value func(r *R, dst []byte) []byte
	// Note is the details' value when it says more than the column's
	// cell (a status explained); nil: the cell's. Tone is what the value
	// says there; nil: Plain.
	Note func(r *R) string
	Tone func(r *R) Tone
	// Compare orders two rows by the column on the dashboard (nil: the
	// column does not sort); SortKey is what it compares as three words,
	// for the dashboard's sort of many rows (widget.Column.SortKey).
	Compare func(a, b *R) int
	SortKey func(r *R) (key [3]uint64, exact bool)
}

// In reports whether the column is written in place p.
func (c *Column[R]) In(p Place) bool { return c.Out&p == 0 }

// Header heads the column in a table or the CSV, p: "Total staked (MRD)"
// on the dashboard, "TOTAL STAKED (MRD)" in the commands' table,
// "totalStaked" in CSV, naming the unit of its amounts in the tables (unit
// is the token's symbol, "" unnamed). The details label a value with the
// title, and write its unit after it.
func (c *Column[R]) Header(p Place, unit string) string {
	if p == CSV {
		return c.Field
	}
	h := c.Title
	if p == Table {
		h = strings.ToUpper(h)
	}
	if u := c.unit(unit); u != "" {
		h += " (" + u + ")"
	}
	return h
}

// unit is the unit the column's amounts are in, "" for none.
func (c *Column[R]) unit(token string) string {
	switch c.Kind {
	case Tokens:
		return token
	case Ether:
		return "ether"
	}
	return ""
}

// AppendCell appends the column's value of r as the tables write it; the
// scratch buffer holds the exact value on the way (its grown self is
// returned for the next call).
func (c *Column[R]) AppendCell(dst, scratch []byte, r *R) (out, grown []byte) {
	scratch = c.Value(r, scratch[:0])
	return AppendCell(dst, c.Kind, scratch), scratch
}

// Cell is the column's value of r as the tables write it.
func (c *Column[R]) Cell(r *R) string {
	out, _ := c.AppendCell(nil, nil, r)
	return string(out)
}

// Detail is the column's value of r as the details write it: the cell,
// an amount followed by its unit, a time as at writes it (the dashboard's
// says how far from now; the zero time is one not set); "" when there is
// none, which the details leave out.
func (c *Column[R]) Detail(r *R, unit string, at func(time.Time) string) string {
	if c.Note != nil {
		return c.Note(r)
	}
	exact := c.Value(r, nil)
	switch {
	case len(exact) == 0 && (c.Kind == Minute || c.Kind == Second):
		return at(time.Time{})
	case len(exact) == 0:
		return ""
	case c.Kind == Minute || c.Kind == Second:
		if t, err := time.Parse(isotime.Layout, string(exact)); err == nil {
			return at(t)
		}
	}
	cell := string(AppendCell(nil, c.Kind, exact))
	if u := c.unit(unit); u != "" {
		return cell + " " + u
	}
	return cell
}

// AppendCell appends an exact value of kind k as the tables write it.
func AppendCell(dst []byte, k Kind, exact []byte) []byte {
	if len(exact) == 0 {
		if k == Text {
			return dst
		}
		return append(dst, '-')
	}
	switch k {
	case Tokens:
		return amount.AppendTokens(dst, exact)
	case Ether:
		return append(dst, amount.Format(string(exact))...)
	case Percent:
		return append(dst, amount.Percent(string(exact))...)
	case Minute, Second:
		// isotime.Layout cut where its date, minutes and seconds end, not
		// a time formatted a row.
		if len(exact) != len(isotime.Layout) {
			return append(dst, exact...)
		}
		dst = append(append(dst, exact[:10]...), ' ')
		if k == Second {
			return append(dst, exact[11:19]...)
		}
		return append(append(dst, exact[11:16]...), " UTC"...)
	case Seconds:
		if n, err := strconv.ParseInt(string(exact), 10, 64); err == nil {
			return append(dst, isotime.Span(n)...)
		}
	}
	return append(dst, exact...)
}

// Columns is the description of a row type: its columns, in the order
// every place writes them.
type Columns[R any] []Column[R]

// In is the columns written in place p, in order.
func (cs Columns[R]) In(p Place) Columns[R] {
	var out Columns[R]
	for _, c := range cs {
		if c.In(p) {
			out = append(out, c)
		}
	}
	return out
}

// Headers are the headers of the columns in place p.
func (cs Columns[R]) Headers(p Place, unit string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Header(p, unit)
	}
	return out
}

// Lift is the columns of S as columns of R, a row that holds an S (get
// gives it): a screen's row that carries more than the row described.
func Lift[R, S any](cs Columns[S], get func(*R) *S) Columns[R] {
	out := make(Columns[R], len(cs))
	for i, c := range cs {
		out[i] = Column[R]{Title: c.Title, Field: c.Field, Kind: c.Kind, Out: c.Out, Width: c.Width,
			Value: func(r *R, dst []byte) []byte { return c.Value(get(r), dst) }}
		if c.Note != nil {
			out[i].Note = func(r *R) string { return c.Note(get(r)) }
		}
		if c.Tone != nil {
			out[i].Tone = func(r *R) Tone { return c.Tone(get(r)) }
		}
		if c.Compare != nil {
			out[i].Compare = func(a, b *R) int { return c.Compare(get(a), get(b)) }
		}
		if c.SortKey != nil {
			out[i].SortKey = func(r *R) ([3]uint64, bool) { return c.SortKey(get(r)) }
		}
	}
	return out
}
