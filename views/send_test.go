package views

import (
	"context"
	"errors"
	"testing"

	"allot/api"
	"allot/core/act"
)

// TestSendingEnds: a send's answer is told apart into done, refused (the
// fields to mark) and lost (the write as journaled); an earlier send's
// answer is dropped.
func TestSendingEnds(t *testing.T) {
	var s Sending[int]
	s.Start(func(context.Context) (int, error) { return 0, nil })
	stale := Answer[int]{seq: s.seq, Value: 1}
	s.Start(func(context.Context) (int, error) { return 0, nil })
	if a, _ := s.Update(stale); a != nil || !s.Busy() {
		t.Fatal("an earlier send's answer was taken")
	}
	if a, _ := s.Update(Answer[int]{seq: s.seq, Value: 7}); a == nil || a.Err != nil || a.Value != 7 || s.Busy() {
		t.Fatalf("the answer was not taken: %+v", a)
	}

	refused := &Answer[int]{Err: &api.ValidationError{Remote: true, Fields: []api.FieldError{{Path: "name", Message: "taken"}}}}
	if v := refused.Refused(); v == nil || v.Fields[0].Path != "name" {
		t.Fatalf("refused: %v", v)
	}
	if _, lost := refused.Lost(act.Sent{}); lost {
		t.Error("a refusal reported as lost")
	}

	journaled := act.Sent{Op: "schedules/create", Write: "w1"}
	lost := &Answer[int]{Err: &act.UnknownError{Err: &api.OutcomeUnknownError{Op: "schedules/create", Err: errors.New("reset")}}}
	if w, ok := lost.Lost(journaled); !ok || lost.Refused() != nil {
		t.Fatalf("lost answer: %+v %v", w, ok)
	}
	if _, ok := (&Answer[int]{Err: errors.New("refused: 500")}).Lost(journaled); ok {
		t.Error("a failure reported as lost")
	}
}
