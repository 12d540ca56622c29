package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/vesting"
)

var proofCommand = command{
	name:    "proof",
	args:    "ALLOCATION_ID | --file PROOF.json [--verify] [--vester ADDR] [-o json]",
	summary: "show, and with --verify check, the merkle proof of an allocation",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		verify := fs.Bool("verify", false, "check the leaf, the on-chain root and the schedule; exit 3 when one fails, 4 when one could not run")
		file := fs.String("file", "", "read the proof from `PROOF.json` (the output of 'allot proof ID -o json', or a pasted response)")
		vester := fs.String("vester", "", "ask only the vester contract `ADDR` for the root (default: the token's contracts; needs rpc_url)")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if *vester != "" && !*verify {
				return usagef("proof: --vester needs --verify")
			}
			var raw []byte
			var fromService *api.MerkleProof
			switch {
			case *file != "" && len(args) == 0 && !*verify:
				return usagef("--file needs --verify")
			case *file != "" && len(args) == 0:
				data, err := readProofFile(*file)
				if err != nil {
					return err
				}
				raw = data
			case *file == "" && len(args) == 1:
				if err := api.CheckUUID("allocation id", args[0]); err != nil {
					return usageError{msg: err.Error()}
				}
				s, err := e.open(ctx, opening{})
				if err != nil {
					return err
				}
				if fromService, err = s.API.MerkleProof(ctx, args[0]); err != nil {
					return withDemoAllocations(s, err)
				}
				if raw, err = json.Marshal(fromService); err != nil {
					return err
				}
			default:
				return usagef("takes one allocation id, or --file")
			}
			if !*verify {
				return printProof(e, fromService, *out)
			}
			return verifyProof(ctx, e, raw, *vester, *out)
		}
	},
}

