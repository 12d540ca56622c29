package cli

import (
	"allot/api"
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strconv"
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
	// What happened to an allocation on chain, or a wallet's claims:
	// history.go.
	historyCommand,
	// The unlocks ahead of followed allocations, and a watch of them:
	// upcoming.go, watch.go.
	upcomingCommand,
	watchCommand,
	// Claim an allocation, and with --sign sign and send the claim:
	// claim.go, over the signing flow of sign.go.
	claimCommand,
	// Transfer an allocation to a new withdrawal address: transfer.go.
	transferCommand,
	// The claim portal, signed in with a keystore account: signin.go;
	// staking through it: stake.go; what a failed stake left behind,
	// taken back: reset.go.
	signinCommand,
	submissionCommand,
	stakeCommand,
	resetAllowanceCommand,
	// The operator's writes: tx.go, schedule.go, creative.go.
	txInitializeCommand,
	txStartCommand,
	txFundCommand,
	scheduleCreateCommand,
	creativeUploadCommand,
	// What this machine created or sent, from its journal: transactions.go.
	transactionsCommand,
	// The local keystore: account.go (its flags: keystore.go).
	accountListCommand,
	accountNewCommand,
	accountImportCommand,
	// The contracts a claim or a stake may sign for: pin.go.
	pinVesterCommand,
	pinStakingCommand,
	pinTokenCommand,
	pinHandlerCommand,
	pinListCommand,
	pinRemoveCommand,
	pinCheckCommand,
	// A Safe read from the chain, and the hashes its owners sign:
	// safe.go; its proposals signed, shown and executed: safe_sign.go,
	// safe_proposal_show.go, safe_exec.go (made by stake and claim with
	// --owner: safe_acts.go, safe_propose.go); Transaction Builder files:
	// safe_txbuilder.go.
	safeShowCommand,
	safeHashCommand,
	// The Safes a profile works with: safe_accounts.go.
	safeAddCommand,
	safeListCommand,
	safeRemoveCommand,
	safeSignCommand,
	safeExecCommand,
	safeExportCommand,
	safeImportCommand,
	// Several acts of a Safe in one Safe transaction: safe_batch.go.
	safeBatchCommand,
	// The sandbox service as a server: sandbox.go.
	sandboxCommand,
	// What was built: version.go.
	versionCommand,
	// The shells' completion scripts: completion.go, over the candidates
	// of complete.go.
	completionCommand,
}

// command is one headless command. Its run function gets what it works on
// from env.open (open.go).
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string
	// operands say what each of args' positional arguments is, for
	// its help: a name, then what it takes.
	operands [][2]string
	// flags declares the command's own flags on fs and returns its run
	// function, which receives the positional arguments.
	flags func(fs *flag.FlagSet, e *env) func(ctx context.Context, args []string) error
	// standalone commands use no profile: they take no global flags.
	standalone bool
}

// noArgs refuses positional arguments to a command that takes none.
func noArgs(args []string) error {
	if len(args) > 0 {
		return usagef("takes no arguments, got %q", args[0])
	}
	return nil
}

// typed makes allot's own check of values the user typed (an
// *api.ValidationError found before anything was sent) a usage error that
// names each as it was typed: names maps a request's field path to its flag
// or argument, with [] for an index and %d for its place among the flag's
// values ("data[].amount": "--item %d's amount"). An error about a field
// not in names is returned as it is: that value came from elsewhere.
func typed(err error, names map[string]string) error {
	var v *api.ValidationError
	if !errors.As(err, &v) || v.Remote {
		return err
	}
	parts := make([]string, len(v.Fields))
	for i, f := range v.Fields {
		path, place := f.Path, 0
		if m := indexPattern.FindStringSubmatch(path); m != nil {
			place, _ = strconv.Atoi(m[1])
			path = indexPattern.ReplaceAllString(path, "[]")
		}
		name, ok := names[path]
		if !ok {
			return err
		}
		if strings.Contains(name, "%d") {
			name = fmt.Sprintf(name, place+1)
		}
		switch msg := f.Message; {
		case msg == "must hold at least 1 item":
			parts[i] = name + " is required"
		case strings.HasPrefix(msg, "is "), strings.HasPrefix(msg, "must "):
			parts[i] = name + " " + msg
		default:
			parts[i] = name + ": " + msg
		}
	}
	return usageError{msg: strings.Join(parts, "; ")}
}

var indexPattern = regexp.MustCompile(`\[(\d+)\]`)

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
