package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// items is n stakes, the inside of a listing's items.
func items(n int) string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = stakeJSON(i)
	}
	return strings.Join(rows, ",")
}

// sinkLog streams a pool's stakes from c and notes, in order, each total
// announced and each batch.
func sinkLog(c *Client) (events []string, rows int, total int, err error) {
	total, err = c.StreamStakesTo(context.Background(), StakesRequest{StakingPoolID: tokenID}, StakesSink{
		Total: func(n int) { events = append(events, fmt.Sprint("total ", n)) },
		Rows: func(batch []StakeRow) error {
			events = append(events, fmt.Sprint("rows ", len(batch)))
			rows += len(batch)
			return nil
		},
	})
	return events, rows, total, err
}

// TestStreamStakesAnnouncesTotalFirst: a listing that writes its total
// before its items has it announced before the items arrive: the service
// holds the items back until the client has seen the total.
func TestStreamStakesAnnouncesTotalFirst(t *testing.T) {
	seen := make(chan struct{})
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"isProcessed":true,"result":{"total":5000,"items":[`)
		w.(http.Flusher).Flush()
		select {
		case <-seen:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, items(5000)+`]}}`)
	}, nil)
	var events []string
	total, err := c.StreamStakesTo(context.Background(), StakesRequest{StakingPoolID: tokenID}, StakesSink{
		Total: func(n int) {
			events = append(events, fmt.Sprint("total ", n))
			close(seen)
		},
		Rows: func(batch []StakeRow) error {
			events = append(events, fmt.Sprint("rows ", len(batch)))
			return nil
		},
	})
	if err != nil || total != 5000 {
		t.Fatalf("%v: total %d", err, total)
	}
	if want := fmt.Sprint([]string{"total 5000", fmt.Sprint("rows ", StakeBatch), fmt.Sprint("rows ", 5000-StakeBatch)}); fmt.Sprint(events) != want {
		t.Errorf("events %v, want %s", events, want)
	}
}

// TestStreamStakesAnnouncesTotalLast: a listing that writes its total
// after its items has it announced after them, as it comes.
func TestStreamStakesAnnouncesTotalLast(t *testing.T) {
	events, rows, total, err := sinkLog(newTestClient(t, reply(http.StatusOK, listing(3)), nil))
	if err != nil || total != 3 || rows != 3 || fmt.Sprint(events) != "[rows 3 total 3]" {
		t.Errorf("%v: total %d, %d rows, events %v", err, total, rows, events)
	}
}

// TestStreamStakesHostileTotals: whatever the total says, and wherever
// it comes, every row that arrived is delivered. A total that is no whole
// number, or more than the rows, fails the listing at its end as the
// partial body it is; a total below the rows is returned as it is. Only
// a total that can be progress is announced.
func TestStreamStakesHostileTotals(t *testing.T) {
	const n = 5
	tests := []struct {
		total     string
		announced string // the events' total, "" for none
		want      int    // the total returned, when there is no error
		err       string // the partial error's cause
	}{
		{total: "5", announced: "total 5", want: 5},
		{total: "3", announced: "total 3", want: 3},
		{total: "null", want: n},
		{total: "0", announced: "total 0", want: 0},
		{total: "9", announced: "total 9", err: "the listing counts 9 stakes but holds 5"},
		{total: "100000000000000", err: "the listing counts 100000000000000 stakes but holds 5"},
		{total: "-1", err: "total is not a whole number"},
		{total: "5.0", err: "total is not a whole number"},
		{total: "5e0", err: "total is not a whole number"},
		{total: "99999999999999999999999", err: "total is not a whole number"},
		{total: `"5"`, err: "total is not a whole number"},
		{total: `{"n":5}`, err: "total is not a whole number"},
	}
	for _, tt := range tests {
		for _, order := range []string{"first", "last"} {
			t.Run(order+" "+tt.total, func(t *testing.T) {
				body := `{"isProcessed":true,"result":{"items":[` + items(n) + `],"total":` + tt.total + `}}`
				if order == "first" {
					body = `{"isProcessed":true,"result":{"total":` + tt.total + `,"items":[` + items(n) + `]}}`
				}
				events, rows, total, err := sinkLog(newTestClient(t, reply(http.StatusOK, body), nil))
				if rows != n {
					t.Errorf("%d rows delivered, want %d", rows, n)
				}
				announced := ""
				for _, e := range events {
					if strings.HasPrefix(e, "total ") {
						announced = e
					}
				}
				if announced != tt.announced {
					t.Errorf("announced %q, want %q", announced, tt.announced)
				}
				if order == "first" && tt.announced != "" && events[0] != tt.announced {
					t.Errorf("events %v: the total is not first", events)
				}
				if tt.err == "" {
					if err != nil || total != tt.want {
						t.Errorf("%v: total %d, want %d", err, total, tt.want)
					}
					return
				}
				var partial *PartialError
				if !errors.As(err, &partial) || partial.Delivered != n || !errors.As(err, new(*UnexpectedResponseError)) || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err %v (%T), want a partial listing of %d stakes: %s", err, err, n, tt.err)
				}
			})
		}
	}
}

// TestStreamStakesTotalOfNoRows: an empty listing that counts stakes is
// no listing to show as empty: an error, not a partial one.
func TestStreamStakesTotalOfNoRows(t *testing.T) {
	_, rows, _, err := sinkLog(newTestClient(t, reply(http.StatusOK, `{"isProcessed":true,"result":{"total":4,"items":[]}}`), nil))
	if rows != 0 || !errors.As(err, new(*UnexpectedResponseError)) || errors.As(err, new(*PartialError)) || !strings.Contains(err.Error(), "counts 4 stakes but holds 0") {
		t.Errorf("err %v, %d rows", err, rows)
	}
}
