// Package cli is allot's command line: the headless commands for scripts and
// support staff, the standalone sandbox server, and the choice between them
// and the dashboard.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"allot/core/act"
	"allot/core/embedded"
	"allot/core/session"
	"allot/internal/clock"
	"allot/internal/sanitize"
)

// Exit statuses.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitCheckFail = 3 // a verification ran and a check failed
	ExitUnchecked = 4 // a verification could not run every check; none failed
	// ExitClaimable: allot watch --once found something to claim above
	// its threshold.
	ExitClaimable = 10
)

// IO is where a command reads and writes; tests replace all three.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Terminal reports whether stdin is a terminal a question can be
	// asked on; nil checks Stdin.
	Terminal func() bool
}

// env is what every command gets: its streams, the global flags, and the
// session, opened on first use so that `allot --help` needs no service.
type env struct {
	IO
	configPath string
	profile    string
	sandbox    bool
	readOnly   bool
	dashboard  Dashboard

	sess *session.Session
	rec  *act.Recorder // the session's journal, once opened
	// interactive: the dashboard runs, and restores the terminal itself
	// when the context ends.
	interactive atomic.Bool
	// readSecret reads a passphrase typed without echo; nil reads stdin
	// when it is a terminal. Tests set it.
	readSecret func() (string, error)
	// stderrTerminal: stderr is a terminal, where a long scan's progress
	// is worth printing.
	stderrTerminal bool
	// clock is what a watch waits on; nil is the wall clock. Tests move
	// a fake one.
	clock clock.Clock
}

func (e *env) session(ctx context.Context) (*session.Session, error) {
	if e.sess != nil {
		if e.readOnly {
			e.sess.SetReadOnly(session.ReadOnlyFlag)
		}
		return e.sess, nil
	}
	s, err := session.Open(ctx, e.sessionOptions())
	if err != nil {
		return nil, err
	}
	e.sess = s
	return s, nil
}

// sessionOptions are the global flags' choice of profile; notices go to
// stderr.
func (e *env) sessionOptions() session.Options {
	return session.Options{
		ConfigPath:   e.configPath,
		Profile:      e.profile,
		ForceSandbox: e.sandbox,
		ReadOnly:     e.readOnly,
		Embedded:     embedded.Start{},
		Getenv:       e.Getenv,
		Notice:       func(msg string) { fmt.Fprintln(e.Stderr, "allot: "+msg) },
	}
}

// usageError is a mistake in how a command was called: exit status 2.
// cmd names the command, or the group of commands (tx), whose help then
// says how to call it.
type usageError struct {
	msg, cmd string
	group    bool // cmd is a group: its help lists its commands
}

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{msg: fmt.Sprintf(format, a...)} }

// checkFailed is a verification that ran and failed: exit status 3.
type checkFailed struct{ msg string }

func (c checkFailed) Error() string { return c.msg }

// checkNotRun is a verification that failed nothing but could not run
// every check (no chain, a read failed): exit status 4, never a pass.
type checkNotRun struct{ msg string }

func (c checkNotRun) Error() string { return c.msg }

// exitStatus ends a command with a status of its own and nothing more
// to say: what it found is in its output (allot watch --once).
type exitStatus struct{ code int }

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", s.code) }

// Dashboard runs the interactive program on the session open opens, and
// closes it; sw opens the configuration's other profiles.
type Dashboard func(ctx context.Context, open session.Opener, sw session.Switch) error

