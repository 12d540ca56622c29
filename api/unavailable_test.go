package api

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestUnavailable: a read the service was down for (a 5xx a restarting
// service or its gateway answers, no answer after every try, no answer
// in its time) may be answered later; a refusal, an answer allot refuses,
// a request not served and a cancel are not worth asking again.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&StatusError{Op: "contracts", Status: 503, Kind: ErrServer}, true},
		{fmt.Errorf("lookup: %w", &StatusError{Op: "contracts", Status: 500, Kind: ErrServer}), true},
		{tried("contracts", errors.New("connection refused"), maxTries), true},
		{fmt.Errorf("contracts: %w", context.DeadlineExceeded), true},
		{&StatusError{Op: "contracts", Status: 404, Kind: ErrNotFound}, false},
		{&StatusError{Op: "contracts", Status: 401, Kind: ErrUnauthorized}, false},
		{&StatusError{Op: "contracts", Status: 501, Kind: ErrServer}, false},
		{&UnexpectedResponseError{Status: 200}, false},
		{fmt.Errorf("contracts: %w", context.Canceled), false},
	} {
		if got := Unavailable(tc.err); got != tc.want {
			t.Errorf("Unavailable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
