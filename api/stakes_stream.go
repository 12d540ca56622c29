package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"allot/internal/sanitize"

	"github.com/shopspring/decimal"
)

// The stakes of a pool come in one response (D4): a million stakes are
// 183 MB. StreamStakes decodes them as they arrive, into StakeRows, within
// these bounds.
const (
	// MaxStakeRows bounds the stakes of one listing: five times the
	// largest pool allot is tried with, about 500 MB of rows.
	MaxStakeRows = 5_000_000
	// MaxStakesBody bounds the bytes of one listing: five million stakes
	// take about 900 MB.
	MaxStakesBody = 1 << 30
	// StakeBatch is how many rows StreamStakes passes to its callback at a
	// time (fewer in the last batch).
	StakeBatch = 4096
)

// MaxStakesWait bounds the time a listing's body takes to come, the
// caller's time with each batch not counted: a million stakes over a
// 1 MB/s link take three minutes, while a service that sends a byte just
// before each timeout would otherwise hold the listing for days.
const MaxStakesWait = 10 * time.Minute

const opStakes = "staking/stakes"

// PartialError is a listing that stopped after some of its stakes were
// delivered: the body was cut, turned malformed or past a bound, the
// connection failed, or the context ended. The rows delivered are the
// stakes as the service sent them, in order; the rest is missing.
type PartialError struct {
	Op        string
	Delivered int // rows passed to the callback before the failure
	Err       error
}

func (e *PartialError) Error() string {
	// The cause names the operation too: once is enough.
	cause := strings.TrimPrefix(e.Err.Error(), e.Op+": ")
	return fmt.Sprintf("%s: only the first %d stakes arrived: %s", e.Op, e.Delivered, cause)
}

func (e *PartialError) Unwrap() error { return e.Err }

// errIdle is the cause of a stream's cancellation when the service sends
// nothing for the client's timeout.
var errIdle = errors.New("idle")

// StakesSink receives a listing as StreamStakesTo decodes it.
type StakesSink struct {
	// Total, when set, is called with the total the listing announces as
	// soon as the body holds it: before the first row when the service
	// writes it first, after the last row when it writes it last. It is
	// a whole number from 0 to the bound on rows, and it is the service's
	// word only: the rows may turn out fewer (then the listing ends in a
	// *PartialError) or more (a total below the rows is returned as it
	// is, for the caller to show both).
	Total func(total int)
	// Rows is called with the rows decoded so far, a batch of at most
	// StakeBatch, in the order of the body. The batch's backing array is
	// reused for the next one: Rows copies what it keeps. An error from
	// Rows stops the listing and is returned as it is.
	Rows func(batch []StakeRow) error
}

// StreamStakes lists the stakes of a pool (operation 4), decoding the
// response as it arrives: each is called with the rows as StakesSink.Rows
// is. It is StreamStakesTo without the total's early word.
func (c *Client) StreamStakes(ctx context.Context, req StakesRequest, each func(batch []StakeRow) error) (total int, err error) {
	return c.StreamStakesTo(ctx, req, StakesSink{Rows: each})
}

// StreamStakesTo lists the stakes of a pool (operation 4), decoding the
// response as it arrives into sink.
//
// It returns the total the service announced (the rows delivered when it
// announced none). A failure before any row is delivered is an error as
// from the other calls (a read is tried again on transient failures); a
// failure after some is a *PartialError, whose rows the caller keeps and
// says are partial. A row the client cannot read (an id that is not a
// UUID, an amount of more than MaxAmountDigits digits, a time that is not
// ISO 8601) makes the body malformed: it stops there. A total that is no
// whole number, or more than the rows the listing holds, makes it
// malformed at its end. Bounds: MaxStakeRows rows, MaxStakesBody bytes
// and MaxStakesWait of reading (a *LimitError past them); the client's
// timeout is the longest wait for the answer and then between two reads
// of the body.
func (c *Client) StreamStakesTo(ctx context.Context, req StakesRequest, sink StakesSink) (total int, err error) {
	if err := req.Validate(); err != nil {
		return 0, err
	}
	payload, err := json.Marshal(req)
	if err != nil {
		return 0, fmt.Errorf("%s: encode request: %w", opStakes, err)
	}
	k := call{op: opStakes, method: http.MethodPost, url: c.adminURL("staking", "stakes"), read: true, auth: CredentialAPIKey}
	err = c.retrying(ctx, k, maxTries, func(try int) (retry bool, err error) {
		total, retry, err = c.streamOnce(ctx, k, payload, try, sink)
		return retry, err
	})
	if err != nil {
		return 0, err
	}
	return total, nil
}