// Main runs allot with args (without the program name) and returns the exit
// status. dashboard runs the interactive program; it is passed in so that
// this package does not depend on Bubble Tea.
//
// SIGINT or SIGTERM cancels the command's context. Work that cannot be
// cancelled (scrypt, a large decode, a blocked file) does not hold the
// process: a headless command gets interruptGrace to wind up, then allot
// exits without it; a second signal exits at once. The dashboard gets no
// such deadline on the first signal, since it must restore the terminal.
func Main(args []string, stdio IO, dashboard Dashboard) int {
	if stdio.Getenv == nil {
		stdio.Getenv = os.Getenv
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	e := &env{IO: stdio, dashboard: dashboard}
	if f, ok := stdio.Stderr.(*os.File); ok {
		e.stderrTerminal = term.IsTerminal(int(f.Fd()))
	}
	e.Stdout, e.Stderr = inert(e.Stdout), inert(e.Stderr)
	done := make(chan error, 1)
	go func() {
		err := run(ctx, e, args)
		if e.sess != nil {
			e.sess.Close()
		}
		done <- err
	}()

	var got os.Signal
	var grace <-chan time.Time
	for {
		select {
		case err := <-done:
			if got == nil {
				return report(e.Stderr, err)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				report(e.Stderr, err)
			}
			fmt.Fprintf(e.Stderr, "allot: interrupted by %s\n", signalName(got))
			return signalStatus(got)
		case sig := <-sigs:
			if got != nil {
				fmt.Fprintf(e.Stderr, "allot: interrupted by %s again: stopped at once\n", signalName(sig))
				return signalStatus(sig)
			}
			got = sig
			cancel()
			if !e.interactive.Load() {
				grace = time.After(interruptGrace)
			}
		case <-grace:
			fmt.Fprintf(e.Stderr, "allot: interrupted by %s: stopped without waiting for the work under way\n", signalName(got))
			return signalStatus(got)
		}
	}
}

// interruptGrace is how long a headless command has to stop after a
// signal: enough to close a request and journal its outcome.
const interruptGrace = 500 * time.Millisecond

// signalStatus is a shell's exit status for a process a signal ended:
// 130 for SIGINT, 143 for SIGTERM.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return ExitError
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

func report(stderr io.Writer, err error) int {
	var usage usageError
	var check checkFailed
	var notRun checkNotRun
	var status exitStatus
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &status):
		return status.code
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, "allot: "+sanitize.Line(usage.msg))
		switch {
		case usage.group:
			fmt.Fprintf(stderr, "Run 'allot help %s' for its commands.\n", usage.cmd)
		case usage.cmd != "":
			fmt.Fprintf(stderr, "Run 'allot help %s' for its flags.\n", usage.cmd)
		default:
			fmt.Fprintln(stderr, "Run 'allot help' for usage.")
		}
		return ExitUsage
	case errors.As(err, &check):
		fmt.Fprintln(stderr, "allot: "+sanitize.Line(check.msg))
		return ExitCheckFail
	case errors.As(err, &notRun):
		fmt.Fprintln(stderr, "allot: "+sanitize.Line(notRun.msg))
		return ExitUnchecked
	default:
		fmt.Fprintln(stderr, "allot: "+sanitize.Line(err.Error()))
		return ExitError
	}
}

func inert(w io.Writer) io.Writer {
	if _, ok := w.(*sanitize.Writer); ok {
		return w
	}
	return sanitize.NewWriter(w)
}

// globalFlags are accepted before the command and by every command.
func (e *env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.configPath, "config", e.configPath, "read the configuration from `PATH`")
	fs.StringVar(&e.profile, "profile", e.profile, "use the profile `NAME` of the configuration")
	fs.BoolVar(&e.sandbox, "sandbox", e.sandbox, "use the embedded sandbox, whatever the configuration says")
	fs.BoolVar(&e.readOnly, "read-only", e.readOnly, "sign, send and write nothing: look only (as read_only = true in a profile)")
}

func run(ctx context.Context, e *env, args []string) error {
	// Whatever a command prints, nothing reaches the terminal that could
	// start an escape sequence: most of it came from the network or a file.
	e.Stdout, e.Stderr = inert(e.Stdout), inert(e.Stderr)
	if len(args) > 0 && args[0] == completeName {
		return e.complete(ctx, args[1:])
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"} // as gh, kubectl and cast take it
	}
	top := flag.NewFlagSet("allot", flag.ContinueOnError)
	top.SetOutput(io.Discard)
	e.globalFlags(top)
	if err := top.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(e.Stdout)
			return nil
		}
		return usagef("%s", flagError(err))
	}
	args = top.Args()
	if err := e.checkGlobals(); err != nil {
		return err
	}
	if len(args) == 0 {
		// What is wrong with the configuration or the profile is said here,
		// before the dashboard takes the terminal; the dashboard starts the
		// embedded sandbox behind its first frame.
		open, err := session.Prepare(e.sessionOptions())
		if err != nil {
			return err
		}
		e.interactive.Store(true)
		return e.dashboard(ctx, open, session.NewSwitch(session.Options{ConfigPath: e.configPath, Getenv: e.Getenv, ReadOnly: e.readOnly, Embedded: embedded.Start{}}))
	}
	name, rest := args[0], args[1:]
	if name == "help" {
		return e.help(rest)
	}
	cmd, ok := lookup(name, rest)
	if !ok && len(subcommands(name)) > 0 && len(rest) > 0 && isHelpFlag(rest[0]) {
		return e.help([]string{name}) // allot pin --help, as allot help pin
	}
	if !ok {
		return groupError(name, rest)
	}
	if strings.Contains(cmd.name, " ") {
		rest = rest[1:]
	}
	if cmd.standalone && (e.configPath != "" || e.profile != "" || e.sandbox || e.readOnly) {
		return usageError{msg: cmd.name + " uses no profile: --config, --profile, --sandbox and --read-only do not apply", cmd: cmd.name}
	}
	fs := newFlagSet(cmd, e)
	runFn := cmd.flags(fs, e)
	if err := parseInterspersed(fs, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandUsage(e.Stdout, cmd, fs)
			return nil
		}
		return usageError{msg: cmd.name + ": " + flagError(err), cmd: cmd.name}
	}
	err := e.checkGlobals()
	if err == nil {
		err = e.checkUnknown(ctx, runFn(ctx, fs.Args()))
	}
	return commandError(cmd.name, err)
}

