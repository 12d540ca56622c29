package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestComplete(t *testing.T) {
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
		{"commands to choose", "p", "p", "pools · portal · profile", c},
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
	s := newSession(t)
	view := drive(t, s, 120, 36,
		step{keys: ":stakes wha"}, step{key: tea.KeyTab, want: "stakes Whale pool"},
		step{key: tea.KeyEnter, want: "100,000 stakes"})
	if !strings.Contains(view, "Pools › Whale pool") {
		t.Errorf("the whale pool's stakes are not on show:\n%s", view)
	}
}

// :alloc completes the allocations looked up lately, and on the embedded
// sandbox its demo ones, so a newcomer has an id to start from.
func TestAllocByTab(t *testing.T) {
	s := newSession(t)
	id := s.Fixtures.AllocationIDs[0]
	view := drive(t, s, 120, 36,
		step{keys: ":alloc " + id[:6]}, step{key: tea.KeyTab, want: ":alloc " + id},
		step{key: tea.KeyEnter, want: "Unlock schedule"})
	if !strings.Contains(view, id) {
		t.Errorf("the demo allocation is not on show:\n%s", view)
	}
}
