package app

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

// commands are what the : line takes; tab completes their names.
var commands = []struct{ name, args, help string }{
	{"contracts", "", "the contracts of the token"},
	{"pools", "", "the staking pools of the token"},
	{"stakes", "POOL", "the stakes of a pool (id or name)"},
	{"alloc", "ID", "look up an allocation"},
	{"transactions", "", "transactions created on this machine"},
	{"requests", "", "the request inspector"},
	{"token", "ID", "switch token"},
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

// complete extends the command name typed so far, or a profile's name
// after :profile, or lists the choices.
func complete(line string, profiles []string) (string, string) {
	if name, ok := strings.CutPrefix(line, "profile "); ok && !strings.Contains(name, " ") {
		matches := prefixed(profiles, name)
		switch len(matches) {
		case 0:
			return line, "no profile starts with " + name
		case 1:
			return "profile " + matches[0], ""
		}
		return line, strings.Join(matches, " · ")
	}
	if strings.Contains(line, " ") {
		return line, ""
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	matches := prefixed(names, line)
	switch len(matches) {
	case 0:
		return line, "no command starts with " + line
	case 1:
		return matches[0] + " ", ""
	}
	return line, strings.Join(matches, " · ")
}

// prefixed are the names that start with prefix, sorted.
func prefixed(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
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
		return tea.Batch(cmd, m.top().Update(views.LookupMsg{ID: args[0]}))
	case "stakes":
		if err := need(1, "a pool id or name"); err != nil {
			return m.fail("command", err)
		}
		return m.openStakes(args[0])
	case "schedule", "schedules":
		return m.open(views.NewSchedule(m.ctx))
	case "creative", "creatives":
		return m.open(views.NewCreative(m.ctx))
	case "unlock":
		return m.open(views.NewUnlock(m.ctx))
	case "lock":
		m.ctx.Wallet.Lock()
		return m.inform("locked: the key is forgotten and the portal session closed")
	case "portal":
		return m.switchTab(tabPortal)
	case "signout":
		m.ctx.Wallet.SignOut()
		return m.inform("signed out: the portal token is forgotten")
	case "token":
		if err := need(1, "a token id"); err != nil {
			return m.fail("command", err)
		}
		return m.setToken(args[0])
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
