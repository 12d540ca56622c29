package views

import (
	"strings"
	"testing"

	"allot/core/act"
)

// TestOutcomeChecksAtOnce: a write whose answer is lost is checked as
// soon as it is, no resend is offered while the check runs, and only the
// latest check's answer counts.
func TestOutcomeChecksAtOnce(t *testing.T) {
	ctx := &Context{Recorder: &act.Recorder{}} // no ledger: the check cannot tell
	var o Outcome
	first := o.Lost(ctx, act.Sent{Op: "schedules/create", Write: "w1", Body: []byte(`{}`)})
	if first == nil || !o.Checking() {
		t.Fatal("a lost answer is not checked at once")
	}
	if prompt, refused := o.Resend(); prompt != "" || refused == "" {
		t.Fatalf("resend offered while the check runs: %q", prompt)
	}
	stale := first()
	second := o.Lost(ctx, act.Sent{Op: "schedules/create", Write: "w2", Body: []byte(`{}`)})
	if !o.Update(stale) || o.Verdict() != nil || !o.Checking() {
		t.Fatalf("the first write's check answered for the second: %+v", o.Verdict())
	}
	if !o.Update(second()) || o.Checking() {
		t.Fatal("the check's answer was not taken")
	}
	if v := o.Verdict(); v == nil || v.Check != act.CannotTell || o.Applied() || o.Sent().Write != "w2" {
		t.Fatalf("verdict %+v of %q, want cannot tell of w2", v, o.Sent().Write)
	}
	if prompt, _ := o.Resend(); !strings.Contains(prompt, "cannot tell") {
		t.Fatalf("resend question after cannot tell: %q", prompt)
	}
	if o.Update("not a check") {
		t.Error("Outcome took a message that is not its check's")
	}
}

// TestOutcomeCheckAgainSaysSo: a check asked again (c) that finds what
// the one before found says it is another check: the page changes, so
// that c is seen to have done something.
func TestOutcomeCheckAgainSaysSo(t *testing.T) {
	ctx := &Context{Recorder: &act.Recorder{}} // no ledger: the check cannot tell
	var o Outcome
	o.Update(o.Lost(ctx, act.Sent{Op: "schedules/create", Write: "w1", Body: []byte(`{}`)})())
	first := o.Note()
	o.Update(o.Check()())
	again := o.Note()
	if again == first || !strings.HasPrefix(again, "Check 2: ") || !strings.HasSuffix(again, first) {
		t.Errorf("after a second check the note is %q, the first's %q", again, first)
	}
	o.Check()
	if o.Note() != "Checking whether the service applied it…" {
		t.Errorf("a check running reads %q", o.Note())
	}
}
