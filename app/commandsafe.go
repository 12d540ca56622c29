package app

import (
	"errors"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/config"
	"allot/views/holder"
	"allot/views/proposals"
)

// :safe add SAFE, :safe remove SAFE and :safe import FILE SAFE
// [MULTISEND] (docs/custody.md; MULTISEND as the CLI's --multisend): the dashboard's `allot safe add|remove|import`, one
// code path with them in the session.

// safeVerbs are what :safe takes first.
var safeVerbs = []string{"add", "remove", "import"}

// safeUsage is what :safe takes, said when it is given something else.
const safeUsage = ":safe takes add SAFE, remove SAFE, or import FILE SAFE [MULTISEND]"

// safeCommand opens the page of a :safe command.
func (m *Model) safeCommand(c call) tea.Cmd {
	if len(c.args) == 0 {
		return m.fail("command", errors.New(safeUsage))
	}
	switch verb, args := c.args[0], c.args[1:]; {
	case (verb == "add" || verb == "remove") && len(args) == 1:
		addr, err := config.ParseAddress(args[0])
		if err != nil {
			return m.fail("command", err)
		}
		return m.open(holder.NewSafeEdit(m.ctx, addr, verb == "remove"))
	case verb == "import" && (len(args) == 2 || len(args) == 3):
		addrs := make([]common.Address, 2) // the Safe, the MultiSendCallOnly
		for n, a := range args[1:] {
			addr, err := config.ParseAddress(a)
			if err != nil {
				return m.fail("command", err)
			}
			addrs[n] = addr
		}
		return m.open(proposals.NewImport(m.ctx, args[0], addrs[0], addrs[1]))
	}
	return m.fail("command", errors.New(safeUsage))
}

// completeSafe completes what follows :safe: its verb, then for remove
// one of the profile's Safes.
func completeSafe(arg string, c completions) (string, string) {
	verb, rest, ok := strings.Cut(arg, " ")
	switch {
	case !ok:
		line, hint := completeWord(arg, "safe ", safeVerbs, "safe command")
		if slices.Contains(safeVerbs, strings.TrimPrefix(line, "safe ")) {
			line += " "
		}
		return line, hint
	case verb == "remove":
		return completeWord(rest, "safe remove ", c.safes, "Safe of the profile")
	case verb == "add":
		return "safe " + arg, "the Safe's address: 0x and 40 hex digits"
	case verb == "import":
		return "safe " + arg, "a Transaction Builder file, the Safe it is for, and a MultiSendCallOnly when not the canonical one"
	}
	return "safe " + arg, safeUsage
}
