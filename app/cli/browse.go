package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"allot/api"
	"allot/internal/sanitize"
)

var contractsCommand = command{
	name:    "contracts",
	args:    "[--token ID|NAME] [-o json|csv]",
	summary: "list the distribution contracts of a token",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		token := tokenFlag(fs)
		out := listOutputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{token: token})
			if err != nil {
				return err
			}
			list, err := s.API.Contracts(ctx, s.token)
			if err != nil {
				return err
			}
			switch *out {
			case formatJSON:
				return writeJSON(e.Stdout, list)
			case formatCSV:
				t := newCSV(e.Stdout, "id", "name", "type", "address", "balance", "createdAt")
				for _, c := range list.Items {
					t.row(csvText(c.ID), csvText(c.Name), csvText(c.Type), csvText(c.Address), c.Balance.String(), csvTime(c.CreatedAt))
				}
				return t.flush()
			}
			t := newTable(e.Stdout, "ID", "NAME", "TYPE", "ADDRESS", "BALANCE", "CREATED")
			t.alignDecimals(4)
			for _, c := range list.Items {
				t.row(c.ID, c.Name, c.Type, c.Address, c.Balance.String(), api.FormatTime(c.CreatedAt))
			}
			if err := t.flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "%d of %d contracts of %s\n", len(list.Items), list.Total, s.tokenText())
			return nil
		}
	},
}

var poolsCommand = command{
	name:    "pools",
	args:    "[--token ID|NAME] [-o json|csv]",
	summary: "list every staking pool of a token (all pages)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		token := tokenFlag(fs)
		out := listOutputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{token: token})
			if err != nil {
				return err
			}
			list, err := s.API.AllPools(ctx, s.token)
			if err != nil {
				return err
			}
			switch *out {
			case formatJSON:
				return writeJSON(e.Stdout, list)
			case formatCSV:
				t := newCSV(e.Stdout, "id", "name", "tokenId", "contractId", "status", "totalStaked", "totalRewardsDeposited",
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
			t := newTable(e.Stdout, "ID", "NAME", "STATUS", "TOTAL STAKED", "MAX APY", "MIN STAKE", "PERIOD FINISH")
			t.alignDecimals(3, 4, 5)
			for _, p := range list.Items {
				t.row(p.ID, p.Name, p.Status, p.TotalStaked.String(), p.MaxAPY.String(), p.MinimumStakeAmount.String(), api.FormatTime(p.PeriodFinish))
			}
			if err := t.flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "%d of %d pools of %s\n", len(list.Items), list.Total, s.tokenText())
			return nil
		}
	},
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
		pool := fs.String("pool", "", "staking pool `ID`, or the name of one of the token's pools (required)")
		token := tokenFlag(fs)
		wallet := fs.String("wallet", "", "only the stakes of wallet `ADDR`")
		out := listOutputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if *pool == "" {
				return usagef("stakes: --pool is required")
			}
			// Not an id, --pool is a name, looked up once --wallet is
			// found well formed.
			byName := api.CheckUUID("pool", *pool) != nil
			req := api.StakesRequest{StakingPoolID: *pool, WalletAddress: *wallet}
			var err error
			switch {
			case !byName:
				err = req.Validate()
			case *wallet != "":
				err = api.CheckAddress("walletAddress", *wallet)
			}
			if err != nil {
				return typed(err, map[string]string{"stakingPoolId": "--pool", "walletAddress": "--wallet"})
			}
			o := opening{}
			if byName {
				o.token = token
			}
			s, err := e.open(ctx, o)
			if err != nil {
				return err
			}
			if byName {
				p, err := poolNamed(ctx, s, *pool)
				if err != nil {
					return err
				}
				req.StakingPoolID = p.ID
			}
			// -o json and -o csv write the stakes as they arrive. On a
			// failure mid-listing the ones that arrived stay written, the
			// JSON unclosed, and the error says how many they are.
			switch *out {
			case formatJSON:
				jw := newStakesJSON(e.Stdout)
				total, err := s.API.StreamStakes(ctx, req, jw.rows)
				if err != nil {
					return errors.Join(err, jw.flush())
				}
				return jw.end(total)
			case formatCSV:
				cw := newStakesCSV(e.Stdout)
				if _, err := s.API.StreamStakes(ctx, req, cw.rows); err != nil {
					if cw.n == 0 {
						return err
					}
					return errors.Join(err, cw.flush())
				}
				return cw.flush()
			}
			var rows stakeChunks
			total, err := s.API.StreamStakes(ctx, req, rows.add)
			var partial *api.PartialError
			if err != nil && !errors.As(err, &partial) {
				return err
			}
			if partial != nil {
				total = -1
			}
			return errors.Join(writeStakesTable(e.Stdout, rows, total), err)
		}
	},
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
			return fields(e.Stdout, "wallet", args[0], "verified", strconv.FormatBool(res.Verified))
		}
	},
}
