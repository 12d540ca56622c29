package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/browse"
	"allot/views/creative"
	"allot/views/holder"
	"allot/views/schedule"
)

// commands are what the : line takes; tab completes their names.
var commands = []struct{ name, args, help string }{
	{"contracts", "", "the contracts of the token"},
	{"contract", "NAME", "a contract of the token, its details shown (tab completes)"},
	{"pools", "", "the staking pools of the token"},
	{"stakes", "POOL", "the stakes of a pool (id or name; tab completes)"},
	{"alloc", "ID", "look up an allocation (tab completes recent ones)"},
	{"upcoming", "", "the unlocks ahead of the allocations you follow (f on an allocation)"},
	{"transactions", "", "transactions created on this machine"},
	{"requests", "", "the request inspector"},
	{"token", "ID|NAME", "switch token (id, or name or symbol; tab completes)"},
	{"profile", "[NAME]", "list the profiles, or switch to one"},
	{"schedule", "", "create an unlock schedule"},
	{"creative", "", "upload a portal creative"},
	{"unlock", "", "unlock a keystore account"},
	{"lock", "", "lock the account and sign out"},
	{"portal", "", "sign in to the portal, humanity, submission"},
	{"signout", "", "forget the portal session"},
	{"q", "", "quit"},
}

func newCommandLine() textinput.Model {
	in := textinput.New()
	in.Prompt = ":"
	in.CharLimit = 120
	in.Placeholder = "pools · stakes POOL · alloc ID · token ID · q (tab completes)"
	return in
}

// completions are what tab can complete after a command's name: the
// configuration's profiles, the profile's tokens, and the pools of the
// token on show (fetched when the command line opens).
type completions struct {
	profiles []string
	// tokens are the names and symbols of the named tokens and the ids of
	// the others; namedIDs the ids of the named ones, offered once a
	// first character is typed, so that the list stays short.
	tokens, namedIDs []string
	pools            []string // ids and names; nil until fetched
	poolsErr         string   // why they could not be fetched
	contracts        []string // names; nil until fetched
	contractsErr     string   // why they could not be fetched
	// allocations are the ids looked up lately (and the embedded
	// sandbox's demo ones).
	allocations []string
}

// complete extends the command name typed so far, or the argument of a
// command that takes a name or id, or lists the choices.
func complete(line string, c completions) (string, string) {
	name, arg, hasArg := strings.Cut(line, " ")
	if !hasArg {
		var names []string
		for _, cmd := range commands {
			names = append(names, cmd.name)
		}
		return completeWord(line, "", names, "command")
	}
	switch name {
	case "profile":
		return completeWord(arg, "profile ", c.profiles, "profile")
	case "token":
		choices := c.tokens
		if arg != "" {
			choices = append(slices.Clip(choices), c.namedIDs...)
		}
		return completeWord(arg, "token ", choices, "token")
	case "alloc", "allocation":
		return completeWord(arg, name+" ", c.allocations, "recent allocation")
	case "stakes":
		switch {
		case c.poolsErr != "":
			return line, "pool names: " + c.poolsErr
		case c.pools == nil:
			return line, loadingPools
		}
		return completeWord(arg, "stakes ", c.pools, "pool")
	case "contract":
		switch {
		case c.contractsErr != "":
			return line, "contract names: " + c.contractsErr
		case c.contracts == nil:
			return line, loadingContracts
		}
		return completeWord(arg, "contract ", c.contracts, "contract")
	}
	return line, ""
}

// loadingPools is the hint while the pool names are on their way; their
// arrival completes the line.
const loadingPools = "loading the pool names…"

// loadingContracts is loadingPools for the contract names.
const loadingContracts = "loading the contract names…"

// completeWord completes typed among choices (case-insensitively, as pool
// names are matched): the one choice, or their longest common beginning
// and the list.
func completeWord(typed, prefix string, choices []string, what string) (string, string) {
	matches := prefixed(choices, typed)
	switch len(matches) {
	case 0:
		return prefix + typed, fmt.Sprintf("no %s starts with %s", what, typed)
	case 1:
		if prefix == "" {
			return matches[0] + " ", ""
		}
		return prefix + matches[0], ""
	}
	return prefix + commonPrefix(matches), strings.Join(matches, " · ")
}

func commonPrefix(words []string) string {
	common := []rune(words[0])
	for _, w := range words[1:] {
		r := []rune(w)
		n := 0
		for n < len(common) && n < len(r) && strings.EqualFold(string(common[n]), string(r[n])) {
			n++
		}
		common = common[:n]
	}
	return string(common)
}

