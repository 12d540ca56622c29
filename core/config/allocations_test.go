package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestProfileAllocations(t *testing.T) {
	const id = "05b5c169-826c-5127-b4be-e82e50f24f7a"
	cfg, err := Parse([]byte("[profiles.a]\nbase_url = \"https://a\"\nallocations = [\"" + id + "\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cfg.Profile("a"); len(p.Allocations) != 1 || p.Allocations[0] != id {
		t.Errorf("allocations = %q", p.Allocations)
	}
	many := strings.Repeat(fmt.Sprintf("%q, ", id), MaxAllocations+1)
	for _, tc := range []struct{ list, want string }{
		{`["x"]`, `allocations[0]: "x" is not a UUID`},
		{"[" + many + "]", fmt.Sprintf("allocations: %d ids, more than %d", MaxAllocations+1, MaxAllocations)},
	} {
		_, err := Parse([]byte("[profiles.a]\nbase_url = \"https://a\"\nallocations = " + tc.list + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("allocations = %.40s…: %v, want %q", tc.list, err, tc.want)
		}
	}
}
