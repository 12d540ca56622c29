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
	"allot/views/proposals"
	"allot/views/schedule"
)

// command is one of the : line's commands: its name (what tab completes
// and the help lists), the other names it answers to, what it takes, and
// what it does. The table below is the only list of them: the help, the
// completion and runCommand all read it.
type command struct {
	name    string
	aliases []string
	args    string
	help    string
	run     func(m *Model, c call) tea.Cmd
}

// call is a : line as its command reads it: the words after the name, and
// all that follows the name as one argument (a name may hold spaces:
// "Whale pool").
type call struct {
	name string // as typed: the command's name or an alias
	args []string
	rest string
}

// need refuses a call without exactly n words after the name.
func (c call) need(n int, what string) error {
	if len(c.args) != n {
		return fmt.Errorf(":%s takes %s", c.name, what)
	}
	return nil
}

// commands are what the : line takes; tab completes their names. A
// function, not a variable: its handlers reach code that reads the table
// (help lists it), which a variable's initializer could not refer to.
func commands() []command {
	return []command{
		{"contracts", nil, "", "the contracts of the token", func(m *Model, _ call) tea.Cmd { return m.switchTab(tabContracts) }},
		{"contract", nil, "NAME", "a contract of the token, its details shown (tab completes)", func(m *Model, c call) tea.Cmd {
			if c.rest == "" {
				return m.fail("command", errors.New(":contract takes a contract name (tab completes)"))
			}
			return m.findContract(c.rest)
		}},
		{"pools", nil, "", "the staking pools of the token", func(m *Model, _ call) tea.Cmd { return m.switchTab(tabPools) }},
		{"stakes", nil, "POOL", "the stakes of a pool (id or name; tab completes)", func(m *Model, c call) tea.Cmd {
			if c.rest == "" {
				return m.fail("command", errors.New(":stakes takes a pool id or name (tab completes)"))
			}
			// The screen looks its pool up, on the Pools tab where esc
			// leads back to every pool.
			m.switchTab(tabPools)
			return m.open(browse.NewStakesByRef(m.ctx, c.rest))
		}},
		{"alloc", []string{"allocation"}, "ID", "look up an allocation (tab completes recent ones)", func(m *Model, c call) tea.Cmd {
			if err := c.need(1, "an allocation id"); err != nil {
				return m.fail("command", err)
			}
			cmd := m.switchTab(tabAllocation)
			return tea.Batch(cmd, tag(m.top(), m.top().Update(holder.LookupMsg{ID: c.args[0]})))
		}},
		{"upcoming", nil, "", "the unlocks ahead of the allocations you follow (f on an allocation)", func(m *Model, _ call) tea.Cmd { return m.open(holder.NewUpcoming(m.ctx)) }},
		{"transactions", []string{"tx"}, "", "transactions created on this machine", func(m *Model, _ call) tea.Cmd { return m.switchTab(tabTransactions) }},
		{"proposals", nil, "", "the Safe proposals of this machine: sign or execute one", func(m *Model, _ call) tea.Cmd {
			cmd := m.switchTab(tabTransactions)
			return tea.Batch(cmd, m.open(proposals.New(m.ctx)))
		}},
		{"safe", nil, "add|remove SAFE, import FILE SAFE [MULTISEND]", "list a Safe in the profile or take one out; import a Safe{Wallet} Transaction Builder file as a proposal", func(m *Model, c call) tea.Cmd { return m.safeCommand(c) }},
		{"requests", nil, "", "the request inspector", func(m *Model, _ call) tea.Cmd { return m.switchTab(tabRequests) }},
		{"token", nil, "ID|NAME", "switch token (id, or name or symbol; tab completes)", func(m *Model, c call) tea.Cmd {
			id, ok := m.ctx.Session.FindToken(c.rest)
			switch {
			case ok:
			case api.CheckUUID("token", c.rest) == nil:
				id = c.rest // a token the profile does not list
			default:
				return m.fail("command", errors.New(":token takes a token id, or the name or symbol of one of the profile's tokens (tab completes)"))
			}
			return m.setToken(id)
		}},
		{"profile", nil, "[NAME]", "list the profiles, or switch to one", func(m *Model, c call) tea.Cmd {
			switch len(c.args) {
			case 0:
				return m.listProfiles()
			case 1:
				return m.switchProfile(c.args[0])
			}
			return m.fail("command", errors.New(":profile takes one name, or none to list them"))
		}},
		{"schedule", []string{"schedules"}, "", "create an unlock schedule", func(m *Model, _ call) tea.Cmd { return m.open(schedule.New(m.ctx)) }},
		{"creative", []string{"creatives"}, "", "upload a portal creative", func(m *Model, _ call) tea.Cmd { return m.open(creative.New(m.ctx)) }},
		{"unlock", nil, "", "unlock a keystore account", func(m *Model, _ call) tea.Cmd { return m.open(holder.NewUnlock(m.ctx)) }},
		{"lock", nil, "", "lock the account and sign out", func(m *Model, _ call) tea.Cmd { return m.lock() }},
		{"portal", nil, "", "sign in to the portal, humanity, submission", func(m *Model, _ call) tea.Cmd { return m.switchTab(tabPortal) }},
		{"signout", nil, "", "forget the portal session", func(m *Model, _ call) tea.Cmd {
			if _, _, ok := m.ctx.Wallet.Portal(m.ctx.Now()); !ok {
				return m.inform("not signed in to the portal: nothing to sign out of")
			}
			m.ctx.Wallet.SignOut()
			return m.inform("signed out: the portal token is forgotten")
		}},
		{"q", []string{"quit"}, "", "quit", func(m *Model, _ call) tea.Cmd { return m.quit() }},
	}
}

