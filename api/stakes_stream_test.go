package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// stakeJSON is one stake of a listing, as the sandbox writes it.
func stakeJSON(i int) string {
	return fmt.Sprintf(`{"id":"3f1a2b4c-0000-4000-8000-%012d","amount":"%d.5","status":"STAKED","createdAt":"2026-01-02T03:04:05.006Z","walletAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}`, i, i)
}

// listing is a whole body of n stakes in D2's envelope.
func listing(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = stakeJSON(i)
	}
	return `{"isProcessed":true,"result":{"items":[` + strings.Join(items, ",") + `],"total":` + fmt.Sprint(n) + `}}`
}

// collect streams a pool's stakes from c into rows.
func collect(c *Client) (rows []StakeRow, total int, batches []int, err error) {
	total, err = c.StreamStakes(context.Background(), StakesRequest{StakingPoolID: tokenID}, func(batch []StakeRow) error {
		batches = append(batches, len(batch))
		rows = append(rows, batch...)
		return nil
	})
	return rows, total, batches, err
}

// TestStreamStakesAsEncodingJSON: every field of every row reads back as
// encoding/json reads the same body into a Stake: odd amounts (JSON
// numbers, exponents, negative, past 18 decimals or 2^256), odd statuses,
// a null time, other time zones, upper-case ids and mixed-case addresses,
// escapes, unknown fields and keys in any order.
func TestStreamStakesAsEncodingJSON(t *testing.T) {
	items := []string{
		stakeJSON(1),
		`{"walletAddress":"0xabcdef0000000000000000000000000000000001","createdAt":null,"status":"UNSTAKING","amount":1250,"id":"3F1A2B4C-0000-4000-8000-00000000000A","extra":{"a":[1,2,{"b":null}]}}`,
		`{"id":"3f1a2b4c-0000-4000-8000-00000000000b","amount":"0.000000000000000001","status":"WITHDRAWN","createdAt":"2026-01-02T03:04:05+02:00","walletAddress":"0xABCDEF0000000000000000000000000000000002"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-00000000000c","amount":"-12.5","status":"SL\u00c4SHED","createdAt":"1999-12-31T23:59:59.999999Z","walletAddress":"0xabcdef0000000000000000000000000000000003"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-00000000000d","amount":"1.0000000000000000001","status":"SL\u00c4SHED","createdAt":"2026-01-02T03:04:05Z","walletAddress":"0xabcdef0000000000000000000000000000000004"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-00000000000e","amount":1.5e3,"status":"\u001b[2J","createdAt":"2026-02-28T23:59:59.000Z","walletAddress":"0xabcdef0000000000000000000000000000000005"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-00000000000f","amount":"` + strings.Repeat("9", 80) + `","status":"STAKED","createdAt":"2024-02-29T00:00:00.000Z","walletAddress":"0xabcdef0000000000000000000000000000000006"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-000000000010","amount":"115792089237316195423570985008687907853269984665640564039457.584007913129639935","status":"STAKED","createdAt":"2026-01-02T03:04:05.006Z","walletAddress":"0xabcdef0000000000000000000000000000000007"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-000000000011","amount":"115792089237316195423570985008687907853269984665640564039457.584007913129639936","status":"STAKED","createdAt":"2026-01-02T03:04:05.006Z","walletAddress":"0xabcdef0000000000000000000000000000000008"}`,
		`{"id":"3f1a2b4c-0000-4000-8000-000000000012","amount":"00012.50","status":"STAKED","walletAddress":"0xabcdef0000000000000000000000000000000009","id":"3f1a2b4c-0000-4000-8000-000000000013"}`,
	}
	body := "\n{ \"total\" : 77 , \"isProcessed\" : true, \"result\" : { \"items\" : [\n" + strings.Join(items, " ,\n") + "\n] , \"total\": 10 } }\n"
	var want struct {
		Result List[Stake] `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &want); err != nil {
		t.Fatal(err)
	}
	rows, total, _, err := collect(newTestClient(t, reply(http.StatusOK, body), nil))
	if err != nil {
		t.Fatal(err)
	}
	if total != 10 || len(rows) != len(want.Result.Items) {
		t.Fatalf("total %d, %d rows, want 10 and %d", total, len(rows), len(want.Result.Items))
	}
	for i := range rows {
		got, w := rows[i].Stake(), want.Result.Items[i]
		if !strings.EqualFold(got.ID, w.ID) || got.WalletAddress != w.WalletAddress || got.Status != w.Status ||
			got.Amount.String() != w.Amount.String() || rows[i].AmountString() != w.Amount.String() ||
			!got.CreatedAt.Truncate(time.Millisecond).Equal(w.CreatedAt.Truncate(time.Millisecond)) || got.CreatedAt.IsZero() != w.CreatedAt.IsZero() {
			t.Errorf("row %d: %+v\nwant %+v", i, got, w)
		}
		gotTime, _ := json.Marshal(got.CreatedAt)
		wantTime, _ := json.Marshal(w.CreatedAt)
		if string(rows[i].AppendCreatedAt(nil)) != strings.Trim(strings.Replace(string(wantTime), "null", "", 1), `"`) || string(gotTime) != string(wantTime) {
			t.Errorf("row %d: time %s, want %s", i, rows[i].AppendCreatedAt(nil), wantTime)
		}
	}
	if rows[0].Status != StakeStaked || rows[3].Status != StakeOther || rows[3].odd != rows[4].odd.statusOf(rows[3].odd) {
		t.Errorf("statuses: %d %d, interned %v", rows[0].Status, rows[3].Status, rows[3].odd)
	}
	if _, ok := rows[7].AmountBase(); !ok {
		t.Error("2^256-1 base units do not fit 256 bits")
	}
	if _, ok := rows[8].AmountBase(); ok {
		t.Error("2^256 base units fit 256 bits")
	}
}

