package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// help is `allot help [COMMAND]`: a command's flags, the commands of a
// group (allot help tx), or, without a name, every command.
func (e *env) help(args []string) error {
	if len(args) == 0 || args[0] == "help" {
		printUsage(e.Stdout)
		return nil
	}
	if cmd, ok := lookup(args[0], args[1:]); ok {
		fs := newFlagSet(cmd, e)
		cmd.flags(fs, e)
		printCommandUsage(e.Stdout, cmd, fs)
		return nil
	}
	group := args[0]
	subs := subcommands(group)
	switch {
	case len(subs) == 0:
		return usagef("help: unknown command %q", group)
	case len(args) > 1:
		return usageError{msg: fmt.Sprintf("help: %s has no command %q: it has %s", group, args[1], strings.Join(subs, ", ")), cmd: group, group: true}
	}
	fmt.Fprintf(e.Stdout, "Usage: allot %s COMMAND [flags] [arguments]\n\nCommands:\n", group)
	printCommands(e.Stdout, group+" ")
	fmt.Fprintf(e.Stdout, "\nRun 'allot help %s COMMAND' for a command's flags.\n", group)
	return nil
}

// printUsage is `allot help`: every command and the global flags.
func printUsage(w io.Writer) {
	fmt.Fprint(w, `allot: a terminal dashboard and command line for a token distribution service.

Usage:
  allot [--config PATH] [--profile NAME] [--sandbox]   open the dashboard
  allot COMMAND [flags] [arguments]                     run one command

With no configuration file, allot runs on its embedded sandbox.

Commands:
`)
	printCommands(w, "")
	fmt.Fprint(w, `
Global flags (before or after the command):
  --config PATH    configuration file (default $XDG_CONFIG_HOME/allot/config.toml)
  --profile NAME   profile of the configuration
  --sandbox        use the embedded sandbox
  --read-only      sign, send and write nothing: look only

Run 'allot help COMMAND' for a command's flags.
`)
}

// printCommands lists the commands whose names start with prefix, sorted,
// each with its summary.
func printCommands(w io.Writer, prefix string) {
	var names []string
	for _, c := range commands {
		if strings.HasPrefix(c.name, prefix) {
			names = append(names, c.name)
		}
	}
	sort.Strings(names)
	byName := commandsByName()
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, byName[n].summary)
	}
}

// printCommandUsage lists cmd's flags, which must be declared on fs: its
// own, then the global ones it takes. Flags are written with two dashes,
// as the README and the synopses write them (the flag package prints one).
func printCommandUsage(w io.Writer, cmd command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: allot %s %s\n\n%s\n", cmd.name, cmd.args, cmd.summary)
	if len(cmd.operands) > 0 {
		fmt.Fprintln(w, "\nArguments:")
		for _, o := range cmd.operands {
			fmt.Fprintf(w, "  %s\n      %s\n", o[0], o[1])
		}
	}
	global := map[string]bool{"config": true, "profile": true, "sandbox": true}
	heading := "\nFlags:"
	fs.VisitAll(func(f *flag.Flag) {
		if !global[f.Name] || cmd.standalone {
			if heading != "" { // once, and only over flags of its own
				fmt.Fprintln(w, heading)
				heading = ""
			}
			printFlag(w, f)
		}
	})
	if !cmd.standalone {
		fmt.Fprintln(w, "\nGlobal flags:")
		fs.VisitAll(func(f *flag.Flag) {
			if global[f.Name] {
				printFlag(w, f)
			}
		})
	}
}

func printFlag(w io.Writer, f *flag.Flag) {
	dashes := "--"
	if len(f.Name) == 1 {
		dashes = "-" // -o, as people type it
	}
	arg, usage := flag.UnquoteUsage(f)
	head := "  " + dashes + f.Name
	if arg != "" {
		head += " " + arg
	}
	fmt.Fprintf(w, "%s\n      %s", head, usage)
	if f.DefValue != "" && f.DefValue != "false" {
		fmt.Fprintf(w, " (default %q)", f.DefValue)
	}
	fmt.Fprintln(w)
}