// lookupCommand is the command called name, by its name or an alias.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c, true
		}
	}
	return command{}, false
}

func newCommandLine() textinput.Model {
	in := textinput.New()
	in.Prompt = ":"
	// Room for :safe import FILE SAFE MULTISEND with a long path.
	in.CharLimit = 400
	// Whole at 60 columns, the smallest the dashboard lays out; tab
	// lists the other commands, ? all of them.
	in.Placeholder = "pools · stakes POOL · alloc ID · q · tab completes"
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
	// safes are the Safes the profile lists, which :safe remove takes.
	safes []string
}

// complete extends the command name typed so far, or the argument of a
// command that takes a name or id, or lists the choices.
func complete(line string, c completions) (string, string) {
	name, arg, hasArg := strings.Cut(line, " ")
	if !hasArg {
		var names []string
		for _, cmd := range commands() {
			names = append(names, cmd.name)
		}
		return completeWord(line, "", names, "command")
	}
	if cmd, ok := lookupCommand(name); ok && name != cmd.name {
		// An alias completes as its command does, after the alias typed.
		line, hint := complete(cmd.name+" "+arg, c)
		return name + strings.TrimPrefix(line, cmd.name), hint
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
	case "alloc":
		return completeWord(arg, "alloc ", c.allocations, "recent allocation")
	case "stakes":
		switch {
		case c.poolsErr != "":
			return line, "pool names: " + c.poolsErr
		case c.pools == nil:
			return line, loadingPools
		}
		return completeWord(arg, "stakes ", c.pools, "pool")
	case "safe":
		return completeSafe(arg, c)
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
	c := call{name: fields[0], args: fields[1:]}
	_, c.rest, _ = strings.Cut(strings.TrimSpace(line), " ")
	c.rest = strings.TrimSpace(c.rest)
	cmd, ok := lookupCommand(c.name)
	if !ok {
		return m.fail("command", fmt.Errorf("unknown command :%s (tab completes; ? lists keys)", c.name))
	}
	return cmd.run(m, c)
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
	if addrs, err := m.ctx.Session.ProfileSafes(); err == nil {
		for _, a := range addrs {
			c.safes = append(c.safes, a.Hex())
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
