package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf16"
	"unicode/utf8"

	"allot/internal/sanitize"
)

// format is the -o flag: a readable table, the operation's result as JSON,
// or, for the lists accounting takes (contracts, pools, stakes), CSV; for
// a wallet's history, the CSV two tax tools import.
type format string

const (
	formatTable       format = "table"
	formatJSON        format = "json"
	formatCSV         format = "csv"
	formatKoinly      format = "koinly"
	formatCoinTracker format = "cointracker"
)

// formatFlag is the -o flag's value; csv and the tax tools' formats are
// accepted only where the command writes them.
type formatFlag struct {
	f       *format
	withCSV bool
	withTax bool
}

func (v formatFlag) String() string {
	if v.f == nil {
		return ""
	}
	return string(*v.f)
}

func (v formatFlag) Set(s string) error {
	switch f := format(s); {
	case f == formatTable, f == formatJSON, f == formatCSV && v.withCSV,
		(f == formatKoinly || f == formatCoinTracker) && v.withTax:
		*v.f = f
		return nil
	case v.withTax:
		return errors.New("want table, json, csv, koinly or cointracker")
	case v.withCSV:
		return errors.New("want table, json or csv")
	}
	return errors.New("want table or json")
}

// choices are the formats Set takes, for completion.
func (v formatFlag) choices() []string {
	choices := []string{string(formatTable), string(formatJSON)}
	if v.withCSV {
		choices = append(choices, string(formatCSV))
	}
	if v.withTax {
		choices = append(choices, string(formatKoinly), string(formatCoinTracker))
	}
	return choices
}

func outputFlag(fs *flag.FlagSet) *format {
	f := new(format)
	declareOutput(fs, f)
	return f
}

// declareOutput declares -o, table or json, parsed into f.
func declareOutput(fs *flag.FlagSet, f *format) {
	*f = formatTable
	fs.Var(formatFlag{f: f}, "o", "output `FORMAT`: table or json (the operation's result, nothing else on stdout)")
}

// listOutputFlag is -o for the lists: table, json or csv.
func listOutputFlag(fs *flag.FlagSet) *format {
	f := new(format)
	declareListOutput(fs, f)
	return f
}

// declareListOutput is declareOutput for the lists: table, json or csv.
func declareListOutput(fs *flag.FlagSet, f *format) {
	*f = formatTable
	fs.Var(formatFlag{f: f, withCSV: true}, "o", "output `FORMAT`: table, json or csv (the operation's result, nothing else on stdout; csv: a header row, then one row an item, amounts exact)")
}

// writeJSON prints v as indented JSON. encoding/json escapes C0 controls
// but writes C1 controls (U+0080 to U+009F), bidirectional overrides and
// other unprintable characters as they are; those are escaped here too, so
// that the value is exact and the text holds nothing a terminal acts on.
// & < > stay as they are ("Team & Advisors Vesting", not "Team \u0026
// Advisors Vesting"): the text goes to a terminal or a program, never
// into HTML.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
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

// table prints aligned columns, those of numbers with their decimal
// points lined up. Every cell is sanitized: most come from the network.
type table struct {
	tw       *tabwriter.Writer
	rows     [][]string // the header, then the rows, until flush
	decimals []int      // the columns of numbers
}

func newTable(w io.Writer, headers ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(headers...)
	return t
}

// alignDecimals lines up the numbers of the columns cols (0 is the first)
// at their decimal points, flush right under their headers.
func (t *table) alignDecimals(cols ...int) { t.decimals = cols }

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(sanitize.Line(c), "\t", " ")
	}
	t.rows = append(t.rows, cells)
}

func (t *table) flush() error {
	for _, col := range t.decimals {
		var dw decimalWidths
		for _, r := range t.rows[1:] {
			if col < len(r) {
				dw.add([]byte(r[col]))
			}
		}
		if col < len(t.rows[0]) {
			t.rows[0][col] = dw.header(t.rows[0][col])
		}
		for _, r := range t.rows[1:] {
			if col < len(r) {
				r[col] = string(dw.appendCell(nil, []byte(r[col])))
			}
		}
	}
	for _, r := range t.rows {
		fmt.Fprintln(t.tw, strings.Join(r, "\t"))
	}
	t.rows = nil
	return t.tw.Flush()
}

