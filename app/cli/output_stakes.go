package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"allot/api"
	"allot/internal/amount"
	"allot/internal/isotime"
	"allot/internal/sanitize"
)

// The stakes command writes -o json and -o csv as the rows arrive from
// api.StreamStakes: a pool of a million stakes goes out without its list
// in memory. What the writers write is what writeJSON and the CSV of the
// other lists write for the same stakes, byte for byte.

// flushAt is how much output a stakes writer gathers before it writes.
const flushAt = 64 << 10

// stakesJSON writes a listing as writeJSON writes an api.List[api.Stake],
// a batch of rows at a time. Nothing is written before the first row or
// the end, so that a failed request leaves stdout empty.
type stakesJSON struct {
	w   io.Writer
	buf []byte
	n   int
}

func newStakesJSON(w io.Writer) *stakesJSON {
	return &stakesJSON{w: w, buf: make([]byte, 0, flushAt+1024)}
}

// rows writes a batch; it is StreamStakes's callback.
func (s *stakesJSON) rows(batch []api.StakeRow) error {
	for i := range batch {
		r := &batch[i]
		if s.n == 0 {
			s.buf = append(s.buf, "{\n  \"items\": ["...)
		} else {
			s.buf = append(s.buf, ',')
		}
		s.n++
		s.buf = append(s.buf, "\n    {\n      \"id\": \""...)
		s.buf = r.AppendID(s.buf)
		s.buf = append(s.buf, "\",\n      \"amount\": \""...)
		s.buf = r.AppendAmount(s.buf)
		s.buf = append(s.buf, "\",\n      \"status\": "...)
		s.buf = appendStatusJSON(s.buf, r)
		s.buf = append(s.buf, ",\n      \"createdAt\": "...)
		if r.HasTime() {
			s.buf = append(r.AppendCreatedAt(append(s.buf, '"')), '"')
		} else {
			s.buf = append(s.buf, "null"...)
		}
		s.buf = append(s.buf, ",\n      \"walletAddress\": \""...)
		s.buf = r.AppendWallet(s.buf)
		s.buf = append(s.buf, "\"\n    }"...)
		if len(s.buf) >= flushAt {
			if err := s.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// end writes the listing's end and total.
func (s *stakesJSON) end(total int) error {
	if s.n == 0 {
		s.buf = append(s.buf, "{\n  \"items\": []"...)
	} else {
		s.buf = append(s.buf, "\n  ]"...)
	}
	s.buf = append(s.buf, ",\n  \"total\": "...)
	s.buf = strconv.AppendInt(s.buf, int64(total), 10)
	s.buf = append(s.buf, "\n}\n"...)
	return s.flush()
}

// flush writes what was gathered: after a failure, the rows that arrived.
func (s *stakesJSON) flush() error {
	_, err := s.w.Write(s.buf)
	s.buf = s.buf[:0]
	if err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// appendStatusJSON appends the row's status as a JSON string: a status the
// interface does not list is the service's text, escaped as writeJSON
// escapes it.
func appendStatusJSON(buf []byte, r *api.StakeRow) []byte {
	if r.Status != api.StakeOther {
		return append(append(append(buf, '"'), r.StatusText()...), '"')
	}
	return append(buf, escapeUnprintable(appendJSONString(nil, r.StatusText()))...)
}

// appendJSONString appends s quoted as writeJSON's encoder writes it:
// printable ASCII other than " and \ as it is, anything else through
// encoding/json without HTML escaping (controls, U+2028 and invalid UTF-8
// escaped or replaced as it does).
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var quoted bytes.Buffer
			enc := json.NewEncoder(&quoted)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(buf, bytes.TrimSuffix(quoted.Bytes(), []byte("\n"))...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// stakesCSV writes a listing as the CSV of the lists (csvTable): a header
// row, then a row a stake. Ids, amounts, times and addresses hold nothing
// CSV quotes; a status the interface does not list is a text cell.
type stakesCSV struct {
	w   io.Writer
	buf []byte
	n   int // rows written
	// cells holds the CSV cell of each status the interface does not
	// list, made once.
	cells map[string]string
}

func newStakesCSV(w io.Writer) *stakesCSV {
	s := &stakesCSV{w: w, buf: make([]byte, 0, flushAt+1024), cells: map[string]string{}}
	s.buf = append(s.buf, "id,amount,status,createdAt,walletAddress\n"...)
	return s
}

// rows writes a batch; it is StreamStakes's callback.
func (s *stakesCSV) rows(batch []api.StakeRow) error {
	s.n += len(batch)
	for i := range batch {
		r := &batch[i]
		s.buf = r.AppendID(s.buf)
		s.buf = append(s.buf, ',')
		s.buf = r.AppendAmount(s.buf)
		s.buf = append(s.buf, ',')
		s.buf = append(s.buf, s.statusCell(r)...)
		s.buf = append(s.buf, ',')
		s.buf = r.AppendCreatedAt(s.buf)
		s.buf = append(s.buf, ',')
		s.buf = r.AppendWallet(s.buf)
		s.buf = append(s.buf, '\n')
		if len(s.buf) >= flushAt {
			if err := s.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// statusCell is the status's cell: csvText's text, quoted as encoding/csv
// quotes it.
func (s *stakesCSV) statusCell(r *api.StakeRow) string {
	if r.Status != api.StakeOther {
		return r.StatusText()
	}
	text := r.StatusText()
	cell, ok := s.cells[text]
	if !ok {
		var b bytes.Buffer
		cw := csv.NewWriter(&b)
		cw.Write([]string{csvText(text)})
		cw.Flush()
		cell = strings.TrimSuffix(b.String(), "\n")
		s.cells[text] = cell
	}
	return cell
}

// flush writes what was gathered: after a failure, the rows that arrived.
func (s *stakesCSV) flush() error {
	_, err := s.w.Write(s.buf)
	s.buf = s.buf[:0]
	if err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// stakeChunks holds the rows of a listing as the batches came, each
// copied once: a million rows are not copied again and again as one
// slice grows.
type stakeChunks [][]api.StakeRow

// add keeps a batch; it is StreamStakes's callback.
func (c *stakeChunks) add(batch []api.StakeRow) error {
	*c = append(*c, slices.Clone(batch))
	return nil
}

// each calls f with every row, in order.
func (c stakeChunks) each(f func(r *api.StakeRow) error) error {
	for _, chunk := range c {
		for i := range chunk {
			if err := f(&chunk[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c stakeChunks) len() int {
	n := 0
	for _, chunk := range c {
		n += len(chunk)
	}
	return n
}

// writeStakesTable writes rows as the table of the other lists (table):
// columns two spaces apart, each as wide as its widest cell, then how
// many of the service's total (-1: the listing stopped before its end). Only the
// amount and status columns vary in width, so the rows are measured once
// and written without tabwriter, which would hold every cell of a million
// stakes.
func writeStakesTable(w io.Writer, rows stakeChunks, total int) error {
	headers := [...]string{"ID", "WALLET", "AMOUNT", "STATUS", "CREATED"}
	status := func(r *api.StakeRow) string {
		return strings.ReplaceAll(sanitize.Line(r.StatusText()), "\t", " ")
	}
	var raw, scratch []byte
	var amounts decimalWidths // the amounts' points lined up, as table's
	statusWidth := len(headers[3])
	rows.each(func(r *api.StakeRow) error {
		raw = r.AppendAmount(raw[:0])
		scratch = amount.AppendTokens(scratch[:0], raw) // as every table writes tokens
		amounts.add(scratch)
		if r.Status == api.StakeOther {
			statusWidth = max(statusWidth, utf8.RuneCountInString(status(r)))
		} else {
			statusWidth = max(statusWidth, len(r.StatusText()))
		}
		return nil
	})
	amountHeader := amounts.header(headers[2])
	widths := [...]int{36, 42, amounts.width(), statusWidth}
	n := rows.len()
	if n == 0 {
		widths[0], widths[1] = len(headers[0]), len(headers[1])
	}
	buf := make([]byte, 0, flushAt+1024)
	pad := func(cell []byte, from, width int) []byte {
		for n := utf8.RuneCount(cell[from:]); n < width+2; n++ {
			cell = append(cell, ' ')
		}
		return cell
	}
	line := func(id, wallet, amount, st, created string) {
		for i, cell := range [...]string{id, wallet, amount, st} {
			from := len(buf)
			buf = pad(append(buf, cell...), from, widths[i])
		}
		buf = append(append(buf, created...), '\n')
	}
	line(headers[0], headers[1], amountHeader, headers[3], headers[4])
	err := rows.each(func(r *api.StakeRow) error {
		from := len(buf)
		buf = pad(r.AppendID(buf), from, widths[0])
		from = len(buf)
		buf = pad(r.AppendWallet(buf), from, widths[1])
		from = len(buf)
		raw = r.AppendAmount(raw[:0])
		scratch = amount.AppendTokens(scratch[:0], raw) // as every table writes tokens
		buf = pad(amounts.appendCell(buf, scratch), from, widths[2])
		from = len(buf)
		if r.Status == api.StakeOther {
			buf = append(buf, status(r)...)
		} else {
			buf = append(buf, r.StatusText()...)
		}
		buf = pad(buf, from, widths[3])
		buf = append(appendTableTime(buf, r), '\n')
		if len(buf) >= flushAt {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case total < 0:
		buf = fmt.Appendf(buf, "%d stakes: the listing stopped before its end\n", n)
	case total < n:
		// A service whose total is below its rows: both, never "3 of 2".
		buf = fmt.Appendf(buf, "%d stakes (the service counts %d)\n", n, total)
	default:
		buf = fmt.Appendf(buf, "%d of %d stakes\n", n, total)
	}
	_, err = w.Write(buf)
	return err
}

// appendTableTime appends the creation time as api.FormatTime writes it
// ("2006-01-02 15:04 UTC", "-" when none), cut from the form of
// docs/deployment.md D15 without
// formatting a time.Time a row.
func appendTableTime(buf []byte, r *api.StakeRow) []byte {
	var d15 [32]byte
	t := r.AppendCreatedAt(d15[:0])
	if len(t) != len(isotime.Layout) {
		return append(buf, api.FormatTime(api.Time{Time: r.Time()})...)
	}
	return append(append(append(append(buf, t[:10]...), ' '), t[11:16]...), " UTC"...)
}
