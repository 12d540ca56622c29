package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/views"
)

func TestComplete(t *testing.T) {
	t.Parallel()
	c := completions{
		profiles:    []string{"prod", "staging"},
		tokens:      []string{"db51faa7-0000-4000-8000-000000000001", "db51faa7-0000-4000-8000-000000000002"},
		pools:       []string{"Whale pool", "Season 8 · 30-day Flex", "Season 8 · 90-day Flex"},
		allocations: []string{"6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", "05b5c169-826c-5127-b4be-e82e50f24f7a"},
	}
	named := completions{tokens: []string{"Meridian", "MRD", "Harbor", "HBR"},
		namedIDs: []string{"db51faa7-2858-5523-b01a-79ecc813ed11", "028de82e-10de-5e3f-80c3-39636e464a0a"}}
	for _, tc := range []struct {
		name, line, want, hint string
		c                      completions
	}{
		{"a command", "sta", "stakes ", "", c},
		{"commands to choose", "p", "p", "pools · portal · profile · proposals", c},
		{"a pool name with a space, any case", "stakes wh", "stakes Whale pool", "", c},
		{"pools to choose: their common start", "stakes Season", "stakes Season 8 · ", "Season 8 · 30-day Flex · Season 8 · 90-day Flex", c},
		{"no such pool", "stakes x", "stakes x", "no pool starts with x", c},
		{"pools not fetched yet", "stakes W", "stakes W", "loading the pool names…", completions{}},
		{"pools could not be fetched", "stakes W", "stakes W", "pool names: connection refused", completions{poolsErr: "connection refused"}},
		{"a profile", "profile st", "profile staging", "", c},
		{"a token", "token db51faa7-0000-4000-8000-000000000002"[:8], "token db51faa7-0000-4000-8000-00000000000", "db51faa7-0000-4000-8000-000000000001 · db51faa7-0000-4000-8000-000000000002", c},
		{"a recent allocation", "alloc 05b5", "alloc 05b5c169-826c-5127-b4be-e82e50f24f7a", "", c},
		{"recent allocations to choose", "alloc ", "alloc ", "05b5c169-826c-5127-b4be-e82e50f24f7a · 6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", c},
		{"no recent allocation", "alloc 9", "alloc 9", "no recent allocation starts with 9", c},
		{"named tokens: names and symbols", "token ", "token ", "HBR · Harbor · MRD · Meridian", named},
		{"a token name, any case", "token me", "token Meridian", "", named},
		{"a named token's id once typed", "token db", "token db51faa7-2858-5523-b01a-79ecc813ed11", "", named},
		{"a safe verb", "safe r", "safe remove ", "", c},
		{"safe verbs", "safe ", "safe ", "add · import · remove", c},
		{"a Safe of the profile to remove", "safe remove 0x12", "safe remove 0x12753968b1983d941F183544FAAFb84f81A97C7C", "", completions{safes: []string{"0x12753968b1983d941F183544FAAFb84f81A97C7C"}}},
		{"what import takes", "safe import ", "safe import ", "a Transaction Builder file, the Safe it is for, and a MultiSendCallOnly when not the canonical one", c},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, hint := complete(tc.line, tc.c)
			if line != tc.want || hint != tc.hint {
				t.Errorf("complete(%q) = %q, %q; want %q, %q", tc.line, line, hint, tc.want, tc.hint)
			}
		})
	}
}

// Every seeded pool name has a space: :stakes takes the rest of the line,
// and tab completes the name from the token's pools.
func TestStakesByNameWithTab(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	view := drive(t, s, 120, 36,
		step{keys: ":stakes wha"}, step{key: tea.KeyTab, want: "stakes Whale pool"},
		step{key: tea.KeyEnter, want: "100,000 stakes"})
	if !strings.Contains(view, "Pools › Whale pool") {
		t.Errorf("the whale pool's stakes are not on show:\n%s", view)
	}
}

// :stakes with a name no pool has opens the stakes screen on the Pools
// tab, which says so itself; esc leads back to every pool.
func TestStakesUnknownPoolName(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	view := drive(t, s, 120, 36, step{want: "Team & Advisors Vesting"},
		step{keys: ":stakes Whale poo"}, step{key: tea.KeyEnter, want: "no pool"})
	if !strings.Contains(view, `✗ stakes: no pool "Whale poo" in this token`) || !strings.Contains(view, "[2 Pools]") ||
		!strings.Contains(view, "Pools › Whale poo") {
		t.Errorf("an unknown pool is not said on the Pools tab:\n%s", view)
	}
	view = drive(t, s, 120, 36, step{want: "Team & Advisors Vesting"},
		step{keys: ":stakes Whale poo"}, step{key: tea.KeyEnter, want: "no pool"},
		step{key: tea.KeyEsc, want: "64 pools"})
	if strings.Contains(view, "no pool") {
		t.Errorf("esc did not lead back to the pools:\n%s", view)
	}
}

// :alloc completes the allocations looked up lately, and on the embedded
// sandbox its demo ones, so a newcomer has an id to start from.
func TestAllocByTab(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id := s.Fixtures.AllocationIDs[0]
	view := drive(t, s, 120, 36,
		step{keys: ":alloc " + id[:6]}, step{key: tea.KeyTab, want: ":alloc " + id},
		step{key: tea.KeyEnter, want: "Unlock schedule"})
	if !strings.Contains(view, id) {
		t.Errorf("the demo allocation is not on show:\n%s", view)
	}
}

