package journal

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"allot/core/write"
)

// TestCreatedSchedules: the schedules the service answered with, newest
// first; refused, unknown and other operations' outcomes are not listed,
// nor another deployment's.
func TestCreatedSchedules(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	for i, e := range []Entry{
		{Kind: KindRequest, Op: write.OpSchedule, Ref: "a", Data: json.RawMessage(`{"name":"a"}`)},
		{Kind: KindOutcome, Op: write.OpSchedule, Ref: "a", Status: "S-AAAAAAAA", Data: json.RawMessage(`{"id":"1","key":"S-AAAAAAAA","name":"a"}`)},
		{Kind: KindOutcome, Op: write.OpSchedule, Ref: "b", Status: "failed"},
		{Kind: KindOutcome, Op: write.OpSchedule, Ref: "c", Status: StatusUnknown},
		{Kind: KindOutcome, Op: write.OpTransaction, Data: json.RawMessage(`{"key":"S-NOTASCHE"}`)},
		{Kind: KindOutcome, Op: write.OpSchedule, Ref: "e", Profile: "q", Data: json.RawMessage(`{"id":"3","key":"S-EEEEEEEE","name":"e"}`)},
		{Kind: KindOutcome, Op: write.OpSchedule, Ref: "d", Data: json.RawMessage(`{"id":"2","key":"S-DDDDDDDD","name":"d"}`)},
	} {
		e.At = at.Add(time.Duration(i) * time.Hour)
		if e.Profile == "" {
			e.Profile = "p"
		}
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.CreatedSchedules(Deployment{Profile: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Key != "S-DDDDDDDD" || got[1].Key != "S-AAAAAAAA" || got[1].ID != "1" || got[1].Name != "a" ||
		!got[1].At.Equal(at.Add(time.Hour)) || got[0].Profile != "p" {
		t.Fatalf("created %+v", got)
	}
	var none *Journal
	if _, err := none.CreatedSchedules(Deployment{}); !errors.Is(err, ErrNoJournal) {
		t.Fatalf("no journal: %v", err)
	}
}