// streamOnce is one try of StreamStakesTo; retry says the failure is
// transient and nothing was delivered.
func (c *Client) streamOnce(ctx context.Context, k call, payload []byte, try int, sink StakesSink) (total int, retry bool, err error) {
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := time.AfterFunc(c.cfg.Timeout, func() { cancel(errIdle) })
	defer idle.Stop()
	// stopped turns a failure caused by the context into what ended it.
	stopped := func(err error) (error, bool) {
		if parent.Err() != nil {
			return fmt.Errorf("%s: %w", k.op, parent.Err()), true
		}
		if errors.Is(context.Cause(ctx), errIdle) {
			return fmt.Errorf("the service sent nothing for %s", c.cfg.Timeout), false
		}
		return err, false
	}

	resp, x, err := c.send(ctx, k, payload, try)
	if x != nil {
		defer c.report(x)
	}
	if err != nil {
		if refusedResponse(err) {
			return 0, false, err
		}
		err, final := stopped(err)
		return 0, !final, err
	}
	defer resp.Body.Close()

	if resp.StatusCode != http.StatusOK {
		body, rerr := readBody(resp, smallAnswer)
		x.ResponseSize, x.ResponseBody = len(body), redactBody(body)
		x.Err = http.StatusText(resp.StatusCode)
		if errors.Is(rerr, errTooLarge) {
			return 0, false, unexpected(k.op, resp.StatusCode, resp.Header.Get("Content-Type"), fmt.Sprintf("an error body larger than %d MiB", smallAnswer>>20), nil)
		}
		if rerr != nil {
			err, final := stopped(fmt.Errorf("read response: %w", rerr))
			return 0, !final, err
		}
		s := resp.StatusCode
		return 0, transient(s), decodeError(k, s, "", body)
	}
	if resp.ContentLength > c.maxStakesBody {
		x.Err = "response too large"
		return 0, false, &LimitError{Op: k.op, Reason: fmt.Sprintf("the service announced a listing of %d MiB, more than %d MiB", resp.ContentLength>>20, c.maxStakesBody>>20)}
	}

	body := &streamBody{r: resp.Body, limit: c.maxStakesBody, maxWait: c.maxStakesWait, idle: idle, timeout: c.cfg.Timeout}
	// The service is not waited for while the caller handles a batch
	// (a pipe to a pager may block it for minutes).
	paused := func(batch []StakeRow) error {
		idle.Stop()
		defer idle.Reset(c.cfg.Timeout)
		return sink.Rows(batch)
	}
	d := newStakesDecoder(k, body, paused, c.maxStakeRows, c.maxStakesBody, c.maxStakesWait)
	if sink.Total != nil {
		d.announce = func(total int) {
			idle.Stop()
			defer idle.Reset(c.cfg.Timeout)
			sink.Total(total)
		}
	}
	total, err = d.decode()
	x.ResponseSize, x.ResponseBody = int(body.n), redactBody(body.head)
	if err == nil {
		return total, false, nil
	}
	x.Err = err.Error()
	var callers *callbackError
	if errors.As(err, &callers) {
		return 0, false, callers.err
	}
	var read *readError
	if errors.As(err, &read) {
		err, final := stopped(read)
		if d.delivered == 0 {
			return 0, !final, err
		}
		return 0, false, &PartialError{Op: k.op, Delivered: d.delivered, Err: err}
	}
	if d.delivered > 0 {
		return 0, false, &PartialError{Op: k.op, Delivered: d.delivered, Err: err}
	}
	// A body that is no listing at all (a proxy's page) is shown by its
	// start, as other answers are.
	var u *UnexpectedResponseError
	if errors.As(err, &u) && u.Excerpt == "" {
		shown := unexpected(k.op, resp.StatusCode, resp.Header.Get("Content-Type"), "", body.head)
		u.ContentType, u.Excerpt = shown.ContentType, shown.Excerpt
	}
	return 0, false, err
}