// prefixed are the names that start with prefix, whatever its case,
// sorted.
func prefixed(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if len(n) >= len(prefix) && strings.EqualFold(n[:len(prefix)], prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// runCommand carries out a : command.
func (m *Model) runCommand(line string) tea.Cmd {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil
	}
	name, args := fields[0], fields[1:]
	// A name may hold spaces ("Whale pool"): what follows the command is
	// its one argument, for the commands that take a name.
	_, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	rest = strings.TrimSpace(rest)
	need := func(n int, what string) error {
		if len(args) != n {
			return fmt.Errorf(":%s takes %s", name, what)
		}
		return nil
	}
	switch name {
	case "q", "quit":
		return m.quit()
	case "contracts":
		return m.switchTab(tabContracts)
	case "contract":
		if rest == "" {
			return m.fail("command", errors.New(":contract takes a contract name (tab completes)"))
		}
		return m.findContract(rest)
	case "pools":
		return m.switchTab(tabPools)
	case "transactions", "tx":
		return m.switchTab(tabTransactions)
	case "requests":
		return m.switchTab(tabRequests)
	case "alloc", "allocation":
		if err := need(1, "an allocation id"); err != nil {
			return m.fail("command", err)
		}
		cmd := m.switchTab(tabAllocation)
		return tea.Batch(cmd, m.top().Update(holder.LookupMsg{ID: args[0]}))
	case "upcoming":
		return m.open(holder.NewUpcoming(m.ctx))
	case "stakes":
		if rest == "" {
			return m.fail("command", errors.New(":stakes takes a pool id or name (tab completes)"))
		}
		// The screen looks its pool up, on the Pools tab where esc
		// leads back to every pool.
		m.switchTab(tabPools)
		return m.open(browse.NewStakesByRef(m.ctx, rest))
	case "schedule", "schedules":
		return m.open(schedule.New(m.ctx))
	case "creative", "creatives":
		return m.open(creative.New(m.ctx))
	case "unlock":
		return m.open(holder.NewUnlock(m.ctx))
	case "lock":
		return m.lock()
	case "portal":
		return m.switchTab(tabPortal)
	case "signout":
		m.ctx.Wallet.SignOut()
		return m.inform("signed out: the portal token is forgotten")
	case "token":
		id, ok := m.ctx.Session.FindToken(rest)
		switch {
		case ok:
		case api.CheckUUID("token", rest) == nil:
			id = rest // a token the profile does not list
		default:
			return m.fail("command", errors.New(":token takes a token id, or the name or symbol of one of the profile's tokens (tab completes)"))
		}
		return m.setToken(id)
	case "profile":
		switch len(args) {
		case 0:
			return m.listProfiles()
		case 1:
			return m.switchProfile(args[0])
		}
		return m.fail("command", errors.New(":profile takes one name, or none to list them"))
	}
	return m.fail("command", fmt.Errorf("unknown command :%s (tab completes; ? lists keys)", name))
}

// namesMsg carries the names a command's argument completes from, those
// of a token: its pools' names and ids for :stakes, its contracts' names
// for :contract. names is not nil once fetched: a token with none has an
// empty list.
type namesMsg struct {
	cmd   string // the command they complete: "stakes" or "contract"
	token string
	names []string
	err   string
}

// namesOf is where the names cmd completes are kept.
func (m *Model) namesOf(cmd string) *namesMsg {
	if cmd == "stakes" {
		return &m.poolNames
	}
	return &m.contractNames
}

// loadingNames is the hint while the names cmd completes are on their way.
func loadingNames(cmd string) string {
	if cmd == "stakes" {
		return loadingPools
	}
	return loadingContracts
}

// fetchNames asks for the names cmd completes (list's answer) for the
// token on show, once per token, when the command line opens: tab then
// completes without waiting.
func (m *Model) fetchNames(cmd string, list func(context.Context, *api.Client, string) ([]string, error)) tea.Cmd {
	if have := m.namesOf(cmd); have.token == m.ctx.Token && have.err == "" {
		return nil
	}
	client, token := m.ctx.Session.API, m.ctx.Token
	ctx, cancel := m.ctx.Bound(views.CompletionTimeout)
	return func() tea.Msg {
		defer cancel()
		names, err := list(ctx, client, token)
		if err != nil {
			return namesMsg{cmd: cmd, token: token, err: sanitize.Truncate(err.Error(), 80)}
		}
		return namesMsg{cmd: cmd, token: token, names: names}
	}
}

// poolNames are the names and ids of a token's pools, for :stakes.
func poolNames(ctx context.Context, client *api.Client, token string) ([]string, error) {
	pools, err := client.AllPools(ctx, token)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, p := range pools.Items {
		names = append(names, sanitize.Line(p.Name), p.ID)
	}
	return names, nil
}

// contractNames are the names of a token's contracts, for :contract.
func contractNames(ctx context.Context, client *api.Client, token string) ([]string, error) {
	list, err := client.Contracts(ctx, token)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, c := range list.Items {
		names = append(names, sanitize.Line(c.Name))
	}
	return names, nil
}

func (m *Model) completions() completions {
	c := completions{profiles: m.opts.Switch.Names, allocations: holder.RecentAllocations(m.ctx)}
	for _, id := range m.ctx.Session.Tokens() {
		n, ok := m.ctx.Session.TokenName(id)
		switch {
		case !ok:
			c.tokens = append(c.tokens, id)
		case n.Symbol != "":
			c.tokens = append(c.tokens, sanitize.Line(n.Name), sanitize.Line(n.Symbol))
			c.namedIDs = append(c.namedIDs, id)
		default:
			c.tokens = append(c.tokens, sanitize.Line(n.Name))
			c.namedIDs = append(c.namedIDs, id)
		}
	}
	if m.poolNames.token == m.ctx.Token {
		c.pools, c.poolsErr = m.poolNames.names, m.poolNames.err
	}
	if m.contractNames.token == m.ctx.Token {
		c.contracts, c.contractsErr = m.contractNames.names, m.contractNames.err
	}
	return c
}

// completeCommand completes the command line as tab does.
func (m *Model) completeCommand() {
	line, hint := complete(m.cmdline.Value(), m.completions())
	m.cmdline.SetValue(line)
	m.cmdline.CursorEnd()
	m.commandH = hint
}

// lock forgets the unlocked key and the portal session, from any screen
// (L or :lock).
func (m *Model) lock() tea.Cmd {
	_, _, unlocked := m.ctx.Wallet.Account()
	m.ctx.Wallet.Lock()
	if !unlocked {
		return m.inform("no account was unlocked; the portal session, if any, is closed")
	}
	return m.inform("locked: the key is forgotten and the portal session closed")
}
