package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/sanitize"
	"allot/wallet"
)

var claimCommand = command{
	name:    "claim",
	args:    "ALLOCATION_ID --sender ADDR [--amount X] [--country CC] [--sign --account ADDR [--keystore DIR] [--passphrase-file FILE] [--send [--wait] [--yes]]] [-o json]",
	summary: "build the claim transaction(s) of an allocation; with --sign, check, sign and send them",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		sender := fs.String("sender", "", "wallet `ADDR` that claims (required; with --sign, default: --account)")
		amount := fs.String("amount", "", "amount `X` to claim in tokens (default: all that is claimable now)")
		country := fs.String("country", "", "the claimer's ISO 3166-1 alpha-2 country `CC`")
		signing := declareClaimSigning(fs)
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one allocation id")
			}
			if err := signing.resolve(e, sender); err != nil {
				return err
			}
			req := api.ClaimRequest{Sender: *sender}
			if *country != "" {
				// Checked as typed, so that the error names what was typed.
				code, err := api.CountryCode("userCountryCode", *country)
				if err != nil {
					return typed(err, map[string]string{"userCountryCode": "--country"})
				}
				req.UserCountryCode = code
			}
			if *amount != "" {
				a, err := api.ParseAmount(*amount)
				if err != nil {
					return usagef("--amount: %v", err)
				}
				req.Amount = &a
			}
			if err := req.Validate(args[0]); err != nil {
				return typed(err, map[string]string{"id": "allocation id", "sender": "--sender", "userCountryCode": "--country", "amount": "--amount"})
			}
			s, err := e.open(ctx, opening{write: true, chain: signing.chain()})
			if err != nil {
				return err
			}
			acct, err := signing.open(ctx, e)
			if err != nil {
				return err
			}
			if acct != nil {
				defer acct.lock()
			}
			res, err := s.rec.RequestClaim(ctx, s.API, args[0], req)
			if err != nil {
				return withDemoAllocations(s, err)
			}
			if acct != nil {
				var asked *big.Int
				if req.Amount != nil {
					if asked, err = api.BaseUnits(req.Amount.Decimal); err != nil {
						return usagef("--amount: %v", err)
					}
				}
				return signing.run(ctx, e, s, acct, args[0], asked, res, *out)
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, res)
			}
			writeClaim(e.Stdout, res)
			return nil
		}
	},
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

// claimSigning is what `allot claim` takes to sign the claim it builds.
type claimSigning struct {
	sign    *bool
	account *string
	ks      keystoreFlags
	tx      txFlags
}

func declareClaimSigning(fs *flag.FlagSet) *claimSigning {
	c := &claimSigning{
		sign:    fs.Bool("sign", false, "decode, check and sign the claim's transaction(s) with a keystore account; what the signing policy refuses is never signed, and no flag overrides it"),
		account: fs.String("account", "", "with --sign: keystore account `ADDR` that signs (default: --sender)"),
	}
	declareKeystore(fs, &c.ks)
	declareTx(fs, &c.tx)
	return c
}

// resolve checks the signing flags before anything is sent, and makes
// --sender and --account name the same account when one of them is left
// out: the claim is built for the account that signs it.
func (c *claimSigning) resolve(e *env, sender *string) error {
	if !*c.sign {
		for _, f := range []struct {
			name string
			set  bool
		}{{"account", *c.account != ""}, {"send", c.tx.send}, {"wait", c.tx.wait}, {"yes", c.tx.yes},
			{"keystore", c.ks.dir != ""}, {"passphrase-file", c.ks.passphraseFile != ""}} {
			if f.set {
				return usagef("claim: --%s needs --sign", f.name)
			}
		}
		return nil
	}
	switch {
	case *c.account == "":
		*c.account = *sender
	case *sender == "":
		*sender = *c.account
	case common.IsHexAddress(*sender) && common.IsHexAddress(*c.account) &&
		common.HexToAddress(*sender) != common.HexToAddress(*c.account):
		return usagef("claim: --sender %s is not the signing --account %s", *sender, *c.account)
	}
	return c.tx.check(e, "claim")
}

// chain names what needs the profile's chain: signing, when --sign is set.
func (c *claimSigning) chain() string {
	if *c.sign {
		return "claim --sign"
	}
	return ""
}

// open finds the account in the keystore before the claim is asked for.
// nil when --sign is not set.
func (c *claimSigning) open(ctx context.Context, e *env) (*signingAccount, error) {
	if !*c.sign {
		return nil, nil
	}
	addr, err := parseAddress("account", *c.account)
	if err != nil {
		return nil, err
	}
	return openAccount(ctx, e, c.ks, addr)
}

// run signs the claim's calls, if the signing policy allows them, and as
// the flags ask, sends and follows them. A claim with an instruction that
// is not an EVM call is refused whole. amount is what the user asked for
// (nil: all that is claimable).
func (c *claimSigning) run(ctx context.Context, e *env, s *opened, acct *signingAccount, allocationID string, amount *big.Int, res *api.ClaimResult, out format) error {
	calls, err := wallet.ClaimCalls(res)
	if err != nil {
		return err
	}
	known, err := s.KnownContracts(ctx)
	if err != nil {
		return err
	}
	ops := make([]string, len(calls))
	for i := range ops {
		ops[i] = "claim"
	}
	check := s.ClaimCheck(allocationID, acct.address, amount)
	return e.transact(ctx, s, acct, txBatch{subject: allocationID, op: "claim", ops: ops, calls: calls, known: known, check: check}, c.tx, out)
}
