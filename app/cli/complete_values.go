package cli

import (
	"context"
	"flag"
	"strings"
	"time"

	"allot/core/config"
	"allot/core/embedded"
	"allot/core/journal"
	"allot/core/session"
	"allot/internal/sanitize"
	"allot/wallet"
)

// valueKind is what a flag's value or an operand is, for completion.
type valueKind int

const (
	anyValue      valueKind = iota // nothing to offer: an address, an amount
	fileValue                      // a file name, the shell's own
	dirValue                       // a directory name
	profileValue                   // a profile of the configuration
	tokenValue                     // a token's name, symbol or id
	poolValue                      // a pool's name, from the service
	allocationIDs                  // allocation ids, followed or looked up lately
	shellValue                     // a shell allot completes
	pinKindValue                   // a kind of pin
	safeValue                      // a Safe the profile lists
)

// flagKinds name the values of the flags whose placeholder does not tell
// them (an ID may be a token's, a pool's or an allocation's); every name
// is a flag of some command (TestCompletionTablesNameRealThings).
var flagKinds = map[string]valueKind{
	"profile":    profileValue,
	"token":      tokenValue,
	"pool":       poolValue,
	"allocation": allocationIDs,
}

// operandKinds say what each command's operands are: each in turn, and
// rest for every one after them. A command not here has operands
// nothing completes (an address, a URL).
var operandKinds = map[string]struct {
	each []valueKind
	rest valueKind
}{
	"proof":           {each: []valueKind{allocationIDs}},
	"claim":           {each: []valueKind{allocationIDs}},
	"history":         {each: []valueKind{allocationIDs}},
	"upcoming":        {rest: allocationIDs},
	"watch":           {rest: allocationIDs},
	"creative upload": {each: []valueKind{fileValue}},
	"account import":  {each: []valueKind{fileValue}},
	"pin rm":          {each: []valueKind{pinKindValue}},
	"safe show":       {each: []valueKind{safeValue}},
	"safe remove":     {each: []valueKind{safeValue}},
	"completion":      {each: []valueKind{shellValue}},
}

// choices is a flag value that takes one of a few words (-o).
type choices interface{ choices() []string }

// kindOf is what f's value is: its name says, or its placeholder (FILE,
// PATH, PROOF.json, DIR).
func kindOf(f *flag.Flag) valueKind {
	if k, ok := flagKinds[f.Name]; ok {
		return k
	}
	switch arg, _ := flag.UnquoteUsage(f); {
	case arg == "DIR":
		return dirValue
	case arg == "FILE", arg == "PATH", strings.HasSuffix(arg, ".json"):
		return fileValue
	}
	return anyValue
}

// flagValues are the values f may take; each candidate starts with lead
// (--profile= when the value is in the flag's word).
func (e *env) flagValues(ctx context.Context, w *words, f *flag.Flag, cur, lead string) ([]candidate, string) {
	var cands []candidate
	directive := directiveNone
	if c, ok := f.Value.(choices); ok {
		for _, v := range c.choices() {
			cands = append(cands, candidate{value: v})
		}
	} else {
		cands, directive = e.values(ctx, w, kindOf(f), cur)
	}
	if lead != "" {
		for i := range cands {
			cands[i].value = lead + cands[i].value
		}
	}
	return cands, directive
}

// operandValues are what the command's next operand may be.
func (e *env) operandValues(ctx context.Context, w *words, cur string) ([]candidate, string) {
	spec := operandKinds[w.cmd.name]
	kind := spec.rest
	if w.operands < len(spec.each) {
		kind = spec.each[w.operands]
	}
	return e.values(ctx, w, kind, cur)
}

// values are the candidates of a kind of value.
func (e *env) values(ctx context.Context, w *words, kind valueKind, cur string) ([]candidate, string) {
	switch kind {
	case fileValue:
		return nil, directiveFiles
	case dirValue:
		return nil, directiveDirs
	case shellValue:
		return []candidate{{"bash", ""}, {"fish", ""}, {"zsh", ""}}, directiveNone
	case pinKindValue:
		var out []candidate
		for _, k := range wallet.PinKinds {
			out = append(out, candidate{value: string(k)})
		}
		return out, directiveNone
	case profileValue:
		return profileNames(w.values["config"]), directiveNone
	case tokenValue:
		return e.tokenNames(w), directiveNone
	case poolValue:
		return e.poolNames(ctx, w), directiveNone
	case allocationIDs:
		return e.allocationIDs(w, cur), directiveNone
	case safeValue:
		p, ok := e.peek(w)
		if !ok {
			return nil, directiveNone
		}
		var out []candidate
		for _, a := range p.Safes() {
			out = append(out, candidate{value: a.Hex()})
		}
		return out, directiveNone
	}
	return nil, directiveNone
}

