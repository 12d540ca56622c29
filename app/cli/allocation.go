package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/sanitize"
	"allot/wallet"
	"allot/wallet/vesting"
)

var proofCommand = command{
	name:    "proof",
	args:    "ALLOCATION_ID | --file PROOF.json [--verify] [--vester ADDR] [-o json]",
	summary: "show, and with --verify check, the merkle proof of an allocation",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		verify := fs.Bool("verify", false, "check the proof: leaf, computed root, on-chain root; exit 3 when a check fails")
		file := fs.String("file", "", "read the proof from `FILE` (the output of 'allot proof ID -o json', or a pasted response)")
		vester := fs.String("vester", "", "vester contract `ADDR` whose merkleRoots(rootIndex) to compare with (needs rpc_url)")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			var raw []byte
			var fromService *api.MerkleProof
			switch {
			case *file != "" && len(args) == 0:
				data, err := readProofFile(*file)
				if err != nil {
					return err
				}
				raw = data
			case *file == "" && len(args) == 1:
				if err := api.CheckUUID("allocation id", args[0]); err != nil {
					return err
				}
				s, err := e.session(ctx)
				if err != nil {
					return err
				}
				if fromService, err = s.API.MerkleProof(ctx, args[0]); err != nil {
					return err
				}
				if raw, err = json.Marshal(fromService); err != nil {
					return err
				}
			default:
				return usagef("proof takes one allocation id, or --file")
			}
			if !*verify {
				if fromService == nil {
					return usagef("proof --file needs --verify")
				}
				return printProof(e, fromService, *out)
			}
			return verifyProof(ctx, e, raw, *vester, *out)
		}
	},
}

func readProofFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("proof file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, wallet.MaxProofJSON+1))
	if err != nil {
		return nil, fmt.Errorf("proof file: %w", err)
	}
	return data, nil
}

func printProof(e *env, p *api.MerkleProof, out format) error {
	if out == formatJSON {
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
		"decodable args", fmt.Sprintf("%d bytes", max(0, len(p.DecodableArgs)-2)/2),
		"proof", fmt.Sprintf("%d siblings", len(p.Proof)),
	); err != nil {
		return err
	}
	for i, sib := range p.Proof {
		fmt.Fprintf(e.Stdout, "  %2d  %s\n", i, sanitize.Line(sib))
	}
	return nil
}

// verifyProof checks a proof and reports each check; a failed check is exit
// status 3, a check that could not run (no chain) is not a failure.
func verifyProof(ctx context.Context, e *env, raw []byte, vester string, out format) error {
	proof, err := wallet.DecodeProof(raw)
	if err != nil {
		return err
	}
	opts := wallet.VerifyOptions{}
	if vester != "" {
		if err := api.CheckAddress("--vester", vester); err != nil {
			return usageError{err.Error()}
		}
		s, err := e.session(ctx)
		if err != nil {
			return err
		}
		if s.Chain == nil {
			return usagef("--vester needs a chain: set rpc_url in the profile")
		}
		opts.Chain, opts.Vester = s.Chain, common.HexToAddress(vester)
		if head, err := s.Chain.HeaderByNumber(ctx, nil); err == nil {
			opts.Now = time.Unix(int64(head.Time), 0)
		}
	}
	v := wallet.VerifyProof(ctx, proof, opts)
	if out == formatJSON {
		if err := writeJSON(e.Stdout, v); err != nil {
			return err
		}
	} else if err := printVerification(e, v); err != nil {
		return err
	}
	if v.ChainErr != nil {
		fmt.Fprintf(e.Stderr, "allot: the on-chain root was not checked: %s\n", sanitize.Line(v.ChainErr.Error()))
	}
	if !v.OK() {
		return checkFailed{"proof check failed: " + strings.Join(v.Failures(), "; ")}
	}
	return nil
}

func mark(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func printVerification(e *env, v *wallet.Verification) error {
	onChain := "not checked (no --vester or no rpc_url)"
	if v.OnChainOK != nil {
		onChain = mark(*v.OnChainOK) + " " + v.OnChainRoot.Hex()
	}
	pairs := []string{
		"allocation", v.Proof.ID,
		"leaf", mark(v.LeafOK) + " " + v.Leaf.Hex(),
		"computed root", v.ComputedRoot.Hex(),
		"on-chain root", onChain,
	}
	if v.Args != nil {
		a := v.Args.Allocation
		pairs = append(pairs,
			"beneficiary", a.OriginalBeneficiary.Hex(),
			"total", wallet.FormatUnits(a.TotalAllocation),
			"schedule", v.Args.Schedule.Kind+" "+v.Args.Schedule.UnlockScheduleID,
			"unlocked now", fmt.Sprintf("%s%% = %s", vesting.FormatPPM(v.UnlockedPPM), wallet.FormatUnits(v.Unlocked)),
		)
	}
	if err := fields(e.Stdout, pairs...); err != nil {
		return err
	}
	for _, f := range v.Failures() {
		fmt.Fprintln(e.Stdout, "FAIL: "+sanitize.Line(f))
	}
	return nil
}

var claimCommand = command{
	name:    "claim",
	args:    "ALLOCATION_ID --sender ADDR [--amount X] [--country CC] [--sign --account ADDR [--send [--wait]] [--force]] [-o json]",
	summary: "build the claim transaction(s) of an allocation; with --sign, check, sign and send them",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		sender := fs.String("sender", "", "wallet `ADDR` that claims (required; with --sign, default: --account)")
		amount := fs.String("amount", "", "amount `X` to claim in tokens (default: all that is claimable now)")
		country := fs.String("country", "", "the claimer's ISO 3166-1 alpha-2 country `CC`")
		signing := declareClaimSigning(fs)
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("claim takes one allocation id")
			}
			if err := signing.resolve(sender); err != nil {
				return err
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
			acct, err := signing.open(ctx, e, s)
			if err != nil {
				return err
			}
			if acct != nil {
				defer acct.lock()
			}
			var res *api.ClaimResult
			err = e.recorder().Write("allocations/claim", args[0], req, func() (string, any, error) {
				var err error
				res, err = s.API.Claim(ctx, args[0], req)
				return "", res, err
			})
			if err != nil {
				return err
			}
			if acct != nil {
				return signing.run(ctx, e, s, acct, args[0], res, *out)
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
