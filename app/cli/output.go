package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"allot/sanitize"
)

// format is the -o flag: a readable table, or the operation's result as JSON.
type format string

const (
	formatTable format = "table"
	formatJSON  format = "json"
)

func (f *format) String() string { return string(*f) }

func (f *format) Set(v string) error {
	switch format(v) {
	case formatTable, formatJSON:
		*f = format(v)
		return nil
	}
	return fmt.Errorf("-o %q: want table or json", v)
}

func outputFlag(fs *flag.FlagSet) *format {
	f := formatTable
	fs.Var(&f, "o", "output `FORMAT`: table or json (the operation's result, nothing else on stdout)")
	return &f
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// table prints aligned columns. Every cell is sanitized: most come from the
// network.
type table struct {
	tw *tabwriter.Writer
}

func newTable(w io.Writer, headers ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(headers...)
	return t
}

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(sanitize.Line(c), "\t", " ")
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

func (t *table) flush() error { return t.tw.Flush() }

// fields prints label: value lines, aligned, sanitized.
func fields(w io.Writer, pairs ...string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(tw, "%s:\t%s\n", pairs[i], sanitize.Line(pairs[i+1]))
	}
	return tw.Flush()
}
