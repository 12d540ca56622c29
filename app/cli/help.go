package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
)

// printUsage is `allot help`: every command and the global flags.
func printUsage(w io.Writer) {
	fmt.Fprint(w, `allot: a terminal dashboard and command line for a token distribution service.

Usage:
  allot [--config PATH] [--profile NAME] [--sandbox]   open the dashboard
  allot COMMAND [flags] [arguments]                     run one command

With no configuration file, allot runs on its embedded sandbox.

Commands:
`)
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		names = append(names, c.name)
	}
	sort.Strings(names)
	byName := commandsByName()
	for _, n := range names {
		c := byName[n]
		fmt.Fprintf(w, "  %-18s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Global flags (before or after the command):
  --config PATH    configuration file (default $XDG_CONFIG_HOME/allot/config.toml)
  --profile NAME   profile of the configuration
  --sandbox        use the embedded sandbox

Run 'allot help COMMAND' for a command's flags.
`)
}

// printCommandUsage lists cmd's flags, which must be declared on fs: its
// own, then the global ones it takes. Flags are written with two dashes,
// as the README and the synopses write them (the flag package prints one).
func printCommandUsage(w io.Writer, cmd command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: allot %s %s\n\n%s\n\nFlags:\n", cmd.name, cmd.args, cmd.summary)
	global := map[string]bool{"config": true, "profile": true, "sandbox": true}
	fs.VisitAll(func(f *flag.Flag) {
		if !global[f.Name] || cmd.standalone {
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