// statusOf returns o when it is a status alone, else other: the rows of
// one odd status share it unless their amount is odd too.
func (o *stakeOdd) statusOf(other *stakeOdd) *stakeOdd {
	if o.amount == nil {
		return o
	}
	return other
}

// TestStreamStakesBatches: rows come in batches of StakeBatch, the last
// one shorter, in order.
func TestStreamStakesBatches(t *testing.T) {
	n := 2*StakeBatch + 100
	rows, total, batches, err := collect(newTestClient(t, reply(http.StatusOK, listing(n)), nil))
	if err != nil || total != n || len(rows) != n {
		t.Fatalf("%v: total %d, %d rows", err, total, len(rows))
	}
	if fmt.Sprint(batches) != fmt.Sprint([]int{StakeBatch, StakeBatch, 100}) {
		t.Errorf("batches %v", batches)
	}
	for i, r := range rows {
		if got, want := r.AmountString(), fmt.Sprintf("%d.5", i); got != want {
			t.Fatalf("row %d: amount %s, want %s", i, got, want)
		}
	}
}

// TestStreamStakesKeepsWhatArrived: a body cut or malformed mid-stream
// delivers the rows before the fault, then a *PartialError naming it.
func TestStreamStakesKeepsWhatArrived(t *testing.T) {
	whole := listing(10_000)
	cut := strings.Index(whole, stakeJSON(6000)) + 40
	badRow := strings.Replace(whole, stakeJSON(7000), strings.Replace(stakeJSON(7000), `"id":"3f1a`, `"id":"zz1a`, 1), 1)
	tests := []struct {
		name      string
		handler   http.HandlerFunc
		delivered int
		cause     func(error) bool
		text      string
	}{
		{"cut, connection closed", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(whole)))
			w.Write([]byte(whole[:cut]))
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}, 6000, func(err error) bool { return errors.As(err, new(*readError)) }, "unexpected EOF"},
		{"cut, body ends", reply(http.StatusOK, whole[:cut]), 6000,
			func(err error) bool { return errors.As(err, new(*UnexpectedResponseError)) }, fmt.Sprintf("the body ends after %d bytes, before the listing does", cut)},
		{"malformed row", reply(http.StatusOK, badRow), 7000,
			func(err error) bool { return errors.As(err, new(*UnexpectedResponseError)) }, `stake 7001: id "zz1a`},
		{"not JSON mid-stream", reply(http.StatusOK, whole[:strings.Index(whole, stakeJSON(6000))]+"<html>"), 6000,
			func(err error) bool { return errors.As(err, new(*UnexpectedResponseError)) }, "not JSON at byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, _, _, err := collect(newTestClient(t, tt.handler, nil))
			var partial *PartialError
			if !errors.As(err, &partial) || partial.Delivered != tt.delivered || len(rows) != tt.delivered || !tt.cause(err) {
				t.Fatalf("err %v (%T), %d rows, want %d", err, err, len(rows), tt.delivered)
			}
			if !strings.Contains(err.Error(), tt.text) || !strings.HasPrefix(err.Error(), fmt.Sprintf("staking/stakes: only the first %d stakes arrived: ", tt.delivered)) ||
				strings.Count(err.Error(), "staking/stakes") != 1 {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
			if rows[len(rows)-1].AmountString() != fmt.Sprintf("%d.5", len(rows)-1) {
				t.Errorf("last row %s", rows[len(rows)-1].AmountString())
			}
		})
	}
}