// withDemoAllocations names, on the embedded sandbox, allocations a
// newcomer can look up instead of one the service does not have, as the
// dashboard's Allocation screen lists them.
func withDemoAllocations(s *opened, err error) error {
	if s.Fixtures == nil || len(s.Fixtures.AllocationIDs) == 0 || !errors.Is(err, api.ErrNotFound) {
		return err
	}
	ids := s.Fixtures.AllocationIDs[:min(3, len(s.Fixtures.AllocationIDs))]
	return fmt.Errorf("%w; the embedded sandbox's demo allocations include %s", err, strings.Join(ids, ", "))
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

// verifyProof checks a proof and reports each check: exit status 0 when
// the leaf, the on-chain root and the schedule all pass, 3 when one fails,
// 4 when none fails but one could not run.
func verifyProof(ctx context.Context, e *env, raw []byte, vester string, out format) error {
	proof, err := wallet.DecodeProof(raw)
	if err != nil {
		return err
	}
	opts, err := proofOptions(ctx, e, vester)
	if err != nil {
		return err
	}
	v := wallet.VerifyProof(ctx, proof, opts)
	if out == formatJSON {
		if err := writeJSON(e.Stdout, v); err != nil {
			return err
		}
	} else if err := printVerification(e, v, trustPairs(ctx, e, v), vesterUnit(ctx, e, v)); err != nil {
		return err
	}
	switch v.Outcome() {
	case wallet.Fail:
		return checkFailed{"check failed: " + strings.Join(v.Failures(), "; ")}
	case wallet.NotChecked:
		return checkNotRun{"not verified: " + strings.Join(v.Unchecked(), "; ")}
	}
	return nil
}

// proofOptions say where the root is checked: on the profile's chain,
// against --vester alone when given, else against the contracts of the
// profile's tokens, the vester being the one that holds the root.
func proofOptions(ctx context.Context, e *env, vester string) (wallet.VerifyOptions, error) {
	if vester != "" {
		if err := api.CheckAddress("--vester", vester); err != nil {
			return wallet.VerifyOptions{}, usageError{msg: err.Error()}
		}
	}
	s, err := e.open(ctx, opening{})
	if err != nil {
		return wallet.VerifyOptions{}, err
	}
	var opts wallet.VerifyOptions
	if vester != "" {
		if s.Chain == nil {
			return opts, usagef("--vester needs a chain: set rpc_url in the profile")
		}
		opts.Chain, opts.Vester = s.Chain, common.HexToAddress(vester)
	} else {
		opts = s.VerifyOptions(ctx)
	}
	if opts.Chain != nil {
		// What a claim could take now is what the chain's time has unlocked.
		if head, err := s.Chain.HeaderByNumber(ctx, nil); err == nil {
			opts.Now = time.Unix(int64(head.Time), 0)
		}
	}
	return opts, nil
}

// trustPairs say, on lines of their own, whether the profile pins each
// contract that holds the proof's root, pinned ones first: the proof's
// verdict does not depend on it, signing a claim does.
func trustPairs(ctx context.Context, e *env, v *wallet.Verification) []string {
	s, err := e.session(ctx)
	if err != nil {
		return []string{"trust", "unknown: " + sanitize.Line(err.Error())}
	}
	var pairs []string
	for _, t := range s.VesterTrusts(ctx, v) {
		pairs = append(pairs, "trust", t.String())
	}
	return pairs
}

// vesterUnit names the amounts of v's vester as the dashboard's
// Allocation screen does ("HBR"; Session.VesterUnits), "" when nothing
// tells.
func vesterUnit(ctx context.Context, e *env, v *wallet.Verification) string {
	s, err := e.session(ctx)
	if err != nil {
		return ""
	}
	return s.VesterUnits(ctx)(v.Vester)
}

// inUnit formats amounts of base units as every table does, followed by
// unit when it is known.
type inUnit string

func (u inUnit) tokens(baseUnits *big.Int) string {
	if u == "" {
		return wallet.FormatTokens(baseUnits)
	}
	return wallet.FormatTokens(baseUnits) + " " + string(u)
}

// printVerification prints each check of v; trust (trustPairs) follows
// the on-chain root's verdict; the amounts name unit.
func printVerification(e *env, v *wallet.Verification, trust []string, unit string) error {
	u := inUnit(unit)
	check := func(c wallet.Check, detail string) string {
		if c.State == wallet.Pass {
			return "PASS " + detail
		}
		return c.State.String() + ": " + c.Reason
	}
	onChain := ""
	if v.RootCheck.State == wallet.Pass {
		onChain = fmt.Sprintf("%s in vester %s", v.OnChainRoot.Hex(), v.Vester.Hex())
	}
	pairs := []string{
		"allocation", v.Proof.ID,
		"leaf", check(v.LeafCheck, v.Leaf.Hex()),
		"computed root", v.ComputedRoot.Hex(),
		"on-chain root", check(v.RootCheck, onChain),
	}
	pairs = append(pairs, trust...)
	if v.Args != nil {
		a := v.Args.Allocation
		pairs = append(pairs,
			"schedule", check(v.ScheduleCheck, v.Args.Schedule.Kind+" "+v.Args.Schedule.UnlockScheduleID),
			"beneficiary", a.OriginalBeneficiary.Hex(),
			"total", u.tokens(a.TotalAllocation),
		)
		if v.Unclaimable != nil {
			pairs = append(pairs, "unlocked now", "WARNING: "+v.Unclaimable.Error())
		} else {
			pairs = append(pairs, "unlocked now", fmt.Sprintf("%s%% = %s", vesting.FormatPPM(v.UnlockedPPM), u.tokens(v.Unlocked)))
		}
		pairs = append(pairs, "vester record", check(v.StateCheck, "read from the vester's schedules(id)"))
		pairs = append(pairs, standingPairs(v, u)...)
	} else {
		pairs = append(pairs, "schedule", check(v.ScheduleCheck, ""))
	}
	pairs = append(pairs, "result", v.Outcome().String())
	return fields(e.Stdout, pairs...)
}
