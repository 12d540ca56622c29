package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/core/session"
	"allot/wallet"
)

// The profile's pins (docs/deployment.md D17, as amended): a claim or a stake signs only for
// the contracts they list, each with the code it had when pinned. `allot
// pin KIND ADDR` is how a user who checked a contract trusts it; signing
// never pins, and neither does --yes.

// pinCommand builds `allot pin KIND ADDR`.
func pinCommand(kind wallet.PinKind, what string) command {
	return command{
		name:     "pin " + string(kind),
		args:     "ADDR [--confirm-address ADDR]",
		summary:  "pin " + what + " in the profile, with the hash of its code now",
		operands: [][2]string{{"ADDR", "the contract's address (0x and 40 hex digits)"}},
		flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			confirm := fs.String("confirm-address", "", "the contract's `ADDR` typed again: needed when it is flagged (it shares its name with a pinned contract, or, a vester, a root with a pinned vester)")
			return func(ctx context.Context, args []string) error {
				addr, err := pinAddress(args)
				if err != nil {
					return err
				}
				s, err := e.open(ctx, opening{chain: "pin"})
				if err != nil {
					return err
				}
				if !s.CanPin() {
					return fmt.Errorf("%w: the embedded sandbox pins its own contracts; pin in a profile of a configuration file", session.ErrCannotPin)
				}
				info := s.Describe(ctx, kind, addr)
				printContractInfo(e.Stderr, info)
				if errors.Is(info.CodeErr, wallet.ErrNoContract) {
					return fmt.Errorf("%s has no code on the chain: there is no contract to pin", addr.Hex())
				}
				if info.Flag() != "" && !strings.EqualFold(strings.TrimSpace(*confirm), addr.Hex()) {
					return fmt.Errorf("not pinned: %s is flagged; check both on an explorer and, to pin it anyway, type its address: allot pin %s %s --confirm-address %s",
						addr.Hex(), kind, addr.Hex(), addr.Hex())
				}
				hash, err := s.Pin(ctx, kind, addr, false)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.Stdout, "pinned %s %s in profile %q (%s), code hash %s\n", kind, addr.Hex(), s.Name, s.ConfigPath, hash.Hex())
				return nil
			}
		},
	}
}

var (
	pinVesterCommand  = pinCommand(wallet.PinVester, "a vester (a vesting or airdrop contract a claim withdraws from)")
	pinStakingCommand = pinCommand(wallet.PinStaking, "a staking contract a stake may go to")
	pinTokenCommand   = pinCommand(wallet.PinToken, "a token a stake may approve")
	pinHandlerCommand = pinCommand(wallet.PinHandler, "a post-claim handler a claim may send tokens to")
)

var pinRemoveCommand = command{
	name:    "pin rm",
	args:    "KIND ADDR",
	summary: "unpin a contract: KIND is vester, staking, token or handler",
	operands: [][2]string{
		{"KIND", "vester, staking, token or handler: the list the address is taken from"},
		{"ADDR", "the pinned contract's address, as 'allot pin list' shows it"},
	},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(ctx context.Context, args []string) error {
			if len(args) != 2 {
				return usagef("takes KIND ADDR: vester, staking, token or handler, and the address")
			}
			kind := wallet.PinKind(args[0])
			if !isPinKind(kind) {
				return usagef("%q is no kind of pin: vester, staking, token or handler", args[0])
			}
			addr, err := pinAddress(args[1:])
			if err != nil {
				return err
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			if _, err := s.Pin(ctx, kind, addr, true); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "unpinned %s %s from profile %q (%s)\n", kind, addr.Hex(), s.Name, s.ConfigPath)
			return nil
		}
	},
}

var pinListCommand = command{
	name:    "pin list",
	args:    "[-o json]",
	summary: "list the contracts the profile pins, with their code hashes",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			pins, err := s.SigningPins(ctx)
			if err != nil {
				return err
			}
			type pinned struct {
				Kind     wallet.PinKind `json:"kind"`
				Address  string         `json:"address"`
				CodeHash string         `json:"codeHash,omitempty"`
			}
			list := []pinned{}
			for _, kind := range wallet.PinKinds {
				for _, addr := range pins.List(kind) {
					p := pinned{Kind: kind, Address: addr.Hex()}
					if h, ok := pins.CodeHashes[addr]; ok {
						p.CodeHash = h.Hex()
					}
					list = append(list, p)
				}
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, list)
			}
			t := newTable(e.Stdout, "KIND", "ADDRESS", "CODE HASH")
			for _, p := range list {
				hash := p.CodeHash
				if hash == "" {
					hash = "none recorded: allot pin " + string(p.Kind) + " " + p.Address
				}
				t.row(string(p.Kind), p.Address, hash)
			}
			if err := t.flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.Stdout, "%d pinned in profile %q\n", len(list), s.Name)
			return nil
		}
	},
}

func isPinKind(kind wallet.PinKind) bool {
	for _, k := range wallet.PinKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// pinAddress reads the one address a pin command takes: an EIP-55
// checksum is checked when it is in mixed case, as a typo must not pin
// another contract.
func pinAddress(args []string) (common.Address, error) {
	if len(args) != 1 {
		return common.Address{}, usagef("takes one contract address")
	}
	addr, err := config.ParseAddress(args[0])
	if err != nil {
		return common.Address{}, usagef("%v", err)
	}
	return addr, nil
}

// printContractInfo says what allot knows of a contract before it is
// pinned: who lists it and what code is there.
func printContractInfo(w io.Writer, info session.ContractInfo) {
	code := info.CodeHash.Hex()
	switch {
	case errors.Is(info.CodeErr, wallet.ErrNoContract):
		code = "none: no contract at this address"
	case info.CodeErr != nil:
		code = "could not be read: " + info.CodeErr.Error()
	}
	pairs := []string{"contract", info.Address.Hex(), "listed", info.ListedAs(), "code hash", code}
	if logic := info.Logic(); logic != "" {
		pairs = append(pairs, "logic", logic)
	}
	if flag := info.Flag(); flag != "" {
		pairs = append(pairs, "flag", flag)
	}
	if info.Kind == wallet.PinVester || info.Kind == wallet.PinStaking {
		pairs = append(pairs, "candidates", candidatesSaid(info))
	}
	fields(w, pairs...)
	for _, c := range info.Candidates {
		fmt.Fprintf(w, "  %s\n", c)
	}
}

// candidatesSaid introduces the other listed contracts the one to pin
// could stand for.
func candidatesSaid(info session.ContractInfo) string {
	what := "that hold a root it holds"
	if info.Kind == wallet.PinStaking {
		what = "that stake the token it stakes"
	}
	if len(info.Candidates) == 0 {
		return "no other listed contract " + what
	}
	return fmt.Sprintf("%d other listed contract(s) %s (check which one is genuine):", len(info.Candidates), what)
}

// pinHint follows a refusal that only missing pins caused: the commands
// that pin each contract in the profile the command ran on. Signing never
// pins, --yes included: pinning is for the user to do, once checked.
func pinHint(w io.Writer, s *opened, refused *wallet.RefusedError) {
	if !refused.OnlyUnpinned() || !s.CanPin() {
		return
	}
	fmt.Fprintf(w, "Only pins are missing. Check each contract on a block explorer, then pin it in profile %q:\n", s.Name)
	for _, u := range refused.Unpinned {
		fmt.Fprintf(w, "  allot --profile %s pin %s %s\n", shellWord(s.Name), u.Kind, u.Address.Hex())
	}
}

// shellWord quotes a profile name for a shell when it needs it.
func shellWord(v string) string {
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
		}
	}
	return v
}
