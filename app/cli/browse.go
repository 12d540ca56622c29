package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/amount"
	"allot/internal/sanitize"
)

var contractsCommand = tokenListCommand("contracts", "list the distribution contracts of a token", (*api.Client).Contracts, writeContracts)

var poolsCommand = tokenListCommand("pools", "list every staking pool of a token (all pages)", (*api.Client).AllPools, writePools)

// tokenListCommand is a command that lists what a token has: --token
// chooses the token, -o the format; list fetches the whole list and write
// writes it.
func tokenListCommand[T any](name, summary string,
	list func(c *api.Client, ctx context.Context, token string) (*api.List[T], error),
	write func(w io.Writer, list *api.List[T], out format, token listedToken) error) command {
	return command{
		name:    name,
		args:    "[--token ID|NAME] [-o json|csv]",
		summary: summary,
		flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			var token string
			var out format
			declareToken(fs, &token)
			declareListOutput(fs, &out)
			return func(ctx context.Context, args []string) error {
				if err := noArgs(args); err != nil {
					return err
				}
				s, err := e.open(ctx, opening{token: &token})
				if err != nil {
					return err
				}
				items, err := list(s.API, ctx, s.token)
				if err != nil {
					return err
				}
				return write(e.Stdout, items, out, listedToken{text: s.tokenText(), unit: s.tokenUnit()})
			}
		},
	}
}

// listedToken is the token whose things a table lists: text names it
// under the table, unit in the headers of its amounts ("" when the
// profile and the sandbox name it neither).
type listedToken struct{ text, unit string }

// amountHeader is the header of a column of amounts of the token: "BALANCE
// (MRD)", as the dashboard titles it.
func (t listedToken) amountHeader(h string) string {
	if t.unit == "" {
		return h
	}
	return h + " (" + t.unit + ")"
}

// writeContracts writes the contracts of the token: a table with a count
// under it, JSON, or CSV.
func writeContracts(w io.Writer, list *api.List[api.Contract], out format, token listedToken) error {
	switch out {
	case formatJSON:
		return writeJSON(w, list)
	case formatCSV:
		t := newCSV(w, "id", "name", "type", "address", "balance", "createdAt")
		for _, c := range list.Items {
			t.row(csvText(c.ID), csvText(c.Name), csvText(c.Type), csvText(c.Address), c.Balance.String(), csvTime(c.CreatedAt))
		}
		return t.flush()
	}
	t := newTable(w, "ID", "NAME", "TYPE", "ADDRESS", token.amountHeader("BALANCE"), "CREATED")
	t.alignDecimals(4)
	for _, c := range list.Items {
		t.row(c.ID, c.Name, c.Type, c.Address, amount.Tokens(c.Balance.String()), api.FormatTime(c.CreatedAt))
	}
	return countUnder(w, t, len(list.Items), list.Total, "contracts", token.text)
}

// writePools writes the pools of the token as writeContracts writes its
// contracts; the APY as the dashboard writes it ("6.50%").
func writePools(w io.Writer, list *api.List[api.Pool], out format, token listedToken) error {
	switch out {
	case formatJSON:
		return writeJSON(w, list)
	case formatCSV:
		t := newCSV(w, "id", "name", "tokenId", "contractId", "status", "totalStaked", "totalRewardsDeposited",
			"periodFinish", "minimumStakeAmount", "minimumStakeLength", "stakeWithdrawalDelay", "rewardWithdrawalDelay",
			"maxApy", "claimNativeTokenFee", "unstakeNativeTokenFee")
		for _, p := range list.Items {
			t.row(csvText(p.ID), csvText(p.Name), csvText(p.TokenID), csvText(p.ContractID), csvText(p.Status),
				p.TotalStaked.String(), p.TotalRewardsDeposited.String(), csvTime(p.PeriodFinish), p.MinimumStakeAmount.String(),
				strconv.FormatInt(p.MinimumStakeLength, 10), strconv.FormatInt(p.StakeWithdrawalDelay, 10),
				strconv.FormatInt(p.RewardWithdrawalDelay, 10), p.MaxAPY.String(), p.ClaimNativeTokenFee.String(),
				p.UnstakeNativeTokenFee.String())
		}
		return t.flush()
	}
	t := newTable(w, "ID", "NAME", "STATUS", token.amountHeader("TOTAL STAKED"), "MAX APY", token.amountHeader("MIN STAKE"), "PERIOD FINISH")
	t.alignDecimals(3, 4, 5)
	for _, p := range list.Items {
		t.row(p.ID, p.Name, p.Status, amount.Tokens(p.TotalStaked.String()), amount.Percent(p.MaxAPY.String()), amount.Tokens(p.MinimumStakeAmount.String()), api.FormatTime(p.PeriodFinish))
	}
	return countUnder(w, t, len(list.Items), list.Total, "pools", token.text)
}

// countUnder writes table t, then how many of the token's things it shows
// of how many there are.
func countUnder(w io.Writer, t *table, shown, total int, things, token string) error {
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d of %d %s of %s\n", shown, total, things, token)
	return nil
}

// declarePool declares --pool, parsed into v: a pool's id, or the name
// poolNamed looks up.
func declarePool(fs *flag.FlagSet, v *string) {
	fs.StringVar(v, "pool", "", "staking pool `ID`, or the name of one of the token's pools (required)")
}

