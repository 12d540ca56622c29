package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"allot/api"
)

var proofCommand = command{
	name:    "proof",
	args:    "ALLOCATION_ID [-o json]",
	summary: "show the merkle proof of an allocation",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("proof takes one allocation id")
			}
			if err := api.CheckUUID("allocation id", args[0]); err != nil {
				return err
			}
			s, err := e.session(ctx)
			if err != nil {
				return err
			}
			p, err := s.API.MerkleProof(ctx, args[0])
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, p)
			}
			hash := "(not given)"
			if p.Hash != nil {
				hash = *p.Hash
			}
			if err := fields(e.Stdout,
				"allocation", p.ID,
				"wallet", p.WalletAddress,
				"leaf hash", hash,
				"root index", fmt.Sprint(p.RootIndex),
				"merkle tree", p.MerkleTreeID,
				"distribution", p.DistributionID,
				"decodable args", fmt.Sprintf("%d bytes", (len(p.DecodableArgs)-2)/2),
				"proof", fmt.Sprintf("%d siblings", len(p.Proof)),
			); err != nil {
				return err
			}
			for i, sib := range p.Proof {
				fmt.Fprintf(e.Stdout, "  %2d  %s\n", i, sib)
			}
			return nil
		}
	},
}

var claimCommand = command{
	name:    "claim",
	args:    "ALLOCATION_ID --sender ADDR [--amount X] [--country CC] [-o json]",
	summary: "build the unsigned claim transaction(s) of an allocation",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		sender := fs.String("sender", "", "wallet `ADDR` that claims (required)")
		amount := fs.String("amount", "", "amount `X` to claim in tokens (default: all that is claimable now)")
		country := fs.String("country", "", "the claimer's ISO 3166-1 alpha-2 country `CC`")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("claim takes one allocation id")
			}
			req := api.ClaimRequest{Sender: *sender}
			if *country != "" {
				req.UserCountryCode = strings.ToUpper(*country)
			}
			if *amount != "" {
				a, err := api.ParseAmount(*amount)
				if err != nil {
					return usagef("--amount: %v", err)
				}
				req.Amount = &a
			}
			if err := req.Validate(args[0]); err != nil {
				return err
			}
			s, err := e.session(ctx)
			if err != nil {
				return err
			}
			var res *api.ClaimResult
			err = e.sendWrite(ctx, "allocations/"+args[0]+"/claim", req, func() (string, error) {
				var err error
				res, err = s.API.Claim(ctx, args[0], req)
				return "", err
			})
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, res)
			}
			fmt.Fprintf(e.Stdout, "%s, %d transaction group(s)\n", res.Type, len(res.Parameters))
			for _, group := range res.Parameters {
				fmt.Fprintf(e.Stdout, "transaction %s\n", group.TransactionID)
				for i, ins := range group.Instructions {
					evm, ok := ins.EVM()
					if !ok {
						fmt.Fprintf(e.Stdout, "  %d: not an EVM call; shown raw: %s\n", i, string(ins.Raw))
						continue
					}
					fields(e.Stdout, "  chain", fmt.Sprint(evm.ChainID), "  from", evm.From, "  to", evm.To,
						"  value (wei)", evm.Value, "  data", fmt.Sprintf("%d bytes", (len(evm.Data)-2)/2))
				}
			}
			return nil
		}
	},
}