// peek resolves the profile the words choose, reading the configuration
// alone; ok is false when it cannot be read.
func (e *env) peek(w *words) (session.Peek, bool) {
	p, err := session.PeekAt(session.Options{
		ConfigPath:   w.values["config"],
		Profile:      w.values["profile"],
		ForceSandbox: w.values["sandbox"] == "true",
		Getenv:       e.Getenv,
		Embedded:     embedded.Start{},
	})
	return p, err == nil
}

// profileNames are the profiles of the configuration at path (the
// default one when ""): no file, or one that does not read, has none.
func profileNames(path string) []candidate {
	cfg, err := config.Load(path)
	if err != nil {
		return nil
	}
	var out []candidate
	for _, name := range cfg.ProfileNames() {
		about := ""
		if name == cfg.DefaultProfile {
			about = "the default profile"
		}
		out = append(out, candidate{name, about})
	}
	return out
}

// tokenNames offer each token by its symbol, else its name, else its id.
func (e *env) tokenNames(w *words) []candidate {
	p, ok := e.peek(w)
	if !ok {
		return nil
	}
	tokens, err := p.Tokens()
	if err != nil {
		return nil
	}
	var out []candidate
	for _, t := range tokens {
		switch {
		case t.Symbol != "":
			out = append(out, candidate{t.Symbol, t.Name + " " + t.ID})
		case t.Name != "":
			out = append(out, candidate{t.Name, t.ID})
		default:
			out = append(out, candidate{t.ID, ""})
		}
	}
	return out
}

// poolLookup bounds the wait for the service's pools: a completion that
// hangs is worse than none.
const poolLookup = 2 * time.Second

// poolNames are the names of the pools of the token --token names (the
// profile's first by default), as the service lists them, if it answers
// within poolLookup. A name two pools share names neither (poolNamed
// refuses it): it is left out.
func (e *env) poolNames(ctx context.Context, w *words) []candidate {
	p, ok := e.peek(w)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, poolLookup)
	defer cancel()
	names, err := p.PoolNames(ctx, w.values["token"])
	if err != nil {
		return nil
	}
	count := map[string]int{}
	for _, n := range names {
		count[strings.ToLower(n)]++
	}
	var out []candidate
	for _, n := range names {
		if count[strings.ToLower(n)] == 1 {
			out = append(out, candidate{value: n})
		}
	}
	return out
}

// recentIDs is how many allocations looked up lately are offered.
const recentIDs = 20

// allocationIDs are the allocations followed on the profile's
// deployment, then those looked up lately, from the local record alone.
// For --allocation ID,ID the ids complete after the last comma, those
// listed before it left out.
func (e *env) allocationIDs(w *words, cur string) []candidate {
	p, ok := e.peek(w)
	if !ok {
		return nil
	}
	j := journal.Look(p.StateDir)
	lead := cur[:strings.LastIndex(cur, ",")+1]
	seen := map[string]bool{}
	for _, id := range strings.Split(lead, ",") {
		seen[id] = true
	}
	var out []candidate
	add := func(ids []string, about string) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, candidate{lead + id, about})
			}
		}
	}
	followed, _ := p.Follows().IDs() // a file that does not read follows none beyond the profile's
	add(followed, "followed")
	add(j.RecentLookups(p.Deployment, recentIDs), "looked up lately")
	return out
}

// Bounds on what completion prints: a list or a record padded by a
// hostile service or file must not flood the shell.
const (
	maxCandidates   = 200
	maxCandidateLen = 200 // bytes
	maxAboutRunes   = 80
)

// bounded keeps the candidates that start with cur and are safe to hand
// a shell as they are: printable, one line, no tab, not too long. A
// candidate is dropped rather than mended, since a mended name would
// complete to one that names nothing; its description is sanitized.
func bounded(cands []candidate, cur string) []candidate {
	var out []candidate
	for _, c := range cands {
		if len(out) == maxCandidates {
			break
		}
		if c.value == "" || len(c.value) > maxCandidateLen || sanitize.Line(c.value) != c.value || !strings.HasPrefix(c.value, cur) {
			continue
		}
		out = append(out, candidate{c.value, sanitize.Truncate(c.about, maxAboutRunes)})
	}
	return out
}