// streamBody is a response body read through: it counts the bytes, keeps
// the first ones for the request log, refuses more than limit bytes or
// maxWait spent reading, and resets the idle timer on every read that
// brings something.
type streamBody struct {
	r       io.Reader
	n       int64
	limit   int64
	waited  time.Duration
	maxWait time.Duration
	head    []byte
	idle    *time.Timer
	timeout time.Duration
}

var (
	errStakesTooLarge = errors.New("stakes body too large")
	errStakesTooSlow  = errors.New("stakes body too slow")
)

func (b *streamBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.limit-b.n+1 {
		p = p[:b.limit-b.n+1]
	}
	start := time.Now()
	n, err := b.r.Read(p)
	if b.waited += time.Since(start); b.waited > b.maxWait {
		return n, errStakesTooSlow
	}
	if n > 0 {
		b.idle.Reset(b.timeout)
		if room := MaxExchangeBody + 1 - len(b.head); room > 0 {
			b.head = append(b.head, p[:min(n, room)]...)
		}
		b.n += int64(n)
		if b.n > b.limit {
			return n, errStakesTooLarge
		}
	}
	return n, err
}

// readError is a failure to read the body (not a malformed one).
type readError struct{ err error }

func (e *readError) Error() string { return "read response: " + e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// callbackError carries the callback's own error out of the decoder.
type callbackError struct{ err error }

func (e *callbackError) Error() string { return e.err.Error() }

// stakesDecoder reads a stakes listing: the envelope of D2 (or the bare
// result) around {items: [Stake], total}.
type stakesDecoder struct {
	k         call
	s         *scanner
	each      func([]StakeRow) error
	batch     []StakeRow
	delivered int
	maxRows   int
	maxBody   int64
	maxWait   time.Duration
	statuses  statuses

	// total is the last total the listing announced, when haveTotal;
	// badTotal is set when one was no whole number (the rows are read
	// all the same, and the listing fails at its end).
	total     int
	haveTotal bool
	badTotal  bool
	announce  func(total int) // StakesSink.Total, or nil
}

func newStakesDecoder(k call, r io.Reader, each func([]StakeRow) error, maxRows int, maxBody int64, maxWait time.Duration) *stakesDecoder {
	return &stakesDecoder{k: k, s: newScanner(r), each: each, batch: make([]StakeRow, 0, StakeBatch),
		maxRows: maxRows, maxBody: maxBody, maxWait: maxWait, statuses: statuses{}}
}

// malformed is the error of a body allot cannot read as a listing.
func (d *stakesDecoder) malformed(format string, a ...any) error {
	return &UnexpectedResponseError{Op: d.k.op, Status: http.StatusOK, Reason: sanitize.Truncate(fmt.Sprintf(format, a...), 2*excerptLength)}
}

// fail turns a scanner's error into the decoder's; the decoder's own
// errors pass as they are.
func (d *stakesDecoder) fail(err error) error {
	switch {
	case errors.Is(err, errStakesTooLarge):
		return &LimitError{Op: d.k.op, Reason: fmt.Sprintf("the listing is larger than %d MiB", d.maxBody>>20)}
	case errors.Is(err, errStakesTooSlow):
		return &LimitError{Op: d.k.op, Reason: fmt.Sprintf("the service took more than %s to send the listing", d.maxWait)}
	case errors.Is(err, errCut):
		return d.malformed("the body ends after %d bytes, before the listing does", d.s.received())
	}
	var syntax *syntaxError
	if errors.As(err, &syntax) {
		return d.malformed("not JSON at byte %d: %s", syntax.at, syntax.msg)
	}
	return err
}

func (d *stakesDecoder) decode() (int, error) {
	total, err := d.envelope()
	if err != nil {
		return 0, d.fail(err)
	}
	return total, nil
}

// envelope reads the body: {"isProcessed": true, "result": {...}}, or
// the result bare (D2), or an error envelope.
func (d *stakesDecoder) envelope() (int, error) {
	s := d.s
	if err := s.expect('{'); err != nil {
		if errors.Is(err, errCut) && s.offset() == 0 {
			return 0, d.malformed("an empty body")
		}
		return 0, err
	}
	processed := true
	var failure struct {
		seen          bool
		typ, message  string
		details       []FieldError
		sawResultList bool
	}
	haveItems := false
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "isProcessed":
			v, err := s.boolean()
			if err != nil {
				return d.malformed("isProcessed is not true or false")
			}
			processed = v
			return nil
		case "error":
			failure.seen = true
			var err error
			failure.typ, failure.message, failure.details, err = d.errorObject()
			return err
		case "result":
			return d.result(&processed, &haveItems)
		case "items":
			return d.itemsOnce(&processed, &haveItems)
		case "total":
			return d.readTotal()
		}
		return s.skip()
	})
	if err != nil {
		return 0, err
	}
	if err := s.end(); err != nil {
		return 0, err
	}
	if !processed {
		return 0, statusError(d.k, http.StatusOK, failure.typ, failure.message, failure.details, nil)
	}
	switch {
	case d.badTotal:
		return 0, d.malformed("total is not a whole number")
	case !d.haveTotal:
		return d.delivered, nil
	case d.total > d.delivered:
		return 0, d.malformed("the listing counts %d stakes but holds %d", d.total, d.delivered)
	}
	return d.total, nil
}