// poolNamed is the token's pool named name, as `allot pools` lists them
// (api.PoolByRef, as the dashboard's :stakes): the exact name, else the
// one name equal but for case. None, or more than one, is a usage error
// that says where the ids are.
func poolNamed(ctx context.Context, s *opened, name string) (api.Pool, error) {
	list, err := s.API.AllPools(ctx, s.token)
	if err != nil {
		return api.Pool{}, fmt.Errorf("--pool %q: list the pools to find it: %w", sanitize.Truncate(name, 60), err)
	}
	pool, err := api.PoolByRef(list.Items, name)
	var none *api.NoPoolError
	switch {
	case !errors.As(err, &none):
		return pool, err
	case len(none.IDs) == 0:
		return api.Pool{}, usagef("--pool %q is neither a pool id nor the name of a pool of %s (see 'allot pools')", none.RefText(), s.tokenText())
	}
	return api.Pool{}, usagef("--pool %q names more than one pool of %s: pass one's id: %s", none.RefText(), s.tokenText(), none.IDList())
}

var stakesCommand = command{
	name:    "stakes",
	args:    "--pool ID|NAME [--token ID|NAME] [--wallet ADDR] [-o json|csv]",
	summary: "list the stakes of a staking pool",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a stakesArgs
		declarePool(fs, &a.pool)
		declareToken(fs, &a.token)
		fs.StringVar(&a.wallet, "wallet", "", "only the stakes of wallet `ADDR`")
		declareListOutput(fs, &a.out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, req, err := a.resolve(ctx, e)
			if err != nil {
				return err
			}
			return writeStakes(ctx, s.API, req, e.Stdout, a.out)
		}
	},
}

// stakesArgs is what `allot stakes` was asked, as its flags say it.
type stakesArgs struct {
	pool   string // an id, or the name of one of the token's pools
	token  string // the token whose pools a name is looked up among
	wallet string // only this wallet's stakes, when set
	out    format
}

// resolve checks the flags before the session is opened, then finds a
// pool --pool names: the request to list.
func (a stakesArgs) resolve(ctx context.Context, e *env) (*opened, api.StakesRequest, error) {
	if a.pool == "" {
		return nil, api.StakesRequest{}, usagef("stakes: --pool is required")
	}
	// Not an id, --pool is a name, looked up once --wallet is found well
	// formed.
	byName := api.CheckUUID("pool", a.pool) != nil
	req := api.StakesRequest{StakingPoolID: a.pool, WalletAddress: a.wallet}
	var err error
	switch {
	case !byName:
		err = req.Validate()
	case a.wallet != "":
		err = api.CheckAddress("walletAddress", a.wallet)
	}
	if err != nil {
		return nil, api.StakesRequest{}, typed(err, map[string]string{"stakingPoolId": "--pool", "walletAddress": "--wallet"})
	}
	need := opening{}
	if byName {
		need.token = &a.token
	}
	s, err := e.open(ctx, need)
	if err != nil {
		return nil, api.StakesRequest{}, err
	}
	if byName {
		p, err := poolNamed(ctx, s, a.pool)
		if err != nil {
			return nil, api.StakesRequest{}, err
		}
		req.StakingPoolID = p.ID
	}
	return s, req, nil
}

// writeStakes lists the stakes req asks for to w. -o json and -o csv
// write the stakes as they arrive. On a failure mid-listing the ones that
// arrived stay written, the JSON unclosed, and the error says how many
// they are.
func writeStakes(ctx context.Context, client *api.Client, req api.StakesRequest, w io.Writer, out format) error {
	switch out {
	case formatJSON:
		jw := newStakesJSON(w)
		total, err := client.StreamStakes(ctx, req, jw.rows)
		if err != nil {
			return errors.Join(err, jw.flush())
		}
		return jw.end(total)
	case formatCSV:
		cw := newStakesCSV(w)
		if _, err := client.StreamStakes(ctx, req, cw.rows); err != nil {
			if cw.n == 0 {
				return err
			}
			return errors.Join(err, cw.flush())
		}
		return cw.flush()
	}
	var rows stakeChunks
	total, err := client.StreamStakes(ctx, req, rows.add)
	var partial *api.PartialError
	if err != nil && !errors.As(err, &partial) {
		return err
	}
	if partial != nil {
		total = -1
	}
	return errors.Join(writeStakesTable(w, rows, total), err)
}

var humanityCommand = command{
	name:    "humanity",
	args:    "WALLET [-o json]",
	summary: "tell whether a wallet passes the portal's proof-of-humanity check",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one wallet address")
			}
			if err := api.CheckAddress("wallet", args[0]); err != nil {
				return usageError{msg: err.Error()}
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			res, err := s.API.Humanity(ctx, args[0])
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, res)
			}
			// As the Portal screen says it, the address checksummed.
			return fields(e.Stdout, "wallet", common.HexToAddress(args[0]).Hex(), "humanity passed", yesNo(res.Verified))
		}
	},
}

// yesNo writes a yes-or-no answer for people, as the dashboard does; JSON
// keeps the service's booleans.
func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
