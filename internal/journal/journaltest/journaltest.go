// Package journaltest reads the local journal in tests, as httptest serves
// HTTP in them.
package journaltest

import (
	"testing"

	"allot/internal/journal"
)

// Entries reads every entry of the journal in dir.
func Entries(t testing.TB, dir string) []journal.Entry {
	t.Helper()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	return res.Entries
}

// Of keeps the entries of kind and, unless op is empty, of op.
func Of(entries []journal.Entry, kind, op string) []journal.Entry {
	var out []journal.Entry
	for _, e := range entries {
		if e.Kind == kind && (op == "" || e.Op == op) {
			out = append(out, e)
		}
	}
	return out
}
