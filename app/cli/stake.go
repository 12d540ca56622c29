package cli

import (
	"context"
	"flag"
	"fmt"
	"math/big"

	"allot/api"
	"allot/wallet"
)

var stakeCommand = command{
	name:    "stake",
	args:    "--pool ID|NAME [--token ID|NAME] --amount X --account ADDR [--send [--wait] [--yes]] [--owner KEY [--proposal FILE] [--tx-builder FILE] [--multisend ADDR] [--yes]] [--keystore DIR] [--passphrase-file FILE] [-o json]",
	summary: "stake tokens in a pool: sign in, approve exactly the stake when the allowance is short, sign, send; the signing policy refuses anything else",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a stakeArgs
		var safeAct safeActFlags
		declarePool(fs, &a.pool)
		declareToken(fs, &a.token)
		fs.StringVar(&a.amount, "amount", "", "amount `X` to stake, in tokens (required)")
		fs.StringVar(&a.account, "account", "", "keystore account `ADDR` that signs in and stakes (required)")
		declareKeystore(fs, &a.ks)
		declareTx(fs, &a.tx)
		declareSafeAct(fs, &safeAct)
		declareOutput(fs, &a.out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if safeAct.owner != "" {
				return e.safeStake(ctx, a, safeAct) // safe_acts.go
			}
			return e.stake(ctx, a)
		}
	},
}

// stakeArgs is what `allot stake` was asked, as its flags say it.
type stakeArgs struct {
	pool    string // an id, or the name of one of the token's pools
	token   string // the token whose pools a name is looked up among
	amount  string // in tokens
	account string
	ks      keystoreFlags
	tx      txFlags
	out     format
}

// openPool checks --account, opens the session for a write on the chain
// (cmd names it), finds the pool by id or, when --pool is not an id, by
// name among the token's pools, as stakes does; then the account in the
// keystore. Nothing is signed or sent.
func openPool(ctx context.Context, e *env, cmd, poolFlag string, token *string, account string, ks keystoreFlags) (*opened, api.Pool, *signingAccount, error) {
	addr, err := parseAddress("account", account)
	if err != nil {
		return nil, api.Pool{}, nil, err
	}
	byName := api.CheckUUID("--pool", poolFlag) != nil
	need := opening{write: true, chain: cmd}
	if byName {
		need.token = token
	}
	s, err := e.open(ctx, need)
	if err != nil {
		return nil, api.Pool{}, nil, err
	}
	// A name is looked up among the token's pools, which gives the pool
	// itself: listing them again (s.Pool) would only repeat it.
	var pool api.Pool
	if byName {
		pool, err = poolNamed(ctx, s, poolFlag)
	} else {
		pool, err = s.Pool(ctx, poolFlag)
	}
	if err != nil {
		return nil, api.Pool{}, nil, err
	}
	acct, err := openAccount(ctx, e, ks, addr)
	if err != nil {
		return nil, api.Pool{}, nil, err
	}
	return s, pool, acct, nil
}

// stakeOrder is a stake resolved: the pool found, the amount and the
// account checked, the session open on the profile's chain.
type stakeOrder struct {
	s      *opened
	pool   api.Pool
	amount api.Number
	asked  *big.Int // amount in base units
	acct   *signingAccount
}

// stakePlan is what a stake signs: the batch the signing flow shows and
// checks, and how the chain decided it (an approve first when the pool may
// not move enough of the account's tokens).
type stakePlan struct {
	batch txBatch
	chain *wallet.StakePlan
}

// stake resolves, plans and signs a stake; transact sends it as the flags
// ask.
func (e *env) stake(ctx context.Context, a stakeArgs) error {
	o, err := a.resolve(ctx, e)
	if err != nil {
		return err
	}
	defer o.acct.lock()
	// The portal says what a stake calls only to a wallet signed in.
	portal, _, err := e.signIn(ctx, o.s, o.acct)
	if err != nil {
		return err
	}
	p, err := o.plan(ctx, portal)
	if err != nil {
		return err
	}
	if p.chain.Approve != nil {
		unit := o.s.poolUnit(o.pool)
		need := wallet.FormatTokens(p.chain.Amount) + " " + unit
		fmt.Fprintf(e.Stderr, "The pool may move %s %s of yours and the stake needs %s: an approve of exactly %s comes first.\n",
			wallet.FormatTokens(p.chain.Allowance), unit, need, need)
	}
	statuses, err := e.transactStatuses(ctx, o.s, o.acct, p.batch, a.tx, a.out)
	if p.chain.Approve != nil {
		e.leftover(ctx, o, p.chain, statuses)
	}
	return err
}

// resolve checks the flags, the amount rule among them, before the session
// is opened; then finds the pool, by id or by name, and the account in the
// keystore. Nothing is signed or sent.
func (a stakeArgs) resolve(ctx context.Context, e *env) (*stakeOrder, error) {
	if err := a.tx.check(e, "stake"); err != nil {
		return nil, err
	}
	if a.pool == "" {
		return nil, usagef("stake: --pool ID is required")
	}
	if a.amount == "" {
		return nil, usagef("stake: --amount X is required")
	}
	amount, err := api.ParseTokenAmount(a.amount)
	if err != nil {
		return nil, usagef("--amount: %v", err)
	}
	asked, err := api.BaseUnits(amount.Decimal)
	if err != nil {
		return nil, usagef("--amount: %v", err)
	}
	s, pool, acct, err := openPool(ctx, e, "stake", a.pool, &a.token, a.account, a.ks)
	if err != nil {
		return nil, err
	}
	return &stakeOrder{s: s, pool: pool, amount: amount, asked: asked, acct: acct}, nil
}

// plan asks the portal, signed in, for the stake's parameters and the chain
// for the allowance: the stake, with an approve of exactly its amount
// first when the allowance is short, and the signing policy's check of
// them. Nothing is signed.
func (o *stakeOrder) plan(ctx context.Context, portal *wallet.Portal) (stakePlan, error) {
	params, err := portal.StakeParameters(ctx, o.pool.ID, o.amount)
	if err != nil {
		return stakePlan{}, err
	}
	call, err := wallet.StakeCall(params)
	if err != nil {
		return stakePlan{}, fmt.Errorf("stake parameters: %w", err)
	}
	chain, err := wallet.PlanStake(ctx, o.s.Chain, call)
	if err != nil {
		return stakePlan{}, err
	}
	known, err := o.s.KnownContracts(ctx)
	if err != nil {
		return stakePlan{}, err
	}
	if _, ok := known[chain.Token]; !ok {
		known[chain.Token] = "the token the pool stakes"
	}
	check := o.s.StakeCheck(o.pool, o.acct.address, o.asked)
	batch := txBatch{subject: o.pool.ID, op: "stake", ops: []string{"stake"}, calls: chain.Calls(), known: known, check: check}
	if chain.Approve != nil {
		batch.ops = []string{"approve", "stake"}
	}
	return stakePlan{batch: batch, chain: chain}, nil
}
