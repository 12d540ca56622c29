package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/wallet"
)

var claimCommand = command{
	name:    "claim",
	args:    "(ALLOCATION_ID | --all --wallet ADDR | --ids A,B,...) --sender ADDR [--amount X] [--country CC] [--sign --account ADDR [--keystore DIR] [--passphrase-file FILE] [--send [--wait] [--yes]]] [--owner KEY [--proposal FILE] [--tx-builder FILE] [--multisend ADDR] [--yes]] [-o json]",
	summary: "build the claim transaction(s) of an allocation, or of several (--all, --ids); with --sign, check, sign and send them",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a claimArgs
		var safeAct safeActFlags
		fs.StringVar(&a.sender, "sender", "", "wallet `ADDR` that claims (required; with --sign, default: --account)")
		fs.StringVar(&a.amount, "amount", "", "amount `X` to claim in tokens (default: all that is claimable now)")
		fs.StringVar(&a.country, "country", "", "the claimer's ISO 3166-1 alpha-2 country `CC`")
		fs.BoolVar(&a.sign, "sign", false, "decode, check and sign the claim's transaction(s) with a keystore account; what the signing policy refuses is never signed, and no flag overrides it")
		fs.StringVar(&a.account, "account", "", "with --sign: keystore account `ADDR` that signs (default: --sender)")
		declareKeystore(fs, &a.ks)
		declareTx(fs, &a.tx)
		declareSafeAct(fs, &safeAct)
		declareOutput(fs, &a.out)
		var batch batchFlags
		declareBatch(fs, &batch)
		return func(ctx context.Context, args []string) error {
			if batch.set() {
				return e.claimBatch(ctx, a, batch, args)
			}
			if len(args) != 1 {
				return usagef("takes one allocation id")
			}
			a.allocation = args[0]
			if safeAct.owner != "" {
				return e.safeClaim(ctx, a, safeAct) // safe_acts.go
			}
			return e.claim(ctx, a)
		}
	},
}

// claimArgs is what `allot claim` was asked, as its flags and argument
// say it.
type claimArgs struct {
	allocation string
	sender     string
	amount     string // in tokens; empty: all that is claimable
	country    string
	// sign: sign the claim's calls with the keystore account, and as tx
	// says, send them.
	sign    bool
	account string
	ks      keystoreFlags
	tx      txFlags
	out     format
}

// claimOrder is a claim resolved: the request checked, the amount asked
// in base units (nil: all that is claimable), and with --sign the account
// that signs.
type claimOrder struct {
	allocation string
	req        api.ClaimRequest
	asked      *big.Int
	signer     common.Address
}

// claim resolves a claim, finds the signing account, asks the service for
// the claim's transactions and prints them; with --sign it signs them and
// as the flags ask sends them.
func (e *env) claim(ctx context.Context, a claimArgs) error {
	// The outlook, the policy and the review each need the contract list.
	ctx = session.ReadListsOnce(ctx)
	o, err := a.resolve(e)
	if err != nil {
		return err
	}
	need := opening{write: true}
	if a.sign {
		need.chain = "claim --sign"
	}
	s, err := e.open(ctx, need)
	if err != nil {
		return err
	}
	var acct *signingAccount
	if a.sign {
		// Found before the claim is asked for.
		if acct, err = openAccount(ctx, e, a.ks, o.signer); err != nil {
			return err
		}
		defer acct.lock()
	}
	if err := e.claimOutlook(ctx, s, o.allocation, o.asked); err != nil {
		return err
	}
	res, err := s.rec.RequestClaim(ctx, s.API, o.allocation, o.req)
	if err != nil && acct != nil && session.SenderRefused(err) {
		return e.selfBuiltClaim(ctx, s, acct, o, a, err)
	}
	if err != nil {
		return withDemoAllocations(s, err)
	}
	if acct == nil {
		if a.out == formatJSON {
			return writeJSON(e.Stdout, res)
		}
		writeClaim(e.Stdout, res)
		return nil
	}
	b, err := o.plan(ctx, s, acct, res)
	if err != nil {
		return err
	}
	return e.transact(ctx, s, acct, b, a.tx, a.out)
}

// claimOutlook reads the allocation's record on the vester, on a profile
// with a chain, before the claim is asked for: a claim the vester's record
// blocks (revoked, nothing left, a vester with nothing to pay) is refused
// with nothing sent, as the claim form refuses it (wallet.ClaimOutlook);
// what a claim should know first is said on stderr. A record that cannot
// be read blocks nothing here: the signing policy reads it again.
func (e *env) claimOutlook(ctx context.Context, s *opened, id string, asked *big.Int) error {
	if s.Chain == nil {
		return nil
	}
	v, err := s.CheckAllocation(ctx, id)
	if err != nil {
		return nil
	}
	unit := cmp.Or(s.VesterUnits(ctx)(v.Vester), "tokens")
	o := v.ClaimOutlook(unit)
	if o.Blocked != "" {
		return fmt.Errorf("allocation %s: no claim can be signed: %s; nothing was sent", id, o.Blocked)
	}
	if c := v.Claimable(); asked != nil && c != nil && asked.Cmp(c) > 0 {
		return fmt.Errorf("--amount %s %s is more than the %s %s claimable now from allocation %s; nothing was sent",
			wallet.FormatTokens(asked), unit, wallet.FormatTokens(c), unit, id)
	}
	for _, n := range o.Notes {
		fmt.Fprintln(e.Stderr, "note: "+sanitize.Line(n))
	}
	return nil
}