// decimalWidths lays out a column of numbers: the widest part before the
// point (sign and digits), the widest from the point on, and so where
// every point goes. A cell that is no number ("-") ends where the points
// are.
type decimalWidths struct{ whole, frac, head int }

func splitDecimal(s []byte) (whole, frac []byte) {
	if i := bytes.IndexByte(s, '.'); i >= 0 {
		return s[:i], s[i:]
	}
	return s, nil
}

func (d *decimalWidths) add(cell []byte) {
	whole, frac := splitDecimal(cell)
	d.whole = max(d.whole, utf8.RuneCount(whole))
	d.frac = max(d.frac, utf8.RuneCount(frac))
}

// header is the column's header flush right over the numbers, whose
// width it then fixes.
func (d *decimalWidths) header(h string) string {
	d.head = utf8.RuneCountInString(h)
	return strings.Repeat(" ", d.width()-d.head) + h
}

// width is the column's: the numbers' or, when wider, the header's.
func (d *decimalWidths) width() int { return max(d.whole+d.frac, d.head) }

// appendCell appends cell padded to the column's width, its point where
// every point is.
func (d *decimalWidths) appendCell(buf, cell []byte) []byte {
	whole, frac := splitDecimal(cell)
	n := utf8.RuneCount(frac)
	for range d.width() - d.frac - utf8.RuneCount(whole) {
		buf = append(buf, ' ')
	}
	buf = append(append(buf, whole...), frac...)
	for range d.frac - n {
		buf = append(buf, ' ')
	}
	return buf
}

// csvTable writes RFC 4180 CSV for spreadsheets: a header row, then rows
// of cells. Text cells come from the network: they are sanitized, and one
// that starts with = + - or @ gets a leading ' so that a spreadsheet shows
// it rather than runs it as a formula (OWASP's advice on CSV injection).
// Amounts, integers and times are written as they are: they were
// validated when decoded and hold only digits, a sign, '.', ':' and the
// like, so a negative amount stays a number, exact.
type csvTable struct {
	w *csv.Writer
}

func newCSV(w io.Writer, headers ...string) *csvTable {
	t := &csvTable{w: csv.NewWriter(w)}
	t.w.Write(headers)
	return t
}

func (t *csvTable) row(cells ...string) { t.w.Write(cells) }

func (t *csvTable) flush() error {
	t.w.Flush()
	if err := t.w.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// csvText is a text cell: sanitized, and never read as a formula.
func csvText(s string) string {
	s = sanitize.Line(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// fields prints label: value lines, aligned, sanitized.
func fields(w io.Writer, pairs ...string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(tw, "%s:\t%s\n", pairs[i], sanitize.Line(pairs[i+1]))
	}
	return tw.Flush()
}

// jsonList writes {"NAME": [ ... ]} an item at a time, byte for byte as
// writeJSON writes the whole: a list as long as a journal is never held.
type jsonList struct {
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	items int
}

func newJSONList(w io.Writer, name string) *jsonList {
	l := &jsonList{w: bufio.NewWriter(w)}
	l.enc = json.NewEncoder(&l.buf)
	l.enc.SetEscapeHTML(false)
	l.enc.SetIndent("    ", "  ")
	fmt.Fprintf(l.w, "{\n  %q: [", name)
	return l
}

func (l *jsonList) item(v any) error {
	l.buf.Reset()
	if err := l.enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	sep := ",\n    "
	if l.items == 0 {
		sep = "\n    "
		defer l.w.Flush() // the first item shows at once
	}
	l.items++
	l.w.WriteString(sep)
	if _, err := l.w.Write(escapeUnprintable(bytes.TrimSuffix(l.buf.Bytes(), []byte("\n")))); err != nil {
		return fmt.Errorf("write json: %w", err) // a closed pipe: stop reading
	}
	return nil
}

func (l *jsonList) end() error {
	if l.items > 0 {
		l.w.WriteString("\n  ")
	}
	l.w.WriteString("]\n}\n")
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