// :contract NAME opens that contract on the Contracts tab, from any tab:
// the cursor on it and its details shown, every contract listed (no filter
// left behind, even one typed before); tab completes the name; an unknown
// name says so.
func TestContractCommand(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	view := drive(t, s, 120, 36,
		step{want: "Team & Advisors Vesting"}, step{keys: "/Meridian"}, step{key: tea.KeyEnter, want: "filter: Meridian"},
		step{keys: "2", want: "Whale pool"},
		step{keys: ":contract seed"}, step{key: tea.KeyTab, want: "contract Seed & Strategic Vesting"},
		step{key: tea.KeyEnter, want: "▶ Seed & Strategic Vesting"})
	if !strings.Contains(view, "[1 Contracts]") || !strings.Contains(view, "▶ Seed & Strategic Vesting") ||
		!strings.Contains(view, "Name     Seed & Strategic Vesting") {
		t.Errorf("the contract is not on show, with its details:\n%s", view)
	}
	if strings.Contains(view, "filter:") || !strings.Contains(view, "Team & Advisors Vesting") || !strings.Contains(view, "2/5") {
		t.Errorf("a filter is left on the contracts:\n%s", view)
	}
	view = drive(t, s, 120, 36, step{want: "Team & Advisors Vesting"},
		step{keys: ":contract Nope"}, step{key: tea.KeyEnter, want: "no contract"})
	if !strings.Contains(view, `✗ contract: no contract "Nope" in this token`) {
		t.Errorf("an unknown contract is not said:\n%s", view)
	}
}

func TestCompleteContract(t *testing.T) {
	t.Parallel()
	c := completions{contracts: []string{"Meridian Staking", "Meridian Staking v2", "Seed & Strategic Vesting"}}
	for _, tc := range []struct{ line, want, hint string }{
		{"contract se", "contract Seed & Strategic Vesting", ""},
		{"contract meridian", "contract Meridian Staking", "Meridian Staking · Meridian Staking v2"},
		{"contract x", "contract x", "no contract starts with x"},
	} {
		if line, hint := complete(tc.line, c); line != tc.want || hint != tc.hint {
			t.Errorf("complete(%q) = %q, %q; want %q, %q", tc.line, line, hint, tc.want, tc.hint)
		}
	}
	if _, hint := complete("contract M", completions{}); hint != loadingContracts {
		t.Errorf("before the names arrive: %q", hint)
	}
}

// busy is a page with work under way.
type busy struct{ page }

func (busy) Mode() views.Mode { return views.Mode{Busy: true} }

// :contract closes the pages open on the Contracts tab to show the list,
// but not one with work under way: it says so and leaves them.
func TestContractCommandKeepsBusyPages(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	c := api.Contract{ID: "c1", Name: "Seed & Strategic Vesting", Address: "0x989dD4C9D2D2761ab6c1d1Fe5e23209BDB13e0a1"}
	m.Update(views.NavigateMsg{Screen: busy{page{title: "Sending"}}})
	m.Update(contractFoundMsg{contract: c})
	if len(m.stacks[tabContracts]) != 2 || !strings.Contains(m.status, "Sending on the Contracts tab has work under way") {
		t.Fatalf("a busy page was closed, or not said: %d pages, status %q", len(m.stacks[tabContracts]), m.status)
	}
	m.stacks[tabContracts][1] = page{title: "Details"}
	m.Update(contractFoundMsg{contract: c})
	if len(m.stacks[tabContracts]) != 1 || m.active != tabContracts {
		t.Fatalf("the details page stays over the list: %d pages", len(m.stacks[tabContracts]))
	}
}

// TestCommandHintWholeAt60: the : line's hint fits the documented
// smallest terminal, 60 columns, whole ("… (tab complet…" was cut).
func TestCommandHintWholeAt60(t *testing.T) {
	t.Parallel()
	view := drive(t, shared.Session(t), 60, 20, step{keys: ":", want: "tab completes"})
	if !strings.Contains(view, "tab completes") || strings.Contains(view, "complet…") {
		t.Errorf("the hint is cut at 60 columns:\n%s", view)
	}
}

// TestImportOperands: :safe import's file is all before the addresses
// that end the line, spaces and all, ~/ its home folder.
func TestImportOperands(t *testing.T) {
	t.Parallel()
	const safeText, msText = "0x12753968b1983d941F183544FAAFb84f81A97C7C", "0x2b59AF12D9491DE96c90189BC617e66c88Eb9766"
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ rest, file, ms, err string }{
		{rest: "batch.json " + safeText, file: "batch.json"},
		{rest: "My Drive/team batch.json  " + safeText + " " + msText, file: "My Drive/team batch.json", ms: msText},
		{rest: "~/Downloads/batch.json " + safeText, file: filepath.Join(home, "Downloads/batch.json")},
		{rest: "batch.json 0x1234", err: "not a 0x address"},
		{rest: safeText, err: ":safe takes"},
	} {
		file, safeAddr, ms, err := importOperands(tc.rest)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("importOperands(%q): %v, want %q", tc.rest, err, tc.err)
			}
		case err != nil || file != tc.file || safeAddr.Hex() != safeText || (tc.ms != "" && ms.Hex() != tc.ms) || (tc.ms == "" && ms != (common.Address{})):
			t.Errorf("importOperands(%q) = %q, %s, %s, %v", tc.rest, file, safeAddr.Hex(), ms.Hex(), err)
		}
	}
}
