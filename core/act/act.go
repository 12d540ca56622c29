// Package act carries out the acts that cannot be taken back: write
// requests, signatures and transactions. Each is appended to the local
// journal before it happens, and its outcome after, so that a crash or a
// lost answer leaves a record of what may have been done. The command line
// and the dashboard both act through it.
package act

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/api"
	"allot/core/journal"
	"allot/core/write"
	"allot/internal/isotime"
	"allot/wallet"
)

// ErrJournal is returned when the journal cannot record an act, which then
// does not happen.
var ErrJournal = errors.New("the journal cannot be written")

// Recorder journals acts. The zero Recorder records nothing: a journal that
// could not be opened was reported already, and does not stop the work.
type Recorder struct {
	Journal *journal.Journal
	// Deployment is the profile and the service every entry is about.
	Deployment journal.Deployment
	// Warn hears of an outcome that could not be recorded (the act is
	// done); nil ignores it.
	Warn func(error)
	// Ledger says which writes the deployment applied, for Check; nil
	// when it cannot say (a real deployment).
	Ledger Ledger
	// ReadOnly, when set, is the refusal of every act: nothing is
	// written, signed or sent, and nothing is journaled (a read-only
	// profile).
	ReadOnly error

	appended atomic.Uint64
	marks    sync.Map // write id -> the Ledger's Mark before it was sent
}

// Appended counts the entries recorded so far, so that a reader of the
// journal can tell cheaply when to read it again.
func (r *Recorder) Appended() uint64 {
	if r == nil {
		return 0
	}
	return r.appended.Load()
}

// Before records entry ahead of the act it describes; when that fails the
// act must not happen.
func (r *Recorder) Before(entry journal.Entry) error {
	if r == nil || r.Journal == nil {
		return nil
	}
	entry = r.Deployment.Stamp(entry)
	if err := r.Journal.Append(entry); err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	r.appended.Add(1)
	return nil
}

// After records what happened; failing to is a warning, not an error.
func (r *Recorder) After(entry journal.Entry) {
	if err := r.Before(entry); err != nil && r.Warn != nil {
		r.Warn(err)
	}
}

// Write journals a write request, sends it, and journals the outcome: the
// answer, a refusal, or that the answer never came. An unknown outcome is
// never retried here: the user decides, knowing it may have applied. ref
// says what the write is about (an action, an allocation id, a file).
func (r *Recorder) Write(op, ref string, body any, send func() (status string, result any, err error)) error {
	if err := r.refusal(); err != nil {
		return err
	}
	data, _ := json.Marshal(body)
	id := writeID()
	if err := r.Before(journal.Entry{Kind: journal.KindRequest, Op: op, Ref: ref, Write: id, Data: data}); err != nil {
		return fmt.Errorf("%s: not sent: %w", op, err)
	}
	r.mark(id)
	status, result, err := send()
	outcome := journal.Entry{Kind: journal.KindOutcome, Op: op, Ref: ref, Write: id, Status: status}
	if err == nil && result != nil {
		outcome.Data, _ = json.Marshal(result)
	}
	switch {
	case Unknown(err):
		outcome.Status = StatusUnknown
		err = &UnknownError{Op: op, Ref: ref, Write: id, Body: data, Err: err}
	case err != nil:
		outcome.Status = "failed"
	}
	if outcome.Status != StatusUnknown {
		r.unmark(id)
	}
	r.After(outcome)
	return err
}

// refusal is the read-only refusal, if the recorder has one.
func (r *Recorder) refusal() error {
	if r == nil {
		return nil
	}
	return r.ReadOnly
}

// writeID ties a request's entry to its outcome's.
func writeID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// UnknownError is a write that may have been applied: its answer never
// came, or came unreadable. Every screen and command tells it apart from
// a refusal through Unknown, and never sends the write again by itself.
type UnknownError struct {
	Op, Ref string
	Write   string // the journal's id of the write, for Check
	Body    []byte // the bytes sent
	Err     error
}

// Sent is the write, for Check and a resend.
func (e *UnknownError) Sent() Sent {
	return Sent{Op: e.Op, Ref: e.Ref, Write: e.Write, Body: e.Body}
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("%v; the journal records it as unknown: find out whether it was before sending it again", e.Err)
}