// TestStreamStakesBounds: past the rows', the bytes' or the time's bound
// the listing stops with a *LimitError after the rows within it; a length
// announced past the bytes' bound is refused unread.
func TestStreamStakesBounds(t *testing.T) {
	body := listing(5000)
	c := newTestClient(t, reply(http.StatusOK, body), nil)
	c.maxStakeRows = 4500
	rows, _, _, err := collect(c)
	if !errors.As(err, new(*LimitError)) || !errors.As(err, new(*PartialError)) || len(rows) != 4500 || !strings.Contains(err.Error(), "more than 4500 stakes") {
		t.Errorf("rows bound: %v, %d rows", err, len(rows))
	}

	c = newTestClient(t, reply(http.StatusOK, body), nil)
	c.maxStakesBody = int64(len(body) / 2)
	rows, _, _, err = collect(c)
	if !errors.As(err, new(*LimitError)) || len(rows) == 0 || len(rows) > 2600 {
		t.Errorf("bytes bound: %v, %d rows", err, len(rows))
	}

	// A body that keeps coming, slower than the bound allows in all.
	c = newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		for at := 0; at < len(body); at += len(body) / 20 {
			w.Write([]byte(body[at:min(len(body), at+len(body)/20)]))
			w.(http.Flusher).Flush()
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	}, nil)
	c.maxStakesWait = 100 * time.Millisecond
	rows, _, _, err = collect(c)
	if !errors.As(err, new(*LimitError)) || !strings.Contains(err.Error(), "the service took more than 100ms to send the listing") || len(rows) == 5000 {
		t.Errorf("time bound: %v, %d rows", err, len(rows))
	}

	var calls int
	c = newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write([]byte(body))
	}, nil)
	c.maxStakesBody = 1000
	rows, _, _, err = collect(c)
	if !errors.As(err, new(*LimitError)) || errors.As(err, new(*PartialError)) || len(rows) != 0 || calls != 1 {
		t.Errorf("announced: %v, %d rows, %d calls", err, len(rows), calls)
	}
}

// TestStreamStakesCancel: the context ends the listing mid-body; the rows
// before stay delivered.
func TestStreamStakesCancel(t *testing.T) {
	body := listing(20_000)
	release := make(chan struct{})
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		half := strings.Index(body, stakeJSON(10_000))
		w.Write([]byte(body[:half]))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, nil)
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	_, err := c.StreamStakes(ctx, StakesRequest{StakingPoolID: tokenID}, func(batch []StakeRow) error {
		n += len(batch)
		if n >= 2*StakeBatch {
			cancel()
		}
		return nil
	})
	var partial *PartialError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &partial) || partial.Delivered != n || n < 2*StakeBatch {
		t.Errorf("err %v, %d delivered", err, n)
	}
}

// TestStreamStakesIdle: a body that stops moving for the client's timeout
// ends the listing; the rows before stay delivered.
func TestStreamStakesIdle(t *testing.T) {
	body := listing(10_000)
	release := make(chan struct{})
	defer close(release)
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body[:len(body)/2]))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, nil)
	c.cfg.Timeout = 100 * time.Millisecond
	rows, _, _, err := collect(c)
	if !errors.As(err, new(*PartialError)) || len(rows) == 0 || !strings.Contains(err.Error(), "the service sent nothing for 100ms") {
		t.Errorf("err %v, %d rows", err, len(rows))
	}
}

