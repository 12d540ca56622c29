package cli

import (
	"context"
	"flag"
	"fmt"

	"allot/api"
	"allot/wallet"
)

var stakeCommand = command{
	name:    "stake",
	args:    "--pool ID|NAME [--token ID|NAME] --amount X --account ADDR [--send [--wait] [--yes]] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "stake tokens in a pool: sign in, approve exactly the stake when the allowance is short, sign, send; the signing policy refuses anything else",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		pool := fs.String("pool", "", "staking pool `ID`, or the name of one of the token's pools (required)")
		token := tokenFlag(fs)
		amount := fs.String("amount", "", "amount `X` to stake, in tokens (required)")
		account := fs.String("account", "", "keystore account `ADDR` that signs in and stakes (required)")
		ks := declareKeystore(fs)
		tx := declareTx(fs)
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if err := tx.check(e, "stake"); err != nil {
				return err
			}
			if *pool == "" {
				return usagef("stake: --pool ID is required")
			}
			// Not an id, --pool is a name, looked up once the session is
			// open, as stakes does.
			byName := api.CheckUUID("--pool", *pool) != nil
			if *amount == "" {
				return usagef("stake: --amount X is required")
			}
			// The amount rule before signing in or asking the portal.
			amt, err := api.ParseTokenAmount(*amount)
			if err != nil {
				return usagef("--amount: %v", err)
			}
			asked, err := api.BaseUnits(amt.Decimal)
			if err != nil {
				return usagef("--amount: %v", err)
			}
			addr, err := parseAddress("account", *account)
			if err != nil {
				return err
			}
			o := opening{write: true, chain: "stake"}
			if byName {
				o.token = token
			}
			s, err := e.open(ctx, o)
			if err != nil {
				return err
			}
			// A name is looked up among the token's pools, which gives the
			// pool itself: listing them again (s.Pool) would only repeat it.
			var poolInfo api.Pool
			if byName {
				poolInfo, err = poolNamed(ctx, s, *pool)
			} else {
				poolInfo, err = s.Pool(ctx, *pool)
			}
			if err != nil {
				return err
			}
			poolID := poolInfo.ID
			acct, err := openAccount(ctx, e, ks, addr)
			if err != nil {
				return err
			}
			defer acct.lock()
			portal, _, err := e.signIn(ctx, s, acct)
			if err != nil {
				return err
			}
			params, err := portal.StakeParameters(ctx, poolID, amt)
			if err != nil {
				return err
			}
			call, err := wallet.StakeCall(params)
			if err != nil {
				return fmt.Errorf("stake parameters: %w", err)
			}
			plan, err := wallet.PlanStake(ctx, s.Chain, call)
			if err != nil {
				return err
			}
			known, err := s.KnownContracts(ctx)
			if err != nil {
				return err
			}
			if _, ok := known[plan.Token]; !ok {
				known[plan.Token] = "the token the pool stakes"
			}
			check := s.StakeCheck(poolInfo, acct.address, asked)
			batch := txBatch{subject: poolID, op: "stake", ops: []string{"stake"}, calls: plan.Calls(), known: known, check: check}
			if plan.Approve != nil {
				batch.ops = []string{"approve", "stake"}
				fmt.Fprintf(e.Stderr, "The pool may move %s of your tokens and the stake needs %s: an approve of exactly %s comes first.\n",
					wallet.FormatTokens(plan.Allowance), wallet.FormatTokens(plan.Amount), wallet.FormatTokens(plan.Amount))
			}
			return e.transact(ctx, s, acct, batch, tx, *out)
		}
	},
}