func (e *UnknownError) Unwrap() error { return e.Err }

// Unknown reports whether err leaves a write's outcome unknown: no answer
// came, or one that cannot be read with a success or a gateway's status
// (the service may have applied the write). It is the one rule for every
// write, in the dashboard and the command line.
func Unknown(err error) bool {
	var journaled *UnknownError
	var unknown *api.OutcomeUnknownError
	var unreadable *api.UnexpectedResponseError
	return errors.As(err, &journaled) || errors.As(err, &unknown) ||
		errors.As(err, &unreadable) && (unreadable.Status < 300 || unreadable.Status >= 500)
}

// Settle records what a check found out about a write whose outcome was
// unknown (status: StatusApplied or StatusNotApplied): the journal then
// lists it as that, no longer as unknown. write is the request's id.
func (r *Recorder) Settle(op, ref, write, status string) {
	if write == "" {
		return // a request journaled before writes had ids: it stays unknown
	}
	r.After(journal.Entry{Kind: journal.KindOutcome, Op: op, Ref: ref, Write: write, Status: status})
}

// What a check found about a write whose answer was lost.
const (
	StatusApplied    = journal.StatusApplied
	StatusNotApplied = journal.StatusNotApplied
)

// StatusResent settles a write whose answer was lost when the user sends
// it again: the later request is the one to follow; this one may have
// been applied too.
const StatusResent = journal.StatusResent

// Resent records that the user sends w, whose outcome is unknown, again:
// from then on it is settled as StatusResent, no longer unknown.
func (r *Recorder) Resent(w Sent) { r.Settle(w.Op, w.Ref, w.Write, StatusResent) }

// StatusUnknown marks an outcome that never arrived.
const StatusUnknown = journal.StatusUnknown

// The writes, one workflow each, for the command line and the dashboard
// alike: each is journaled before it is sent and its outcome after.

// CreateTransaction creates the transaction(s) of req (transactions/create).
func (r *Recorder) CreateTransaction(ctx context.Context, client *api.Client, req api.TransactionRequest) (*api.TransactionsResult, error) {
	return send(ctx, r, client, write.Transaction, req.Action(), req)
}

// CreateSchedule creates an unlock schedule (schedules/create).
func (r *Recorder) CreateSchedule(ctx context.Context, client *api.Client, req api.ScheduleRequest) (*api.Schedule, error) {
	return send(ctx, r, client, write.Schedule, req.Name, req)
}

// CreativeUploadURL asks where to upload a creative. The answer is not
// journaled: an upload URL is a capability. ref names the file.
func (r *Recorder) CreativeUploadURL(ctx context.Context, client *api.Client, ref string, req api.UploadURLRequest) (*api.UploadURL, error) {
	return send(ctx, r, client, write.UploadURL, ref, req)
}

// RegisterCreative registers an uploaded creative (creatives/create); ref
// names the file.
func (r *Recorder) RegisterCreative(ctx context.Context, client *api.Client, ref string, req api.CreateCreativeRequest) (*api.Creative, error) {
	return send(ctx, r, client, write.Creative, ref, req)
}

// RequestClaim asks the service for the claim transactions of an
// allocation (allocations/{id}/claim).
func (r *Recorder) RequestClaim(ctx context.Context, client *api.Client, allocationID string, req api.ClaimRequest) (*api.ClaimResult, error) {
	return send(ctx, r, client, write.Claim, allocationID, req)
}

// send is the workflow of a write of kind d about ref: journaled (Write),
// sent as the registry says, its answer recorded as the kind keeps it.
func send[Req, Res any](ctx context.Context, r *Recorder, client *api.Client, d *write.Def[Req, Res], ref string, req Req) (Res, error) {
	var res Res
	err := r.Write(d.Op, ref, req, func() (string, any, error) {
		var err error
		if res, err = d.Send(ctx, client, ref, req); err != nil {
			return "", nil, err
		}
		status, kept := d.Outcome(res)
		return status, kept, nil
	})
	return res, err
}