// open reads the byte that opens an object or a list; opened is false
// (and err nil) when a null stands in its place, read too. Another value
// makes the listing malformed, as notA says.
func (d *stakesDecoder) open(c byte, notA string) (opened bool, err error) {
	got, err := d.s.peek()
	if err != nil {
		return false, err
	}
	if got == 'n' {
		return false, d.s.null()
	}
	if got != c {
		return false, d.malformed("%s", notA)
	}
	d.s.pos++
	return true, nil
}

func (d *stakesDecoder) result(processed *bool, haveItems *bool) error {
	s := d.s
	if opened, err := d.open('{', "result is not an object"); !opened {
		return err
	}
	return s.object(func(key []byte) error {
		switch string(key) {
		case "items":
			return d.itemsOnce(processed, haveItems)
		case "total":
			return d.readTotal()
		}
		return s.skip()
	})
}

// readTotal reads a total and announces it. A total that is no whole
// number does not stop the rows, which are worth
// more than the count: it fails the listing at its end. A null total is
// none.
func (d *stakesDecoder) readTotal() error {
	c, err := d.s.peek()
	if err != nil {
		return err
	}
	switch {
	case c == 'n':
		return d.s.null()
	case c != '-' && (c < '0' || c > '9'):
		d.badTotal = true
		return d.s.skip() // a string, an object: read past it as a value
	}
	b, err := d.s.number()
	if err != nil {
		return err
	}
	if len(b) > 15 || !allDigits(string(b)) {
		d.badTotal = true
		return nil
	}
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	d.total, d.haveTotal = n, true
	// A total past the bound on rows is no progress to show: the listing
	// cannot hold it, and ends short of it.
	if d.announce != nil && n <= d.maxRows {
		d.announce(n)
	}
	return nil
}

// itemsOnce reads the items, unless the service said it did not process
// the request (then they are skipped: an error follows).
func (d *stakesDecoder) itemsOnce(processed *bool, have *bool) error {
	if *have {
		return d.malformed("the listing has two lists of items")
	}
	*have = true
	if !*processed {
		return d.s.skip()
	}
	return d.items()
}

