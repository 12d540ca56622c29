package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/rows"
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

// writeContracts writes the contracts of the token as rows.Contracts
// describes them: a table with a count under it, JSON, or CSV.
func writeContracts(w io.Writer, list *api.List[api.Contract], out format, token listedToken) error {
	return writeList(w, list, out, token, rows.Contracts, "contracts")
}

// writePools writes the pools of the token as writeContracts writes its
// contracts.
func writePools(w io.Writer, list *api.List[api.Pool], out format, token listedToken) error {
	return writeList(w, list, out, token, rows.Pools, "pools")
}

// writeList writes a list of the token's things, described by cs: a table
// with how many of how many there are under it, JSON, or CSV.
func writeList[R any](w io.Writer, list *api.List[R], out format, token listedToken, cs rows.Columns[R], things string) error {
	switch out {
	case formatJSON:
		return writeJSON(w, list)
	case formatCSV:
		return writeRowsCSV(w, cs, rowsOf(list.Items))
	}
	if err := writeRowsTable(w, cs, token.unit, rowsOf(list.Items)); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d of %d %s of %s\n", len(list.Items), list.Total, things, token.text)
	return err
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
			s, req, pool, err := a.resolve(ctx, e)
			if err != nil {
				return err
			}
			unit := ""
			if a.out == formatTable {
				unit = s.unitOf(cmp.Or(pool.TokenID, poolToken(ctx, s, req.StakingPoolID, a.token)))
			}
			return writeStakes(ctx, s.API, req, e.Stdout, a.out, unit)
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
// pool --pool names: the request to list, and the pool when it was looked
// up by its name.
func (a stakesArgs) resolve(ctx context.Context, e *env) (*opened, api.StakesRequest, api.Pool, error) {
	if a.pool == "" {
		return nil, api.StakesRequest{}, api.Pool{}, usagef("stakes: --pool is required")
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
		return nil, api.StakesRequest{}, api.Pool{}, typed(err, map[string]string{"stakingPoolId": "--pool", "walletAddress": "--wallet"})
	}
	need := opening{}
	if byName {
		need.token = &a.token
	}
	s, err := e.open(ctx, need)
	if err != nil {
		return nil, api.StakesRequest{}, api.Pool{}, err
	}
	var pool api.Pool
	if byName {
		if pool, err = poolNamed(ctx, s, a.pool); err != nil {
			return nil, api.StakesRequest{}, api.Pool{}, err
		}
		req.StakingPoolID = pool.ID
	}
	return s, req, pool, nil
}

// poolToken is the token of the pool poolID, given by its id, for the
// stakes' table to name it after the amounts as the dashboard does. It is
// looked for among the pools of --token, else of each token the profile
// (or the sandbox) names, since the interface reads no pool by its id; ""
// when none has it. A failed look is no failure of the listing, only a
// header without its unit: the stakes' own request says what is wrong
// with the service.
func poolToken(ctx context.Context, s *opened, poolID, token string) string {
	tokens := s.Tokens()
	if token != "" {
		id, err := resolveToken(s.Session, token)
		if err != nil {
			return ""
		}
		tokens = []string{id}
	}
	for _, id := range tokens {
		if _, named := s.TokenName(id); !named {
			continue // no unit to learn
		}
		list, err := s.API.AllPools(ctx, id)
		if err != nil {
			return ""
		}
		for _, p := range list.Items {
			if strings.EqualFold(p.ID, poolID) {
				return id
			}
		}
	}
	return ""
}

// writeStakes lists the stakes req asks for to w, the table naming their
// token's unit. -o json and -o csv write the stakes as they arrive. On a
// failure mid-listing the ones that arrived stay written, the JSON
// unclosed, and the error says how many they are.
func writeStakes(ctx context.Context, client *api.Client, req api.StakesRequest, w io.Writer, out format, unit string) error {
	switch out {
	case formatJSON:
		jw := newStakesJSON(w)
		total, err := client.StreamStakes(ctx, req, jw.rows)
		if err != nil {
			return errors.Join(err, jw.flush())
		}
		return jw.end(total)
	case formatCSV:
		return writeRowsCSV(w, rows.Stakes, func(f func(*api.StakeRow) error) error {
			_, err := client.StreamStakes(ctx, req, func(batch []api.StakeRow) error { return rowsOf(batch)(f) })
			return err
		})
	}
	var chunks stakeChunks
	total, err := client.StreamStakes(ctx, req, chunks.add)
	var partial *api.PartialError
	if err != nil && !errors.As(err, &partial) {
		return err
	}
	if partial != nil {
		total = -1
	}
	return errors.Join(writeStakesTable(w, chunks, total, unit), err)
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
