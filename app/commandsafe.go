package app

import (
	"errors"
	"os"
	"path/filepath"
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
	case verb == "import" && len(args) >= 2:
		file, safeAddr, multiSend, err := importOperands(strings.TrimSpace(strings.TrimPrefix(c.rest, verb)))
		if err != nil {
			return m.fail("command", err)
		}
		return m.open(proposals.NewImport(m.ctx, file, safeAddr, multiSend))
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

// importOperands reads FILE SAFE [MULTISEND] from rest: the file is all
// before the addresses at the end, so that its path may hold spaces, and
// ~/ at its start is the home folder, as a shell would have it.
func importOperands(rest string) (file string, safeAddr, multiSend common.Address, err error) {
	words := strings.Fields(rest)
	var addrs []common.Address
	for len(addrs) < 2 && len(words) > 1 {
		addr, perr := config.ParseAddress(words[len(words)-1])
		if perr != nil {
			err = perr // the Safe's, when no address ends the line
			break
		}
		addrs = append([]common.Address{addr}, addrs...)
		rest = strings.TrimSpace(rest[:strings.LastIndex(rest, words[len(words)-1])])
		words = words[:len(words)-1]
	}
	switch len(addrs) {
	case 0:
		if err == nil {
			err = errors.New(safeUsage)
		}
		return "", safeAddr, multiSend, err
	case 2:
		multiSend = addrs[1]
	}
	if home, herr := os.UserHomeDir(); herr == nil && strings.HasPrefix(rest, "~/") {
		rest = filepath.Join(home, rest[2:])
	}
	return rest, addrs[0], multiSend, nil
}