func (d *stakesDecoder) items() error {
	s := d.s
	if opened, err := d.open('[', "items is not a list"); !opened {
		return err
	}
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == ']' {
		s.pos++
		return nil
	}
	for {
		if d.delivered+len(d.batch) == d.maxRows {
			if err := d.flush(); err != nil {
				return err
			}
			return &LimitError{Op: d.k.op, Reason: fmt.Sprintf("the pool has more than %d stakes", d.maxRows)}
		}
		d.batch = d.batch[:len(d.batch)+1]
		if err := d.row(&d.batch[len(d.batch)-1]); err != nil {
			d.batch = d.batch[:len(d.batch)-1]
			if ferr := d.flush(); ferr != nil {
				return ferr
			}
			return err
		}
		if len(d.batch) == StakeBatch {
			if err := d.flush(); err != nil {
				return err
			}
		}
		c, err := s.peek()
		if err != nil {
			if ferr := d.flush(); ferr != nil {
				return ferr
			}
			return err
		}
		s.pos++
		switch c {
		case ',':
			continue
		case ']':
			return d.flush()
		}
		if ferr := d.flush(); ferr != nil {
			return ferr
		}
		return &syntaxError{at: s.offset() - 1, msg: fmt.Sprintf("%q after a stake", c)}
	}
}

// flush passes the batch to the callback.
func (d *stakesDecoder) flush() error {
	if len(d.batch) == 0 {
		return nil
	}
	n := len(d.batch)
	err := d.each(d.batch)
	d.delivered += n
	d.batch = d.batch[:0]
	if err != nil {
		return &callbackError{err}
	}
	return nil
}

// Row fields, as bits of what a row has.
const (
	fieldID = 1 << iota
	fieldAmount
	fieldStatus
	fieldCreatedAt
	fieldWallet
	fieldsRequired = fieldID | fieldAmount | fieldStatus | fieldWallet
)

// stakeFields names a row's fields by their bits.
var stakeFields = []struct {
	bit  int
	name string
}{{fieldID, "id"}, {fieldAmount, "amount"}, {fieldStatus, "status"}, {fieldCreatedAt, "createdAt"}, {fieldWallet, "walletAddress"}}

func fieldName(bit int) string {
	for _, f := range stakeFields {
		if f.bit == bit {
			return f.name
		}
	}
	return ""
}

// row reads one stake into r. It is the hot loop of a listing: no
// closure, no allocation for an ordinary stake.
func (d *stakesDecoder) row(r *StakeRow) error {
	if d.s.fastRow(r) {
		return nil
	}
	s := d.s
	*r = StakeRow{}
	index := d.delivered + len(d.batch)
	if err := s.expect('{'); err != nil {
		return err
	}
	have := 0
	var oddAmount *decimal.Decimal
	var oddStatus *stakeOdd
	for first := true; ; first = false {
		key, more, err := s.nextKey(first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		var field int
		switch string(key) {
		case "id":
			field = fieldID
		case "amount":
			field = fieldAmount
		case "status":
			field = fieldStatus
		case "createdAt":
			field = fieldCreatedAt
		case "walletAddress":
			field = fieldWallet
		default:
			if err := s.skip(); err != nil {
				return err
			}
			continue
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		var v []byte
		switch {
		case c == '"':
			v, err = s.str()
		case field == fieldCreatedAt && c == 'n':
			r.flags &^= rowHasTime
			have |= field
			if err := s.null(); err != nil {
				return err
			}
			continue
		case field == fieldAmount && (c == '-' || (c >= '0' && c <= '9')):
			v, err = s.number()
		default:
			return d.malformed("stake %d: %s is not a string", index, fieldName(field))
		}
		if err != nil {
			return err
		}
		switch field {
		case fieldID:
			err = r.setID(v)
		case fieldAmount:
			oddAmount, err = r.setAmount(v, c != '"')
		case fieldStatus:
			oddStatus, err = d.statuses.set(r, v)
		case fieldCreatedAt:
			err = r.setTime(v)
		case fieldWallet:
			err = r.setWallet(v)
		}
		if err != nil {
			var limit *LimitError
			if errors.As(err, &limit) {
				return err
			}
			return d.malformed("stake %d: %s %s %v", index, fieldName(field), excerpt(string(v)), err)
		}
		have |= field
	}
	if missing := fieldsRequired &^ have; missing != 0 {
		for _, f := range stakeFields {
			if missing&f.bit != 0 {
				return d.malformed("stake %d has no %s", index, f.name)
			}
		}
	}
	r.odd = oddOf(oddAmount, oddStatus)
	return nil
}

// errorObject reads D2's error: {type, message, details: [{path, message}]},
// keeping at most maxRemoteFields details.
func (d *stakesDecoder) errorObject() (typ, message string, details []FieldError, err error) {
	s := d.s
	text := func() (string, error) {
		c, err := s.peek()
		if err != nil {
			return "", err
		}
		if c != '"' {
			return "", s.skip()
		}
		v, err := s.str()
		return string(v), err
	}
	c, err := s.peek()
	if err != nil || c != '{' {
		if err == nil {
			err = s.skip()
		}
		return "", "", nil, err
	}
	s.pos++
	err = s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			typ, err = text()
		case "message":
			message, err = text()
		case "details":
			if c, err := s.peek(); err != nil || c != '[' {
				if err != nil {
					return err
				}
				return s.skip()
			}
			s.pos++
			return s.array(func() error {
				if c, err := s.peek(); err != nil || c != '{' || len(details) == maxRemoteFields {
					if err != nil {
						return err
					}
					return s.skip()
				}
				s.pos++
				var f FieldError
				err := s.object(func(key []byte) error {
					var err error
					switch string(key) {
					case "path":
						f.Path, err = text()
					case "message":
						f.Message, err = text()
					default:
						err = s.skip()
					}
					return err
				})
				details = append(details, f)
				return err
			})
		default:
			err = s.skip()
		}
		return err
	})
	return typ, message, details, err
}