// TestStreamStakesAnswers: the other answers of the call: the bare
// result, an error envelope on 200, errors by status, a retry on 503.
func TestStreamStakesAnswers(t *testing.T) {
	rows, total, _, err := collect(newTestClient(t, reply(http.StatusOK, `{"items":[`+stakeJSON(1)+`],"total":1}`), nil))
	if err != nil || total != 1 || len(rows) != 1 {
		t.Errorf("bare result: %v, %d, %d rows", err, total, len(rows))
	}
	_, _, _, err = collect(newTestClient(t, reply(http.StatusOK, `{"isProcessed":false,"error":{"type":"InternalError","message":"db down","details":[]}}`), nil))
	if !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "db down") {
		t.Errorf("isProcessed false: %v", err)
	}
	_, _, _, err = collect(newTestClient(t, reply(http.StatusNotFound, `{"isProcessed":false,"error":{"type":"NotFoundError","message":"no such pool"}}`), nil))
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("404: %v", err)
	}
	_, _, _, err = collect(newTestClient(t, reply(http.StatusOK, "<html><body>\x1b[2JBad gateway</body></html>"), nil))
	var u *UnexpectedResponseError
	if !errors.As(err, &u) || u.Status != http.StatusOK || !strings.Contains(u.Excerpt, "<html><body>") || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("a proxy's page: %v", err)
	}
	_, _, _, err = collect(newTestClient(t, reply(http.StatusOK, ``), nil))
	if !errors.As(err, new(*UnexpectedResponseError)) || !strings.Contains(err.Error(), "an empty body") {
		t.Errorf("empty: %v", err)
	}
	_, total, _, err = collect(newTestClient(t, reply(http.StatusOK, `{"isProcessed":true,"result":{"items":[]}}`), nil))
	if err != nil || total != 0 {
		t.Errorf("no stakes: %v, %d", err, total)
	}
	tries := 0
	rows, _, _, err = collect(newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if tries++; tries == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(listing(3)))
	}, nil))
	if err != nil || len(rows) != 3 || tries != 2 {
		t.Errorf("503 then 200: %v, %d rows after %d tries", err, len(rows), tries)
	}
}

// TestStreamStakesRequestLog: the exchange of a listing records its size
// and only the head of its body.
func TestStreamStakesRequestLog(t *testing.T) {
	body := listing(5000)
	var log []Exchange
	if _, _, _, err := collect(newTestClient(t, reply(http.StatusOK, body), &log)); err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].ResponseSize != len(body) || len(log[0].ResponseBody) > MaxExchangeBody+len("…") ||
		!strings.HasPrefix(body, strings.TrimSuffix(string(log[0].ResponseBody), "…")) || log[0].Status != http.StatusOK {
		t.Errorf("exchanges: %d, size %d of %d, body %d bytes", len(log), log[0].ResponseSize, len(body), len(log[0].ResponseBody))
	}
}

// TestStakesListsRows: Stakes is the listing as Stake values, bounded by
// MaxListItems.
func TestStakesListsRows(t *testing.T) {
	c := newTestClient(t, reply(http.StatusOK, listing(3)), nil)
	list, err := c.Stakes(context.Background(), StakesRequest{StakingPoolID: tokenID})
	if err != nil || len(list.Items) != 3 || list.Total != 3 || list.Items[2].Amount.String() != "2.5" ||
		list.Items[2].WalletAddress != "0x52908400098527886E0F7030069857D2E4169EE7" {
		t.Fatalf("%v: %+v", err, list)
	}
}