// Resend sends w, a write whose answer was lost, again with the same
// bytes, journaled as a write of its own; the caller recorded Resent
// first. It returns the answer in lines, as the write's kind says it. A
// kind that is not sent again, or a body that does not encode back to
// the bytes sent, is refused before anything is journaled.
func (r *Recorder) Resend(ctx context.Context, client *api.Client, w Sent) ([]string, error) {
	k, ok := write.Of(w.Op)
	if !ok {
		return nil, fmt.Errorf("%s: not a write allot sends", w.Op)
	}
	if err := k.Refuses(w.Ref, w.Body); err != nil {
		return nil, err
	}
	var said []string
	err := r.Write(w.Op, w.Ref, json.RawMessage(w.Body), func() (string, any, error) {
		status, kept, lines, err := k.Send(ctx, client, w.Ref, w.Body)
		said = lines
		return status, kept, err
	})
	return said, err
}

// The operations writes are journaled under, as the registry names them
// (core/write).
const (
	OpTransaction = write.OpTransaction
	OpSchedule    = write.OpSchedule
	OpUploadURL   = write.OpUploadURL
	OpCreative    = write.OpCreative
	OpClaim       = write.OpClaim
)

// SignIn signs the portal's sign-in message text with signer and sends it,
// journaling the message before it is signed (never the key or the token).
// The caller has shown text to the user.
func (r *Recorder) SignIn(ctx context.Context, portal *wallet.Portal, text string, signer wallet.Signer) (wallet.Session, error) {
	if err := r.refusal(); err != nil {
		return wallet.Session{}, err
	}
	addr := signer.Address().Hex()
	data, _ := json.Marshal(map[string]string{"address": addr, "message": text})
	if err := r.Before(journal.Entry{Kind: journal.KindSignature, Op: "signin", Ref: addr, Data: data}); err != nil {
		return wallet.Session{}, fmt.Errorf("sign in: not signed: %w", err)
	}
	sess, err := portal.SignIn(ctx, text, signer)
	outcome := journal.Entry{Kind: journal.KindOutcome, Op: "signin", Ref: addr, Status: "signed-in"}
	if err != nil {
		outcome.Status = "failed"
	} else {
		outcome.Data, _ = json.Marshal(map[string]string{"expiration": isotime.Format(sess.Expiration)})
	}
	r.After(outcome)
	return sess, err
}

// Signed is a signed transaction as shown before it is sent and as
// journaled (without the raw bytes).
type Signed struct {
	Op                   string             `json:"op"`
	Hash                 common.Hash        `json:"hash"`
	From                 wallet.Checksummed `json:"from"` // as every screen writes it
	ChainID              uint64             `json:"chainId"`
	Nonce                uint64             `json:"nonce"`
	Gas                  uint64             `json:"gas"`
	GasEstimated         bool               `json:"gasEstimated"`
	MaxFeePerGas         string             `json:"maxFeePerGas"`         // wei
	MaxPriorityFeePerGas string             `json:"maxPriorityFeePerGas"` // wei
	Raw                  string             `json:"raw,omitempty"`
	Summary              *wallet.Summary    `json:"summary"`

	Tx *types.Transaction `json:"-"`
}

// Batch is transactions about one subject (an allocation, a pool), signed
// in order with consecutive nonces.
type Batch struct {
	Subject string
	Ops     []string // per draft: claim, approve, stake
	Drafts  []*wallet.Draft
}

// Sign signs every draft of b, journaling each signed transaction (what
// was signed, never the key) before it is kept.
func (r *Recorder) Sign(b Batch, signer wallet.Signer) ([]Signed, error) {
	if err := r.refusal(); err != nil {
		return nil, err
	}
	signed := make([]Signed, len(b.Drafts))
	for i, d := range b.Drafts {
		tx, err := d.Sign(signer)
		if err != nil {
			return nil, err
		}
		raw, _ := tx.MarshalBinary() // a signed dynamic-fee transaction always encodes
		signed[i] = Signed{
			Op: b.Ops[i], Hash: tx.Hash(), From: wallet.Checksummed(d.From), ChainID: tx.ChainId().Uint64(), Nonce: tx.Nonce(),
			Gas: tx.Gas(), GasEstimated: d.GasEstimated,
			MaxFeePerGas: tx.GasFeeCap().String(), MaxPriorityFeePerGas: tx.GasTipCap().String(),
			Raw: hexutil.Encode(raw), Summary: d.Summary, Tx: tx,
		}
		record := struct {
			Subject string `json:"subject"`
			Signed
		}{b.Subject, signed[i]}
		record.Raw = ""
		data, _ := json.Marshal(record)
		if err := r.Before(journal.Entry{Kind: journal.KindSignature, Op: b.Ops[i], Ref: tx.Hash().Hex(), Data: data}); err != nil {
			return nil, fmt.Errorf("%s transaction %d: the signed transaction was discarded: %w", b.Ops[i], i+1, err)
		}
	}
	return signed, nil
}

