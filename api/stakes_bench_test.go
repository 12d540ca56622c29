package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkStakesDecode decodes a listing of 100,000 and of 1,000,000
// stakes (18 and 183 MB) into StakeRows, delivered in batches, with each
// decoder beside the others in the same run:
//
//	go test -run '^$' -bench StakesDecode -benchmem ./api/
//
// Both check each field with the same StakeRow setters; encoding/json's
// reads only the envelope the sandbox writes. (go-json-experiment's
// jsontext and goccy/go-json were measured beside them too: see the
// commit that dropped them.)
func BenchmarkStakesDecode(b *testing.B) {
	decoders := []struct {
		name   string
		decode func(io.Reader, func([]StakeRow) error) (int, error)
	}{
		{"scanner", func(r io.Reader, each func([]StakeRow) error) (int, error) {
			return newStakesDecoder(call{op: opStakes}, r, each, MaxStakeRows, MaxStakesBody, MaxStakesWait).decode()
		}},
		{"encoding-json", decodeWithEncodingJSON},
	}
	for _, n := range []int{100_000, 1_000_000} {
		body := []byte(benchListing(n))
		for _, d := range decoders {
			b.Run(fmt.Sprintf("%dk/%s", n/1000, d.name), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					rows := 0
					total, err := d.decode(bytes.NewReader(body), func(batch []StakeRow) error {
						rows += len(batch)
						return nil
					})
					if err != nil || rows != n || total != n {
						b.Fatalf("%v: %d rows, total %d", err, rows, total)
					}
				}
			})
		}
	}
}

// benchListing is a listing of n stakes as the sandbox writes it, with
// amounts and addresses that vary.
func benchListing(n int) string {
	var sb strings.Builder
	sb.Grow(n * 190)
	sb.WriteString(`{"isProcessed":true,"result":{"items":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":"3f1a2b4c-0000-4000-8000-%012x","amount":"%d.%02d","status":"STAKED","createdAt":"2026-01-02T03:04:05.000Z","walletAddress":"0x52908400098527886E0F7030069857D2E4%06X"}`,
			i, 100+i*7919%100_000, i%100, i)
	}
	fmt.Fprintf(&sb, `],"total":%d}}`, n)
	return sb.String()
}

// benchRows batches rows for the library contenders as the scanner does.
type benchRows struct {
	batch    []StakeRow
	each     func([]StakeRow) error
	statuses statuses
	n        int
}

func newBenchRows(each func([]StakeRow) error) *benchRows {
	return &benchRows{batch: make([]StakeRow, 0, StakeBatch), each: each, statuses: statuses{}}
}

// add checks a stake's fields into the next row.
func (b *benchRows) add(id, amount []byte, number bool, status, createdAt, wallet []byte) error {
	b.batch = b.batch[:len(b.batch)+1]
	r := &b.batch[len(b.batch)-1]
	*r = StakeRow{}
	odd, err := r.setAmount(amount, number)
	if err == nil {
		err = r.setID(id)
	}
	if err == nil {
		err = r.setWallet(wallet)
	}
	if err == nil && createdAt != nil {
		err = r.setTime(createdAt)
	}
	var st *stakeOdd
	if err == nil {
		st, err = b.statuses.set(r, status)
	}
	if err != nil {
		return err
	}
	if odd != nil {
		r.odd = &stakeOdd{amount: odd}
	} else {
		r.odd = st
	}
	if len(b.batch) == StakeBatch {
		return b.flush()
	}
	return nil
}

func (b *benchRows) flush() error {
	if len(b.batch) == 0 {
		return nil
	}
	b.n += len(b.batch)
	err := b.each(b.batch)
	b.batch = b.batch[:0]
	return err
}

// decodeWithEncodingJSON walks the envelope with encoding/json's tokens
// and decodes each stake into a struct.
func decodeWithEncodingJSON(r io.Reader, each func([]StakeRow) error) (int, error) {
	dec := json.NewDecoder(r)
	for _, want := range []any{json.Delim('{'), "isProcessed", true, "result", json.Delim('{'), "items", json.Delim('[')} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return 0, fmt.Errorf("%v where %v belongs (%v)", tok, want, err)
		}
	}
	rows := newBenchRows(each)
	for dec.More() {
		var st struct {
			ID            string          `json:"id"`
			Amount        json.RawMessage `json:"amount"`
			Status        string          `json:"status"`
			CreatedAt     *string         `json:"createdAt"`
			WalletAddress string          `json:"walletAddress"`
		}
		if err := dec.Decode(&st); err != nil {
			return 0, err
		}
		amount, number := []byte(st.Amount), true
		if len(amount) > 0 && amount[0] == '"' {
			amount, number = amount[1:len(amount)-1], false
		}
		var at []byte
		if st.CreatedAt != nil {
			at = []byte(*st.CreatedAt)
		}
		if err := rows.add([]byte(st.ID), amount, number, []byte(st.Status), at, []byte(st.WalletAddress)); err != nil {
			return 0, err
		}
	}
	if err := rows.flush(); err != nil {
		return 0, err
	}
	var total int
	for _, want := range []any{json.Delim(']'), "total"} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return 0, fmt.Errorf("%v where %v belongs (%v)", tok, want, err)
		}
	}
	if err := dec.Decode(&total); err != nil {
		return 0, err
	}
	return total, nil
}