// FuzzStreamStakes feeds arbitrary bodies to the streaming decoder, read
// a few bytes at a time so that every token crosses a buffer's end: it
// never panics; what it accepts, encoding/json reads as the same stakes;
// its errors are typed and safe to print.
func FuzzStreamStakes(f *testing.F) {
	f.Add([]byte(listing(3)), uint8(7))
	f.Add([]byte(`{"items":[{"id":"3f1a2b4c-0000-4000-8000-00000000000a","amount":1e3,"status":"X\u00ff","createdAt":null,"walletAddress":"0xabcdef0000000000000000000000000000000001","x":[{}]}],"total":1}`), uint8(1))
	f.Add([]byte(`{"isProcessed":false,"error":{"type":"ValidationError","details":[{"path":"x","message":"y"}]}}`), uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, chunk uint8) {
		var rows []StakeRow
		d := newStakesDecoder(call{op: opStakes}, &chunked{b: body, n: int(chunk%64) + 1}, func(batch []StakeRow) error {
			rows = append(rows, batch...)
			return nil
		}, MaxStakeRows, MaxStakesBody, MaxStakesWait)
		d.s.buf = make([]byte, 0, maxToken+fastRowBytes) // the smallest buffer that holds a token
		_, err := d.decode()
		if err != nil {
			if !typedReadError(err) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("escape in message %q", err)
			}
			return
		}
		var env struct {
			IsProcessed *bool `json:"isProcessed"`
			Result      struct {
				Items []Stake `json:"items"`
			} `json:"result"`
			Items []Stake `json:"items"`
		}
		if json.Unmarshal(body, &env) != nil {
			return // encoding/json refuses duplicate-free oddities we accept (see the scanner)
		}
		want := env.Items
		if env.Result.Items != nil {
			want = env.Result.Items
		}
		if len(rows) != len(want) {
			t.Fatalf("%d rows, encoding/json reads %d", len(rows), len(want))
		}
		for i := range rows {
			if got := rows[i].Stake(); got.Amount.String() != want[i].Amount.String() || got.WalletAddress != want[i].WalletAddress ||
				!strings.EqualFold(got.ID, want[i].ID) || got.Status != want[i].Status {
				t.Fatalf("row %d: %+v, encoding/json reads %+v", i, got, want[i])
			}
		}
	})
}

// chunked reads b at most n bytes at a time.
type chunked struct {
	b []byte
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[n:]
	return n, nil
}

// TestStreamStakesPastListBounds: a listing longer than a list holds
// (MaxListItems) and larger than an answer read whole (MaxResponseSize)
// streams whole; Stakes, which holds Stake values, still says it is too
// long.
func TestStreamStakesPastListBounds(t *testing.T) {
	n := MaxListItems + 10
	var body strings.Builder
	body.WriteString(`{"isProcessed":true,"result":{"items":[`)
	for i := range n {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString(stakeJSON(i))
	}
	fmt.Fprintf(&body, `],"total":%d}}`, n)
	c := newTestClient(t, reply(http.StatusOK, body.String()), nil)
	c.maxBody = 1 << 20 // a body read whole: far below this listing
	rows, total, _, err := collect(c)
	if err != nil || total != n || len(rows) != n || rows[n-1].AmountString() != fmt.Sprintf("%d.5", n-1) {
		t.Fatalf("%v: %d rows, total %d", err, len(rows), total)
	}
	if _, err := c.Stakes(context.Background(), StakesRequest{StakingPoolID: tokenID}); !errors.As(err, new(*LimitError)) {
		t.Errorf("Stakes of %d stakes: %v", n, err)
	}
}

// TestStreamStakesWaitsForTheCaller: the client's timeout counts the
// service's silences, not the caller's: a batch handled slower than the
// timeout (a pipe to a paused pager) does not end the listing.
func TestStreamStakesWaitsForTheCaller(t *testing.T) {
	c := newTestClient(t, reply(http.StatusOK, listing(4*StakeBatch)), nil)
	c.cfg.Timeout = 50 * time.Millisecond
	n := 0
	_, err := c.StreamStakes(context.Background(), StakesRequest{StakingPoolID: tokenID}, func(batch []StakeRow) error {
		if n == 0 {
			time.Sleep(4 * c.cfg.Timeout)
		}
		n += len(batch)
		return nil
	})
	if err != nil || n != 4*StakeBatch {
		t.Errorf("%v after %d stakes", err, n)
	}
}
