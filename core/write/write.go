// Package write says, once for each kind of write allot sends to the
// service, what that kind is: the operation it is journaled under (the
// registry's key), the label the Transactions screen and `allot
// transactions` give it, how its journaled body is read back and
// described, where it is sent, what its answer lists, why a deployment
// cannot tell whether it applied one, and how it is sent again. The
// journal, core/act, the Transactions screen, views/reopen and the
// commands consult it instead of each switching on the operation, so
// that a new kind is one Def here (kinds.go) and the screens and command
// of its family. It knows nothing of screens.
package write

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"allot/api"
)

// Field is one line of a write's description: what it is about, as the
// Transactions screen's details and `allot transactions -o json` show it.
// Values are sanitized for a terminal.
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Created is a transaction that a write's answer says the service created.
type Created struct {
	ID string
	// Status is as shown (api.Transaction.Shown).
	Status string
}

// Def defines a kind of write whose request is a Req and whose answer a
// Res. Its typed functions are the kind's one implementation: act's
// workflow sends through Send, a page opened again from the journal
// reads the body back with Read.
type Def[Req, Res any] struct {
	// Op is the operation the write is journaled under, as the command
	// line names it: the registry's key.
	Op string
	// Label names the kind in the Transactions screen's and `allot
	// transactions`' KIND column; "" names it by its ref (a transaction
	// request by its action).
	Label string
	// Path is where a write about ref is sent, as the service names it;
	// nil when that is Op.
	Path func(ref string) string
	// New is an empty request about ref to read a body into, false when
	// there is none (an action allot does not know); nil for Req's zero
	// value.
	New func(ref string) (Req, bool)
	// Describe says what a request about ref asks for.
	Describe func(ref string, req Req) []Field
	// Send sends req about ref; Outcome is what the journal records of
	// its answer: a status and what to keep (nil keeps nothing).
	Send    func(ctx context.Context, c *api.Client, ref string, req Req) (Res, error)
	Outcome func(res Res) (status string, kept any)
	// Said is the answer to a write sent again from its page, in lines
	// (sanitized); nil when NoResend says why it is not sent again.
	Said func(ref string, res Res) []string
	// Lists is what a kept answer lists on the Transactions screen; nil
	// for a kind whose answered writes are not listed there.
	Lists func(res Res) []Created
	// NoReadBack says why a deployment without a ledger cannot tell
	// whether it applied a write of this kind (act.Recorder.Check).
	NoReadBack string
	// NoResend says why a write of this kind whose answer was lost is not
	// sent again; "" when it may be.
	NoResend string
}

// Read decodes a journaled body of a write about ref, and says whether
// the request encodes back to exactly those bytes: only then may it be
// sent again.
func (d *Def[Req, Res]) Read(ref string, body []byte) (Req, bool) {
	req, ok := d.decode(ref, body)
	if !ok {
		return req, false
	}
	again, err := json.Marshal(req)
	return req, err == nil && bytes.Equal(again, body)
}

// decode decodes a journaled body of a write about ref.
func (d *Def[Req, Res]) decode(ref string, body []byte) (req Req, ok bool) {
	if d.New != nil {
		if req, ok = d.New(ref); !ok {
			return req, false
		}
	}
	// A Req that is an interface holds a pointer, which json fills.
	return req, json.Unmarshal(body, &req) == nil
}

// Kind is a Def with its types erased, for what handles writes of every
// kind alike: the journal, the recorder's check and resend, the
// Transactions screen, the command.
type Kind struct {
	// Op, NoReadBack and NoResend are the Def's.
	Op         string
	NoReadBack string
	NoResend   string
	label      string
	path       func(string) string
	read       func(ref string, body []byte) (req any, asSent bool)
	decode     func(ref string, body []byte) (req any, ok bool)
	describe   func(ref string, req any) []Field
	send       func(ctx context.Context, c *api.Client, ref string, req any) (status string, kept any, said []string, err error)
	lists      func(answer []byte) []Created
}

