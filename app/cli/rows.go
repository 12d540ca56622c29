package cli

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"allot/core/rows"
	"allot/internal/sanitize"
)

// The lists (contracts, pools, stakes, transactions) are written as their
// descriptions in core/rows say, the dashboard's columns and details
// too: a table, or CSV. Both write a row at a time into a buffer, so that a
// pool of a million stakes goes out without a string a cell.

// eachRow calls its argument with every row, in order, until it fails; a
// table calls it twice (to measure, then to write).
type eachRow[R any] func(func(*R) error) error

// rowsOf is every item of a slice, for eachRow.
func rowsOf[R any](items []R) eachRow[R] {
	return func(f func(*R) error) error {
		for i := range items {
			if err := f(&items[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// writeRowsTable writes the table columns of cs as newTable does: a
// header in capitals naming the token (unit), then a line a row, columns
// two spaces apart, each as wide as its widest cell, numbers with their
// points lined up; every cell sanitized. The rows are read twice, and
// written as they are read the second time.
func writeRowsTable[R any](w io.Writer, cs rows.Columns[R], unit string, each eachRow[R]) error {
	cs = cs.In(rows.Table)
	headers := cs.Headers(rows.Table, unit)
	widths := make([]int, len(cs))
	numbers := make([]decimalWidths, len(cs))
	for i, h := range headers {
		widths[i] = utf8.RuneCountInString(h)
	}
	var cell, scratch, safe []byte
	err := each(func(r *R) error {
		for i := range cs {
			c := &cs[i]
			cell, scratch = c.AppendCell(cell[:0], scratch, r)
			safe = appendSafe(safe[:0], cell)
			if c.Kind.Number() {
				numbers[i].add(safe)
			} else {
				widths[i] = max(widths[i], utf8.RuneCount(safe))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range cs {
		if cs[i].Kind.Number() {
			headers[i] = numbers[i].header(headers[i])
			widths[i] = numbers[i].width()
		}
	}
	buf := make([]byte, 0, flushAt+1024)
	line := func(cell func(i int, buf []byte) []byte) {
		for i := range cs {
			from := len(buf)
			buf = cell(i, buf)
			if i < len(cs)-1 {
				for n := utf8.RuneCount(buf[from:]); n < widths[i]+2; n++ {
					buf = append(buf, ' ')
				}
			}
		}
		buf = append(buf, '\n')
	}
	line(func(i int, buf []byte) []byte { return append(buf, headers[i]...) })
	err = each(func(r *R) error {
		line(func(i int, buf []byte) []byte {
			cell, scratch = cs[i].AppendCell(cell[:0], scratch, r)
			safe = appendSafe(safe[:0], cell)
			if cs[i].Kind.Number() {
				return numbers[i].appendCell(buf, safe)
			}
			return append(buf, safe...)
		})
		if len(buf) < flushAt {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// appendSafe appends cell as a table cell: sanitize.Line's text, its tabs
// spaces. Printable ASCII, most cells, is appended as it is.
func appendSafe(dst, cell []byte) []byte {
	for _, c := range cell {
		if c < 0x20 || c > 0x7e {
			return append(dst, strings.ReplaceAll(sanitize.Line(string(cell)), "\t", " ")...)
		}
	}
	return append(dst, cell...)
}

// writeRowsCSV writes the CSV columns of cs as csvTable does: a header row
// of their fields, then a row a row, written in batches as the rows come.
// Text is a csvText cell; amounts, counts and times were validated when
// decoded and are written as they are, exact. Nothing is written before
// the first batch is full or the rows end, so that a failed request
// leaves stdout empty; after a failure the rows that came are written.
func writeRowsCSV[R any](w io.Writer, cs rows.Columns[R], each eachRow[R]) error {
	cs = cs.In(rows.CSV)
	buf := make([]byte, 0, flushAt+1024)
	for i, h := range cs.Headers(rows.CSV, "") {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendCSVText(buf, []byte(h))
	}
	buf = append(buf, '\n')
	n := 0
	var exact []byte
	err := each(func(r *R) error {
		n++
		for i := range cs {
			if i > 0 {
				buf = append(buf, ',')
			}
			if cs[i].Kind != rows.Text {
				buf = cs[i].Value(r, buf)
				continue
			}
			exact = cs[i].Value(r, exact[:0])
			buf = appendCSVText(buf, exact)
		}
		buf = append(buf, '\n')
		if len(buf) < flushAt {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		if err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
		return nil
	})
	if err != nil && n == 0 {
		return err
	}
	if _, werr := w.Write(buf); werr != nil && err == nil {
		err = fmt.Errorf("write csv: %w", werr)
	}
	return err
}

// appendCSVText appends text as encoding/csv writes csvText's cell.
// Printable ASCII that needs no quotes and starts no formula, most cells,
// is appended as it is.
func appendCSVText(dst, text []byte) []byte {
	plain := len(text) == 0 || !bytes.ContainsAny(text[:1], "=+-@ \t")
	for _, c := range text {
		if c < 0x20 || c > 0x7e || c == ',' || c == '"' {
			plain = false
			break
		}
	}
	if plain && string(text) != `\.` {
		return append(dst, text...)
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{csvText(string(text))}) // a bytes.Buffer never fails
	cw.Flush()
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