// groupError is the usage error for a name that is no command: a group
// such as tx without one of its commands, or a name allot does not know.
func groupError(name string, rest []string) error {
	subs := subcommands(name)
	switch {
	case len(subs) == 0:
		if near := nearestCommand(name); near != "" {
			return usagef("unknown command %q: did you mean %s?", name, near)
		}
		return usagef("unknown command %q", name)
	case len(rest) == 0 || strings.HasPrefix(rest[0], "-"):
		return usageError{msg: fmt.Sprintf("%s needs one of: %s", name, strings.Join(subs, ", ")), cmd: name, group: true}
	}
	return usageError{msg: fmt.Sprintf("%s has no command %q: it has %s", name, rest[0], strings.Join(subs, ", ")), cmd: name, group: true}
}

// isHelpFlag is what the flag package takes for a request of help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "--h"
}

// nearestCommand is the command or group a mistyped name was meant for:
// one that starts with the other ("contract" for contracts, "schedules"
// for schedule), the closest in length; else, for a name of six letters
// or more, one at most two edits away ("upcomming" for upcoming); ""
// when none, or the name is too short to tell.
func nearestCommand(name string) string {
	if len(name) < 3 {
		return ""
	}
	best, bestEdits := "", 3
	for _, c := range commands {
		word, _, _ := strings.Cut(c.name, " ")
		if strings.HasPrefix(word, name) || strings.HasPrefix(name, word) {
			if bestEdits > 0 || abs(len(word)-len(name)) < abs(len(best)-len(name)) {
				best, bestEdits = word, 0
			}
			continue
		}
		if len(name) < 6 {
			continue
		}
		if d := editDistance(name, word); d < bestEdits {
			best, bestEdits = word, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// letters inserted, deleted, changed, or two beside each other swapped
// ("hsitory"), each one edit.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(n int) int { return max(n, -n) }

// commandError starts every error of a command with its name, as in
// "allot: claim: --sender ADDR is required", whichever layer worded it,
// keeping its kind (and so its exit status). A usage error gets the
// command's help named after it.
func commandError(name string, err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	prefix := name + ": "
	named := func(msg string) string {
		if strings.HasPrefix(msg, prefix) {
			return msg
		}
		return prefix + msg
	}
	var usage usageError
	var check checkFailed
	var notRun checkNotRun
	switch {
	case errors.As(err, &usage):
		usage.msg = named(usage.msg)
		if usage.cmd == "" {
			usage.cmd = name
		}
		return usage
	case errors.As(err, &check):
		check.msg = named(check.msg)
		return check
	case errors.As(err, &notRun):
		notRun.msg = named(notRun.msg)
		return notRun
	case strings.HasPrefix(err.Error(), prefix):
		return err
	}
	return fmt.Errorf("%s%w", prefix, err)
}

// flagError words a flag package error as the help and the README write
// flags: two dashes, or one for a one-letter flag such as -o ("flag
// provided but not defined: -nope" would send a reader looking for a
// one-dash flag).
func flagError(err error) string {
	msg := err.Error()
	for _, r := range []struct{ from, to string }{
		{"flag provided but not defined: -", "unknown flag "},
		{"flag needs an argument: -", "a value is missing after "},
		{" for flag -", " for "},
	} {
		i := strings.Index(msg, r.from)
		if i < 0 {
			continue
		}
		// The name ends the message, or a colon after it does (invalid
		// value "x" for flag -o: why).
		name, why, hasWhy := strings.Cut(msg[i+len(r.from):], ":")
		dashes := "--"
		if len(name) == 1 {
			dashes = "-"
		}
		out := msg[:i] + r.to + dashes + name
		if hasWhy {
			out += ":" + why
		}
		return out
	}
	return msg
}

// checkGlobals refuses global flags that contradict each other, rather
// than choosing one silently.
func (e *env) checkGlobals() error {
	if e.sandbox && e.profile != "" {
		return usagef("--sandbox and --profile %s contradict each other: choose one", e.profile)
	}
	return nil
}

func newFlagSet(cmd command, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet("allot "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if !cmd.standalone {
		e.globalFlags(fs)
	}
	return fs
}

// parseInterspersed lets flags follow positional arguments
// (`allot proof ID -o json`), as people type them.
func parseInterspersed(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			positional = append(positional, args[1:]...)
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}
