package cli

import (
	"bytes"
	"testing"
	"time"
)

// TestJSONListWritesAsWriteJSON: a list streamed an item at a time is,
// byte for byte, what writeJSON writes of it whole, empty or not, text
// that sanitize would change escaped alike.
func TestJSONListWritesAsWriteJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	rows := []transactionJSON{
		{ID: "t1", Kind: "START_DISTRIBUTION", Status: "CREATED", CreatedAt: at, Sent: []byte(`{"a":"<b>"}`)},
		{ID: "0xaa", Kind: "claim\x1b[31m", Status: "reverted", CreatedAt: at, Block: 7, RevertReason: "é\u202e"},
	}
	for n := range len(rows) + 1 {
		var want, got bytes.Buffer
		if err := writeJSON(&want, map[string]any{"transactions": rows[:n]}); err != nil {
			t.Fatal(err)
		}
		l := newJSONList(&got, "transactions")
		for _, r := range rows[:n] {
			if err := l.item(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.end(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d rows:\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
}
