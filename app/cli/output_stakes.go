package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"allot/api"
	"allot/core/rows"
)

// The stakes command writes -o json (and -o csv, writeRowsCSV) as the rows
// arrive from api.StreamStakes: a pool of a million stakes goes out
// without its list in memory. What the JSON writer writes is what
// writeJSON writes for the same stakes, byte for byte.

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

// writeStakesTable writes rows as the table of the other lists
// (writeRowsTable), the amounts' header naming unit, then how many of the
// service's total (-1: the listing stopped before its end).
func writeStakesTable(w io.Writer, chunks stakeChunks, total int, unit string) error {
	if err := writeRowsTable(w, rows.Stakes, unit, chunks.each); err != nil {
		return err
	}
	n := chunks.len()
	var err error
	switch {
	case total < 0:
		_, err = fmt.Fprintf(w, "%d stakes: the listing stopped before its end\n", n)
	case total < n:
		// A service whose total is below its rows: both, never "3 of 2".
		_, err = fmt.Fprintf(w, "%d stakes (the service counts %d)\n", n, total)
	default:
		_, err = fmt.Fprintf(w, "%d of %d stakes\n", n, total)
	}
	return err
}
