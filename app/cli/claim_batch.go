package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/wallet"
)

// batchFlags are the flags that make `allot claim` a batch: every
// claimable allocation of a holder, or the allocations listed
// (docs/deployment.md D19).
type batchFlags struct {
	all    bool
	wallet string
	ids    listFlag
}

func declareBatch(fs *flag.FlagSet, b *batchFlags) {
	fs.BoolVar(&b.all, "all", false, "claim every claimable allocation of --wallet among those followed (and the embedded sandbox's demo ones), after one review")
	fs.StringVar(&b.wallet, "wallet", "", "with --all: the holder `ADDR` whose allocations are claimed (where their tokens go)")
	fs.Var(&b.ids, "ids", "claim the allocations `A,B,...` together, after one review")
}

func (b batchFlags) set() bool { return b.all || b.wallet != "" || len(b.ids) > 0 }

// check refuses what a batch cannot take: an allocation argument, an
// amount (a batch claims all that is claimable of each), --all and --ids
// together, --all without --wallet.
func (b batchFlags) check(a claimArgs, args []string) error {
	switch {
	case len(args) > 0:
		return usagef("claim: --all and --ids take no ALLOCATION_ID argument")
	case a.amount != "":
		return usagef("claim: --amount is for one allocation; a batch claims all that is claimable of each")
	case b.all && len(b.ids) > 0:
		return usagef("claim: give --all or --ids, not both")
	case b.all && b.wallet == "":
		return usagef("claim: --all needs --wallet ADDR, the holder whose allocations are claimed")
	case !b.all && len(b.ids) == 0:
		return usagef("claim: --wallet needs --all")
	case len(b.ids) > session.MaxBatch:
		return usagef("claim: --ids lists %d allocations; a batch takes at most %d", len(b.ids), session.MaxBatch)
	}
	for _, id := range b.ids {
		if err := api.CheckUUID("--ids", id); err != nil {
			return usageError{msg: err.Error()}
		}
	}
	return nil
}

// claimBatch claims several allocations after one review: those of
// --ids, or every claimable one of --wallet among those followed. It
// reads what each has to claim from the chain, asks the service for each
// claim (or builds it where the service refuses the sender), puts the
// withdraws of a vester with no fee due into one multicall and the others
// one transaction each, and with --sign signs and sends them as a claim
// alone is, under the batch's signing policy. A failure names its
// allocation and the rest are reported; nothing is retried.
func (e *env) claimBatch(ctx context.Context, a claimArgs, b batchFlags, args []string) error {
	if err := b.check(a, args); err != nil {
		return err
	}
	var holder *common.Address
	if b.wallet != "" {
		addr, err := parseAddress("wallet", b.wallet)
		if err != nil {
			return err
		}
		holder = &addr
	}
	if err := a.resolveSigning(e); err != nil {
		return err
	}
	sender, err := parseAddress("sender", a.sender)
	if err != nil {
		return err
	}
	if a.country != "" {
		if a.country, err = api.CountryCode("userCountryCode", a.country); err != nil {
			return typed(err, map[string]string{"userCountryCode": "--country"})
		}
	}
	s, err := e.open(ctx, opening{write: true, chain: "claim --all/--ids"})
	if err != nil {
		return err
	}
	var acct *signingAccount
	if a.sign {
		if acct, err = openAccount(ctx, e, a.ks, sender); err != nil {
			return err
		}
		defer acct.lock()
	}
	ids, err := e.batchCandidates(s, b)
	if err != nil {
		return err
	}
	claim, skipped := s.ClaimableOf(ctx, ids, holder)
	for _, sk := range skipped {
		fmt.Fprintf(e.Stderr, "allot: skipped allocation %s: %s\n", sanitize.Line(sk.ID), sanitize.Line(sk.Why))
	}
	if len(b.ids) > 0 && len(skipped) > 0 {
		return fmt.Errorf("%d of the %d allocations of --ids cannot be claimed now (see above); nothing was sent: drop them from --ids", len(skipped), len(b.ids))
	}
	if len(claim) == 0 {
		return errors.New("no allocation to claim now; nothing was sent")
	}
	if len(claim) > session.MaxBatch {
		return fmt.Errorf("%d allocations are claimable; a batch takes at most %d: claim them with --ids, a batch at a time", len(claim), session.MaxBatch)
	}
	batch, err := s.BuildClaimBatch(ctx, s.rec, claimIDs(claim), sender, a.country)
	if err != nil {
		return err
	}
	for _, id := range batch.SelfBuilt {
		fmt.Fprintf(e.Stderr, "allot: the service would not build the claim of %s for %s; allot built the same withdraw from the allocation's proof and the chain's claim fee, and the signing policy checks it as any claim\n", id, sender.Hex())
	}
	writeBatchPlan(e, claim, batch)
	if acct == nil {
		return e.printBatch(batch, skipped, a.out)
	}
	return e.sendBatch(ctx, s, acct, batch, skipped, a)
}