// Refused journals a claim or a stake the signing policy refused: what it
// was about (op: claim, stake; subject: an allocation or pool id) and every
// reason. err is returned as it was; a refusal that could not be journaled
// is only a warning, since nothing was signed.
func (r *Recorder) Refused(op, subject string, err error) error {
	var refused *wallet.RefusedError
	if !errors.As(err, &refused) {
		return err
	}
	data, _ := json.Marshal(map[string]any{"subject": refused.Subject, "reasons": refused.Reasons, "unchecked": refused.Unchecked})
	r.After(journal.Entry{Kind: journal.KindRefusal, Op: op, Ref: subject, Data: data})
	return err
}

// Seen reports which contracts the journal saw signed for before: the
// targets of the transactions it recorded, of every profile. The pin
// question tells it as a fact about the contract; it vouches for nothing
// (only pins do). The journal's signatures are read once, when Seen is
// called (its index finds them); nil when there is no journal to read.
func (r *Recorder) Seen() func(common.Address) bool {
	if r == nil || r.Journal == nil {
		return nil
	}
	signatures, err := r.Journal.Entries(journal.Match{Kind: journal.KindSignature})
	if err != nil {
		return nil
	}
	seen := map[common.Address]bool{}
	for _, e := range signatures {
		var rec struct {
			Summary struct {
				To common.Address `json:"to"`
			} `json:"summary"`
		}
		if json.Unmarshal(e.Data, &rec) == nil && rec.Summary.To != (common.Address{}) {
			seen[rec.Summary.To] = true
		}
	}
	return func(a common.Address) bool { return seen[a] }
}

// Send sends the signed transactions in order and returns the status of
// each one sent. It stops at the first that fails: the ones after it take
// later nonces and could not be mined. A transaction whose answer was lost
// is journaled as unknown, and the error says to look for it.
func (r *Recorder) Send(ctx context.Context, node wallet.Node, subject string, signed []Signed) ([]wallet.Status, error) {
	if err := r.refusal(); err != nil {
		return nil, err
	}
	var statuses []wallet.Status
	for i, st := range signed {
		entry := func(status string) journal.Entry {
			data, _ := json.Marshal(map[string]any{"subject": subject, "from": st.From, "nonce": st.Nonce, "chainId": st.ChainID})
			return journal.Entry{Kind: journal.KindTransaction, Op: st.Op, Ref: st.Hash.Hex(), Status: status, Data: data}
		}
		if err := r.Before(entry("sending")); err != nil {
			return statuses, fmt.Errorf("%s transaction %s: not sent: %w", st.Op, st.Hash.Hex(), err)
		}
		if err := wallet.Send(ctx, node, st.Tx); err != nil {
			var refused rpc.Error
			if errors.As(err, &refused) {
				r.After(entry("failed"))
				return statuses, fmt.Errorf("%s transaction %d: the node refused it: %w", st.Op, i+1, err)
			}
			r.After(entry(StatusUnknown))
			return statuses, fmt.Errorf("%s transaction %d: %w; the node may have taken it: look for %s on the chain before sending again",
				st.Op, i+1, err, st.Hash.Hex())
		}
		r.After(entry(string(wallet.StatePending)))
		statuses = append(statuses, wallet.Status{Hash: st.Hash, State: wallet.StatePending})
	}
	return statuses, nil
}

// Final journals a followed transaction's last status.
func (r *Recorder) Final(op string, st wallet.Status) {
	data, _ := json.Marshal(st)
	r.After(journal.Entry{Kind: journal.KindTransaction, Op: op, Ref: st.Hash.Hex(), Status: string(st.State), Data: data})
}
