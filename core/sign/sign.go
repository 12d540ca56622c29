// Package sign is the one signing path of allot: the dashboard's review
// and the commands that sign both prepare what is to be signed here, so
// that a claim or a stake is held to the same policy, with the same pins,
// whichever interface asked.
package sign

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/core/session"
	"allot/wallet"
)

// Check applies the signing policy to calls, held to pins: a claim's or a
// stake's (session.ClaimCheck, session.StakeCheck).
type Check func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error)

// Request is calls that From is asked to sign, about one subject.
type Request struct {
	Op      string // what it is: claim, stake; the journal's op of a refusal
	Subject string // what it is about: an allocation id, a pool id
	Calls   []wallet.Call
	From    common.Address
	// Labels name contracts the profile's tokens do not list (the token a
	// pool stakes), so that calling them is no surprise in the review.
	Labels map[common.Address]string
	Check  Check
}

// Review is what Prepare made of a request, for the user to read before
// anything is signed: each call decoded, and either the policy's refusal
// (journaled; nothing can be signed) or what it established and the
// transactions built from the approved calls.
type Review struct {
	Summaries []*wallet.Summary // per call; the drafts' own when built
	Drafts    []*wallet.Draft   // none when refused
	Facts     []wallet.Line     // what the policy established
	// Refusal is the policy's *wallet.RefusedError, journaled.
	Refusal error
	// PinsFrom says where the pins the policy held the calls to were
	// read, at this review (session.PinsSource).
	PinsFrom string
}

// Prepare is the signing path up to the signature, the same for every
// interface: resolve what is signed (the chain, the contracts it names),
// read the policy's inputs as they are now (the profile's pins from its
// file, the chain's state, read by the check), check, journal a refusal,
// apply the profile's gas ceiling and build. A new rule that refuses
// signing before anything is read (a read-only profile, ...) goes here.
// Only Sign turns the review's drafts into signatures.
func Prepare(ctx context.Context, sess *session.Session, rec *act.Recorder, r Request) (Review, error) {
	if err := sess.Writable(); err != nil {
		return Review{}, err
	}
	if err := sess.NeedChain("signing"); err != nil {
		return Review{}, err
	}
	known, err := sess.KnownContracts(ctx)
	if err != nil {
		return Review{}, err
	}
	for addr, label := range r.Labels {
		if _, ok := known[addr]; !ok {
			known[addr] = label
		}
	}
	rv := Review{PinsFrom: sess.PinsSource()}
	units := callUnits(sess.ContractUnits(ctx), r)
	opts := wallet.DecodeOptions{Signer: r.From, ChainID: sess.Profile.ChainID, Known: known, Chain: sess.Chain, Units: units}
	for _, call := range r.Calls {
		rv.Summaries = append(rv.Summaries, wallet.DecodeCall(ctx, call, opts))
	}
	pins, err := sess.SigningPins(ctx)
	if err != nil {
		return rv, err
	}
	approval, err := r.Check(ctx, pins, r.Calls)
	if refused(err) {
		rv.Refusal = rec.Refused(r.Op, r.Subject, err)
		return rv, nil
	}
	if err != nil {
		return rv, err
	}
	rv.Facts = approval.Facts
	maxGasFee, err := sess.Profile.GasCeiling()
	if err != nil {
		return rv, fmt.Errorf("profile %q: %w", sess.Name, err)
	}
	// Build decodes the calls again (Draft.Summary), against the approved
	// ones: the review reads that decoding. It refuses what gas would cost
	// above the profile's ceilings, and what the account cannot pay, as
	// the policy refuses.
	buildOpts := wallet.BuildOptions{ChainID: sess.Profile.ChainID, From: r.From, Known: known, Units: units, MaxGasFee: maxGasFee}
	drafts, err := wallet.Build(ctx, sess.Chain, approval, buildOpts)
	if refused(err) {
		rv.Refusal = rec.Refused(r.Op, r.Subject, err)
		return rv, nil
	}
	if err != nil {
		return rv, err
	}
	rv.Drafts, rv.Summaries = drafts, rv.Summaries[:0]
	for _, d := range drafts {
		rv.Summaries = append(rv.Summaries, d.Summary)
	}
	return rv, nil
}

// Sign signs the drafts of a review the user confirmed, in order, journaling
// each signature (act.Recorder.Sign); ops name each draft (claim, approve,
// stake).
func Sign(rec *act.Recorder, subject string, ops []string, rv Review, signer wallet.Signer) ([]act.Signed, error) {
	if rv.Refusal != nil || len(rv.Drafts) == 0 {
		return nil, errors.New("nothing approved to sign")
	}
	return rec.Sign(act.Batch{Subject: subject, Ops: ops, Drafts: rv.Drafts}, signer)
}

func refused(err error) bool {
	var r *wallet.RefusedError
	return errors.As(err, &r)
}

// callUnits names the token each call's amounts are in: a listed
// contract's (session.ContractUnits), and a contract the request labels
// (the token a pool stakes, approved for it) the one token the listed
// contracts of the request are in, when they agree.
func callUnits(listed map[common.Address]string, r Request) map[common.Address]string {
	units := map[common.Address]string{}
	batch, agree := "", true
	for _, c := range r.Calls {
		if unit, ok := listed[c.To]; ok {
			units[c.To] = unit
			agree = agree && (batch == "" || unit == batch)
			batch = unit
		}
	}
	if !agree {
		batch = ""
	}
	for addr := range r.Labels {
		if _, ok := listed[addr]; !ok {
			units[addr] = batch
		}
	}
	return units
}