// batchCandidates are the allocations a batch looks at: --ids, or those
// allot knows that may be the holder's (session.HolderCandidates: on the
// embedded sandbox its demo allocations, then the followed ones).
func (e *env) batchCandidates(s *opened, b batchFlags) ([]string, error) {
	if len(b.ids) > 0 {
		return slices.Compact(slices.Clone(b.ids)), nil
	}
	follows, j := e.follows(s)
	ids, err := s.HolderCandidates(follows)
	if err != nil {
		fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
	}
	if len(ids) == 0 {
		return nil, noAllocations(s, j, "claim")
	}
	return ids, nil
}

func claimIDs(claim []session.Claimable) []string {
	ids := make([]string, len(claim))
	for i, c := range claim {
		ids[i] = c.ID
	}
	return ids
}

// writeBatchPlan says on stderr what the batch claims, before any
// review: each allocation's amount and where it goes, and how the calls
// carry them.
func writeBatchPlan(e *env, claim []session.Claimable, b *session.ClaimBatch) {
	fmt.Fprintf(e.Stderr, "Claiming %d allocations:\n", len(claim))
	for _, c := range claim {
		fmt.Fprintf(e.Stderr, "  %s  %s %s to %s\n", sanitize.Line(c.ID), wallet.FormatTokens(c.Amount), sanitize.Line(c.Unit), c.Recipient.Hex())
	}
	for i, ids := range b.Claims {
		how := "a withdraw (a claim fee is due)"
		if len(ids) > 1 {
			how = fmt.Sprintf("one multicall of %d withdraws (no claim fee is due on any)", len(ids))
		}
		fmt.Fprintf(e.Stderr, "Transaction %d of %d: %s: %s\n", i+1, len(b.Calls), how, strings.Join(ids, ", "))
	}
}

// printBatch prints the batch's unsigned calls, each with the
// allocations it claims.
func (e *env) printBatch(b *session.ClaimBatch, skipped []session.Skipped, out format) error {
	if out == formatJSON {
		type call struct {
			Allocations []string `json:"allocations"`
			ChainID     uint64   `json:"chainId"`
			From        string   `json:"from"`
			To          string   `json:"to"`
			Data        string   `json:"data"`
			Value       string   `json:"value"`
		}
		calls := make([]call, len(b.Calls))
		for i, c := range b.Calls {
			calls[i] = call{b.Claims[i], c.ChainID, c.From.Hex(), c.To.Hex(), "0x" + common.Bytes2Hex(c.Data), c.Value.String()}
		}
		return writeJSON(e.Stdout, map[string]any{"calls": calls, "skipped": skippedJSON(skipped)})
	}
	for i, c := range b.Calls {
		fmt.Fprintf(e.Stdout, "transaction %d of %d: claims %s\n", i+1, len(b.Calls), strings.Join(b.Claims[i], ", "))
		fields(e.Stdout, "  chain", fmt.Sprint(c.ChainID), "  from", c.From.Hex(), "  to", c.To.Hex(),
			"  value (wei)", c.Value.String(), "  data", fmt.Sprintf("%d bytes", len(c.Data)))
	}
	_, err := fmt.Fprintln(e.Stdout, "Not signed: add --sign --send to claim them.")
	return err
}

