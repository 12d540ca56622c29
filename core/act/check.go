package act

import (
	"context"
	"errors"
	"fmt"

	"allot/core/write"
)

// Check is what asking the deployment about a write whose answer was lost
// found out.
type Check int

const (
	// CannotTell: the deployment cannot be asked (the service's interface
	// reads no write back: only the embedded sandbox's ledger can), or not
	// about this write.
	CannotTell Check = iota
	// Applied: the service applied the write; sending it again applies it
	// a second time.
	Applied
	// NotApplied: the service did not apply it; sending it again applies
	// it once.
	NotApplied
)

// Ledger is a deployment that says which writes it applied: the embedded
// sandbox, whose journal lists them. A real deployment has none.
type Ledger interface {
	// Mark is how far the ledger goes now; a write applied later is after
	// the mark.
	Mark() int
	// AppliedAfter reports whether a write of op about ref with exactly
	// body was applied after mark, once the requests the deployment is
	// still serving have ended (one of them may be the write).
	AppliedAfter(ctx context.Context, mark int, op, ref string, body []byte) (bool, error)
}

// Sent is a journaled write: what a check asks about, and what a resend
// sends again.
type Sent struct {
	Op, Ref string
	Write   string // the journal's id of the write
	Body    []byte // the exact bytes sent
}

// Verdict is what Check found; Reason says why it cannot tell, in one
// line for the user.
type Verdict struct {
	Check  Check
	Reason string
}

// errNoMark: a check on the embedded sandbox of a write of another run.
var errNoMark = errors.New("the request was sent before this run of allot, to a sandbox that is gone with its writes")

// noReadBack is why a deployment without a ledger cannot tell whether it
// applied a write of op, as the write's kind says.
func noReadBack(op string) string {
	if k, ok := write.Of(op); ok {
		return k.NoReadBack
	}
	return "this service's interface cannot say whether it applied a write"
}

// Check finds out whether the write w, whose outcome is unknown, was
// applied, and when it can tell, settles it in the journal: Transactions
// and every later run list it as applied or not applied, no longer as
// unknown. It is the one check of every write, for every screen and
// command.
func (r *Recorder) Check(ctx context.Context, w Sent) (Verdict, error) {
	if r == nil || r.Ledger == nil {
		return Verdict{Check: CannotTell, Reason: noReadBack(w.Op)}, nil
	}
	mark, ok := r.marks.Load(w.Write)
	if w.Write == "" || !ok {
		return Verdict{Check: CannotTell, Reason: errNoMark.Error()}, nil
	}
	applied, err := r.Ledger.AppliedAfter(ctx, mark.(int), w.Op, w.Ref, w.Body)
	if err != nil {
		return Verdict{}, fmt.Errorf("check whether %s was applied: %w", w.Op, err)
	}
	v, status := Verdict{Check: NotApplied}, StatusNotApplied
	if applied {
		v, status = Verdict{Check: Applied}, StatusApplied
	}
	r.Settle(w.Op, w.Ref, w.Write, status)
	return v, nil
}

// mark remembers, for a write about to be sent, how far the ledger went:
// what it applies after that may be this write.
func (r *Recorder) mark(write string) {
	if r != nil && r.Ledger != nil {
		r.marks.Store(write, r.Ledger.Mark())
	}
}

// unmark forgets the mark of a write whose answer came: only one whose
// answer was lost is checked.
func (r *Recorder) unmark(write string) {
	if r != nil {
		r.marks.Delete(write)
	}
}