// fastRowBytes is how much of the buffer fastRow wants ahead: more than
// an ordinary stake takes.
const fastRowBytes = 512

// fastRow reads an ordinary stake written as the sandbox writes it: its
// five keys in order, no white space, no escapes, a listed status, an
// amount of at most 18 decimals, a time in D15's layout. Anything else,
// and a stake near the buffer's end, is left to the general reading: it
// reports false, having consumed nothing.
func (s *scanner) fastRow(r *StakeRow) bool {
	b := s.buf[s.pos:]
	if len(b) < fastRowBytes {
		return false
	}
	*r = StakeRow{}
	i, ok := 0, true
	var v []byte
	if i, ok = fastKey(b, i, `{"id":"`); !ok {
		return false
	}
	if v, i, ok = fastString(b, i); !ok || r.setID(v) != nil {
		return false
	}
	if i, ok = fastKey(b, i, `,"amount":"`); !ok {
		return false
	}
	if v, i, ok = fastString(b, i); !ok || !parseBaseUnits(v, &r.amount) {
		return false
	}
	if i, ok = fastKey(b, i, `,"status":"`); !ok {
		return false
	}
	if v, i, ok = fastString(b, i); !ok {
		return false
	}
	if r.Status, ok = knownStatus(v); !ok {
		return false
	}
	if i, ok = fastKey(b, i, `,"createdAt":"`); !ok {
		return false
	}
	if v, i, ok = fastString(b, i); !ok {
		return false
	}
	if r.CreatedAt, ok = parseTimeMilli(v); !ok {
		return false
	}
	r.flags |= rowHasTime
	if i, ok = fastKey(b, i, `,"walletAddress":"`); !ok {
		return false
	}
	if v, i, ok = fastString(b, i); !ok || r.setWallet(v) != nil {
		return false
	}
	if i, ok = fastKey(b, i, `}`); !ok {
		return false
	}
	s.pos += i
	return true
}

// fastKey matches lit at b[i:].
func fastKey(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// fastString reads a string's contents up to its closing quote, the
// opening one read; false if it holds an escape (or no quote is near).
// The callers check every byte of what it returns.
func fastString(b []byte, i int) ([]byte, int, bool) {
	j := bytes.IndexByte(b[i:min(len(b), i+128)], '"')
	if j < 0 {
		return nil, i, false
	}
	v := b[i : i+j]
	if bytes.IndexByte(v, '\\') >= 0 {
		return nil, i, false
	}
	return v, i + j + 1, true
}