func skippedJSON(skipped []session.Skipped) []map[string]string {
	out := make([]map[string]string, len(skipped))
	for i, s := range skipped {
		out[i] = map[string]string{"allocation": sanitize.Line(s.ID), "why": sanitize.Line(s.Why)}
	}
	return out
}

// sendBatch signs the batch on the one signing path, after one review
// and one question, and as the flags ask sends and follows it; then it
// says what became of each allocation. -o json adds to the transactions
// the allocations each one claims, and those skipped.
func (e *env) sendBatch(ctx context.Context, s *opened, acct *signingAccount, b *session.ClaimBatch, skipped []session.Skipped, a claimArgs) error {
	known, err := s.KnownContracts(ctx)
	if err != nil {
		return err
	}
	tb := txBatch{subject: "allocations " + strings.Join(b.IDs, ","), op: "claim", ops: b.Ops(), calls: b.Calls, known: known,
		check: s.ClaimBatchCheck(b.IDs, acct.address)}
	stdout := e.Stdout
	var buf bytes.Buffer
	if a.out == formatJSON {
		e.Stdout = &buf
	}
	statuses, err := e.transactStatuses(ctx, s, acct, tb, a.tx, a.out)
	e.Stdout = stdout
	if a.out == formatJSON && buf.Len() > 0 {
		var doc map[string]json.RawMessage
		if jerr := json.Unmarshal(buf.Bytes(), &doc); jerr != nil {
			return errors.Join(err, fmt.Errorf("claim: the transactions' JSON: %w", jerr))
		}
		claims, _ := json.Marshal(b.Claims)
		skip, _ := json.Marshal(skippedJSON(skipped))
		doc["allocations"], doc["skipped"] = claims, skip
		if werr := writeJSON(e.Stdout, doc); werr != nil {
			return errors.Join(err, werr)
		}
	}
	var refused rpc.Error
	if statuses == nil && err != nil && !errors.As(err, &refused) {
		return err // refused, declined, or failed before anything was sent
	}
	return batchOutcome(e, b, statuses, err)
}

// batchOutcome says on stderr what became of each allocation, and when
// something failed, returns an error that names the allocations it failed
// for and reports the rest. Nothing is sent again.
func batchOutcome(e *env, b *session.ClaimBatch, statuses []wallet.Status, err error) error {
	if len(statuses) == 0 && err == nil {
		return nil // signed, not sent
	}
	var failed, rest []string
	for i, ids := range b.Claims {
		names := strings.Join(ids, ", ")
		state := "not sent"
		if i == len(statuses) {
			state = "not sent: sending it failed"
		}
		if i < len(statuses) {
			st := statuses[i]
			state = string(st.State)
			if st.RevertReason != "" {
				state += ": " + st.RevertReason
			}
		}
		line := fmt.Sprintf("%s: %s", names, sanitize.Line(state))
		fmt.Fprintf(e.Stderr, "allocation %s\n", line)
		switch {
		case i > len(statuses):
			rest = append(rest, line)
		case i == len(statuses), statuses[i].State == wallet.StateReverted, statuses[i].State == wallet.StateDropped:
			failed = append(failed, line)
		default:
			rest = append(rest, line)
		}
	}
	if err == nil {
		return nil
	}
	if len(failed) == 0 {
		return err
	}
	msg := "the claim of allocation " + strings.Join(failed, "; ")
	if len(rest) > 0 {
		msg += "; the rest: " + strings.Join(rest, "; ")
	}
	return fmt.Errorf("%s (nothing is sent again: run allot claim for what is left): %w", msg, err)
}