// resolve checks the flags before anything is sent: the signing flags,
// --sender and --account naming one account (one is the other when left
// out: the claim is built for the account that signs it), the country,
// and the amount rule.
func (a claimArgs) resolve(e *env) (claimOrder, error) {
	if err := a.resolveSigning(e); err != nil {
		return claimOrder{}, err
	}
	o := claimOrder{allocation: a.allocation, req: api.ClaimRequest{Sender: a.sender}}
	if a.country != "" {
		// Checked as typed, so that the error names what was typed.
		code, err := api.CountryCode("userCountryCode", a.country)
		if err != nil {
			return claimOrder{}, typed(err, map[string]string{"userCountryCode": "--country"})
		}
		o.req.UserCountryCode = code
	}
	if a.amount != "" {
		amount, err := api.ParseTokenAmount(a.amount)
		if err != nil {
			return claimOrder{}, usagef("--amount: %v", err)
		}
		o.req.Amount = &amount
	}
	if err := o.req.Validate(a.allocation); err != nil {
		return claimOrder{}, typed(err, map[string]string{"id": "allocation id", "sender": "--sender", "userCountryCode": "--country", "amount": "--amount"})
	}
	var err error
	if o.req.Amount != nil {
		if o.asked, err = api.BaseUnits(o.req.Amount.Decimal); err != nil {
			return claimOrder{}, usagef("--amount: %v", err)
		}
	}
	if a.sign {
		if o.signer, err = parseAddress("account", a.account); err != nil {
			return claimOrder{}, err
		}
	}
	return o, nil
}

// resolveSigning refuses a signing flag without --sign, and with it fills
// in --sender or --account from the other.
func (a *claimArgs) resolveSigning(e *env) error {
	if !a.sign {
		for _, f := range []struct {
			name string
			set  bool
		}{{"account", a.account != ""}, {"send", a.tx.send}, {"wait", a.tx.wait}, {"yes", a.tx.yes},
			{"keystore", a.ks.dir != ""}, {"passphrase-file", a.ks.passphraseFile != ""}} {
			if f.set {
				return usagef("claim: --%s needs --sign", f.name)
			}
		}
		return nil
	}
	switch {
	case a.account == "":
		a.account = a.sender
	case a.sender == "":
		a.sender = a.account
	case common.IsHexAddress(a.sender) && common.IsHexAddress(a.account) &&
		common.HexToAddress(a.sender) != common.HexToAddress(a.account):
		return usagef("claim: --sender %s is not the signing --account %s", a.sender, a.account)
	}
	return a.tx.check(e, "claim")
}

// writeClaim prints the unsigned claim transactions as a list. The type,
// the transaction ids and a raw instruction are the service's text, so
// they are sanitized as the table's cells and fields' values are.
func writeClaim(w io.Writer, res *api.ClaimResult) {
	fmt.Fprintf(w, "%s, %d transaction group(s)\n", sanitize.Line(res.Type), len(res.Parameters))
	for _, group := range res.Parameters {
		fmt.Fprintf(w, "transaction %s\n", sanitize.Line(group.TransactionID))
		for i, ins := range group.Instructions {
			evm, ok := ins.EVM()
			if !ok {
				fmt.Fprintf(w, "  %d: not an EVM call; shown raw: %s\n", i, sanitize.Line(string(ins.Raw)))
				continue
			}
			fields(w, "  chain", fmt.Sprint(evm.ChainID), "  from", evm.From, "  to", evm.To,
				"  value (wei)", evm.Value, "  data", fmt.Sprintf("%d bytes", (len(evm.Data)-2)/2))
		}
	}
}

// selfBuiltClaim builds the claim the service refused to build for the
// sender (refused) from the allocation's proof and the chain's claim fee,
// says so, and signs it as the service's would be signed: under the same
// policy, after the same review (docs/deployment.md D19).
func (e *env) selfBuiltClaim(ctx context.Context, s *opened, acct *signingAccount, o claimOrder, a claimArgs, refused error) error {
	calls, err := s.SelfBuiltClaim(ctx, o.allocation, acct.address, o.asked)
	if err != nil {
		return fmt.Errorf("%w; allot did not build it either: %w", refused, err)
	}
	fmt.Fprintf(e.Stderr, "allot: the service would not build this claim for %s (%s); allot built the same withdraw from the allocation's proof and the chain's claim fee, and the signing policy checks it as any claim\n",
		acct.address.Hex(), sanitize.Truncate(refused.Error(), 200))
	b, err := o.planCalls(ctx, s, acct, calls)
	if err != nil {
		return err
	}
	return e.transact(ctx, s, acct, b, a.tx, a.out)
}

// plan is what signing the service's claim means: its calls, each a
// claim, and the signing policy's check that they claim no more than was
// asked, for the account that signs. A claim with an instruction that is
// not an EVM call is refused whole.
func (o claimOrder) plan(ctx context.Context, s *opened, acct *signingAccount, res *api.ClaimResult) (txBatch, error) {
	calls, err := wallet.ClaimCalls(res)
	if err != nil {
		return txBatch{}, err
	}
	return o.planCalls(ctx, s, acct, calls)
}

// planCalls is plan of calls, the service's or allot's own.
func (o claimOrder) planCalls(ctx context.Context, s *opened, acct *signingAccount, calls []wallet.Call) (txBatch, error) {
	known, err := s.KnownContracts(ctx)
	if err != nil {
		return txBatch{}, err
	}
	ops := make([]string, len(calls))
	for i := range ops {
		ops[i] = "claim"
	}
	check := s.ClaimCheck(o.allocation, acct.address, o.asked)
	return txBatch{subject: o.allocation, op: "claim", ops: ops, calls: calls, known: known, check: check}, nil
}
