package cli

import (
	"context"
	"flag"
	"sort"
	"strings"
)

// commands is the index of the command line: every headless command, by
// what it does, each in the file named beside it. `allot help` prints them
// sorted by name.
var commands = []command{
	// Read the service: browse.go.
	contractsCommand,
	poolsCommand,
	stakesCommand,
	humanityCommand,
	// An allocation's merkle proof, checked: proof.go.
	proofCommand,
	// Claim an allocation, and with --sign sign and send the claim:
	// claim.go, over the signing flow of sign.go.
	claimCommand,
	// The claim portal, signed in with a keystore account: signin.go;
	// staking through it: stake.go.
	signinCommand,
	submissionCommand,
	stakeCommand,
	// The operator's writes: tx.go, schedule.go, creative.go.
	txInitializeCommand,
	txStartCommand,
	txFundCommand,
	scheduleCreateCommand,
	creativeUploadCommand,
	// The local keystore: account.go (its flags: keystore.go).
	accountListCommand,
	accountNewCommand,
	accountImportCommand,
	// The sandbox service as a server: sandbox.go.
	sandboxCommand,
}

// command is one headless command. Its run function gets what it works on
// from env.open (open.go).
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string
	// flags declares the command's own flags on fs and returns its run
	// function, which receives the positional arguments.
	flags func(fs *flag.FlagSet, e *env) func(ctx context.Context, args []string) error
	// standalone commands use no profile: they take no global flags.
	standalone bool
}

// noArgs refuses positional arguments to a command that takes none.
func noArgs(name string, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", name, args[0])
	}
	return nil
}

// lookup finds a command by name, or by name and sub-command ("tx start").
func lookup(name string, rest []string) (command, bool) {
	if len(rest) > 0 {
		if cmd, ok := commandsByName()[name+" "+rest[0]]; ok {
			return cmd, true
		}
	}
	cmd, ok := commandsByName()[name]
	return cmd, ok
}

// subcommands lists the sub-commands of a command group such as "tx".
func subcommands(group string) []string {
	var subs []string
	for _, c := range commands {
		if sub, ok := strings.CutPrefix(c.name, group+" "); ok {
			subs = append(subs, sub)
		}
	}
	sort.Strings(subs)
	return subs
}

func commandsByName() map[string]command {
	m := make(map[string]command, len(commands))
	for _, c := range commands {
		m[c.name] = c
	}
	return m
}
