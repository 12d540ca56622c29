package cli

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
)

// completeName is the hidden command the completion scripts call (as
// cobra's __complete): `allot __complete WORD... CURRENT` prints what
// CURRENT may become, one candidate a line, a tab before a description,
// then a directive line. It reads the command table and the flag sets
// themselves, so the shells complete what this binary takes.
const completeName = "__complete"

// Directives end the answer: what else the shell should offer.
const (
	directiveNone  = ":0" // nothing more: no file names
	directiveFiles = ":1" // the shell's own file names
	directiveDirs  = ":2" // directory names
)

// candidate is one completion and what it is.
type candidate struct{ value, about string }

// words is what the words before the cursor say.
type words struct {
	cmd     *command
	group   string   // a group named, its command not yet
	help    []string // the words after help, when help was named
	isHelp  bool
	unknown bool // a word allot takes for no command: nothing completes
	fs      *flag.FlagSet
	values  map[string]string // flag values given, by flag name
	// pending is the flag whose value the current word is.
	pending  *flag.Flag
	dashes   bool // "--" was given: only operands follow
	operands int
}

// readWords reads the words before the current one as run would parse
// them: global flags, then the command, then its flags and operands.
func readWords(done []string) *words {
	w := &words{values: map[string]string{}}
	w.fs = flag.NewFlagSet("allot", flag.ContinueOnError)
	(&env{}).globalFlags(w.fs)
	for _, word := range done {
		switch {
		case w.pending != nil:
			w.values[w.pending.Name] = word
			w.pending = nil
		case word == "--" && w.cmd != nil && !w.dashes:
			w.dashes = true
		case !w.dashes && strings.HasPrefix(word, "-") && word != "-":
			w.flag(word)
		default:
			w.operand(word)
		}
	}
	return w
}

// flag reads a flag word: its value is in it (--profile=prod), or the
// next word when the flag is not a boolean.
func (w *words) flag(word string) {
	name, value, inline := strings.Cut(strings.TrimLeft(word, "-"), "=")
	f := w.fs.Lookup(name)
	switch {
	case f == nil:
	case inline:
		w.values[name] = value
	case isBoolFlag(f):
		w.values[name] = "true"
	default:
		w.pending = f
	}
}

func (w *words) operand(word string) {
	switch {
	case w.isHelp:
		w.help = append(w.help, word)
	case w.cmd != nil:
		w.operands++
	case w.group != "":
		if cmd, ok := commandsByName()[w.group+" "+word]; ok {
			w.use(cmd)
		} else {
			w.unknown = true
		}
	case word == "help":
		w.isHelp = true
	default:
		if cmd, ok := commandsByName()[word]; ok {
			w.use(cmd)
		} else if len(subcommands(word)) > 0 {
			w.group = word
		} else {
			w.unknown = true
		}
	}
}

// use makes cmd the command named: its flags are read from here on.
func (w *words) use(cmd command) {
	w.cmd = &cmd
	w.fs = newFlagSet(cmd, &env{})
	cmd.flags(w.fs, &env{})
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// complete is `allot __complete`: the candidates for the last of args,
// the words typed after allot. It never fails: what cannot be read
// offers nothing, and nothing goes to stderr.
func (e *env) complete(ctx context.Context, args []string) error {
	if len(args) == 0 {
		args = []string{""}
	}
	cur := args[len(args)-1]
	w := readWords(args[:len(args)-1])
	cands, directive := e.candidates(ctx, w, cur)
	var b strings.Builder
	for _, c := range bounded(cands, cur) {
		b.WriteString(c.value)
		if c.about != "" {
			b.WriteString("\t" + c.about)
		}
		b.WriteByte('\n')
	}
	b.WriteString(directive + "\n")
	_, err := fmt.Fprint(e.Stdout, b.String())
	return err
}

// candidates are what cur may become after the words w, unfiltered.
func (e *env) candidates(ctx context.Context, w *words, cur string) ([]candidate, string) {
	switch {
	case w.unknown:
		return nil, directiveNone
	case w.pending != nil:
		return e.flagValues(ctx, w, w.pending, cur, "")
	case !w.dashes && strings.HasPrefix(cur, "-"):
		if name, value, ok := strings.Cut(strings.TrimLeft(cur, "-"), "="); ok {
			if f := w.fs.Lookup(name); f != nil {
				return e.flagValues(ctx, w, f, value, cur[:len(cur)-len(value)])
			}
			return nil, directiveNone
		}
		return flagNames(w), directiveNone
	case w.isHelp:
		return helpOperands(w.help), directiveNone
	case w.cmd != nil:
		return e.operandValues(ctx, w, cur)
	case w.group != "":
		return commandWords(w.group + " "), directiveNone
	}
	return append(commandWords(""), candidate{"help", "a command's flags, or every command"}), directiveNone
}

// flagNames are the flags of the command named (or the global flags
// before one), written as the help writes them, and --help.
func flagNames(w *words) []candidate {
	var out []candidate
	w.fs.VisitAll(func(f *flag.Flag) {
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		_, usage := flag.UnquoteUsage(f)
		out = append(out, candidate{dashes + f.Name, usage})
	})
	out = append(out, candidate{"--help", "how to call it"})
	if w.cmd == nil {
		out = append(out, candidate{"--version", "allot's version, commit and toolchain"})
	}
	return out
}

// commandWords are the next words of the commands whose names start
// with prefix ("" or a group and a space): a command with its summary, a
// group with its commands.
func commandWords(prefix string) []candidate {
	byWord := map[string]string{}
	for _, c := range commands {
		rest, ok := strings.CutPrefix(c.name, prefix)
		if !ok {
			continue
		}
		word, _, grouped := strings.Cut(rest, " ")
		if grouped {
			byWord[word] = "commands: " + strings.Join(subcommands(word), ", ")
		} else {
			byWord[word] = c.summary
		}
	}
	out := make([]candidate, 0, len(byWord))
	for word, about := range byWord {
		out = append(out, candidate{word, about})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out
}

// helpOperands complete `allot help [GROUP] COMMAND`.
func helpOperands(typed []string) []candidate {
	switch {
	case len(typed) == 0:
		return commandWords("")
	case len(typed) == 1 && len(subcommands(typed[0])) > 0:
		return commandWords(typed[0] + " ")
	}
	return nil
}
