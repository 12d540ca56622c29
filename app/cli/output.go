package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf16"
	"unicode/utf8"

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

// writeJSON prints v as indented JSON. encoding/json escapes C0 controls
// but writes C1 controls (U+0080 to U+009F), bidirectional overrides and
// other unprintable characters as they are; those are escaped here too, so
// that the value is exact and the text holds nothing a terminal acts on.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if _, err := w.Write(escapeUnprintable(buf.Bytes())); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// escapeUnprintable writes as \uXXXX every non-ASCII character of JSON
// text that sanitize.Line would change, and invalid UTF-8 as \ufffd.
// Outside strings JSON text is ASCII, so only string contents change, and
// they decode to the same value.
func escapeUnprintable(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			if out != nil {
				out = append(out, data[i])
			}
			i++
			continue
		}
		// A json.RawMessage is copied as it came: it may hold invalid
		// UTF-8, which is written as U+FFFD.
		r, size := utf8.DecodeRune(data[i:])
		if s := string(r); sanitize.Line(s) == s && size > 1 {
			if out != nil {
				out = append(out, data[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(data)+16), data[:i]...)
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = fmt.Appendf(out, "\\u%04x\\u%04x", r1, r2)
		} else {
			out = fmt.Appendf(out, "\\u%04x", r)
		}
		i += size
	}
	if out == nil {
		return data
	}
	return out
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