// Kind erases d's types.
func (d *Def[Req, Res]) Kind() Kind {
	k := Kind{Op: d.Op, NoReadBack: d.NoReadBack, NoResend: d.NoResend, label: d.Label, path: d.Path}
	k.read = func(ref string, body []byte) (any, bool) { return d.Read(ref, body) }
	k.decode = func(ref string, body []byte) (any, bool) { return d.decode(ref, body) }
	k.describe = func(ref string, req any) []Field { return d.Describe(ref, req.(Req)) }
	k.send = func(ctx context.Context, c *api.Client, ref string, req any) (string, any, []string, error) {
		res, err := d.Send(ctx, c, ref, req.(Req))
		if err != nil {
			return "", nil, nil, err
		}
		status, kept := d.Outcome(res)
		var said []string
		if d.Said != nil {
			said = d.Said(ref, res)
		}
		return status, kept, said, nil
	}
	if d.Lists != nil {
		k.lists = func(answer []byte) []Created {
			var res Res
			if json.Unmarshal(answer, &res) != nil {
				return nil
			}
			return d.Lists(res)
		}
	}
	return k
}

// Label names a write about ref in the KIND column.
func (k Kind) Label(ref string) string { return cmp.Or(k.label, ref) }

// Path is where a write about ref is sent, as the service names it.
func (k Kind) Path(ref string) string {
	if k.path == nil {
		return k.Op
	}
	return k.path(ref)
}

// AsSent reports whether a journaled body of a write about ref reads back
// as a request of this kind that encodes to exactly the bytes sent: only
// such a body may be checked and sent again.
func (k Kind) AsSent(ref string, body []byte) bool {
	_, asSent := k.read(ref, body)
	return asSent
}

// Describe says what a journaled body of a write about ref asks for; nil
// when the body cannot be read as a request of this kind.
func (k Kind) Describe(ref string, body []byte) []Field {
	req, ok := k.decode(ref, body)
	if !ok {
		return nil
	}
	return k.describe(ref, req)
}

// Listed reports whether an answered write of this kind is listed by
// what its answer created (Lists); one that is not is listed only while
// its outcome is unknown, and once a check or a resend settles it.
func (k Kind) Listed() bool { return k.lists != nil }

// Lists is what the kept answer of a write of this kind lists as
// created; none when it cannot be read, or the kind is not Listed.
func (k Kind) Lists(answer []byte) []Created {
	if k.lists == nil {
		return nil
	}
	return k.lists(answer)
}

// Refuses says why a journaled body of a write about ref is not sent
// again: the kind is not, or the body does not encode back to the bytes
// sent; nil when it may be.
func (k Kind) Refuses(ref string, body []byte) error {
	switch {
	case k.NoResend != "":
		return &NotResentError{Op: k.Op, Reason: k.NoResend}
	case !k.AsSent(ref, body):
		return &NotResentError{Op: k.Op, Reason: "the journal does not hold the request's body as it was sent"}
	}
	return nil
}

// Send sends a journaled body about ref again, as it was, unless Refuses
// says why not: it returns what the journal records of the answer
// (status, kept) and the answer in lines.
func (k Kind) Send(ctx context.Context, c *api.Client, ref string, body []byte) (status string, kept any, said []string, err error) {
	if err := k.Refuses(ref, body); err != nil {
		return "", nil, nil, err
	}
	req, _ := k.read(ref, body)
	return k.send(ctx, c, ref, req)
}

// NotResentError is a write that is not sent again, and why.
type NotResentError struct{ Op, Reason string }

func (e *NotResentError) Error() string { return e.Op + " is not sent again: " + e.Reason }

// Of is the kind of write journaled under op; false for an operation
// that is not a write allot sends (a signature, a chain transaction's
// action).
func Of(op string) (Kind, bool) {
	k, ok := registry[op]
	return k, ok
}

// Label names a write of op about ref as the KIND column does; an
// operation of no kind is named by its ref.
func Label(op, ref string) string {
	if k, ok := Of(op); ok {
		return k.Label(ref)
	}
	return ref
}

// Kinds are every kind of write, ordered by operation.
func Kinds() []Kind {
	out := make([]Kind, 0, len(registry))
	for _, k := range registry {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Kind) int { return cmp.Compare(a.Op, b.Op) })
	return out
}

// registry holds every kind, by operation.
var registry = index(Transaction.Kind(), Schedule.Kind(), UploadURL.Kind(), Creative.Kind(), Claim.Kind())

func index(kinds ...Kind) map[string]Kind {
	m := make(map[string]Kind, len(kinds))
	for _, k := range kinds {
		m[k.Op] = k
	}
	return m
}
