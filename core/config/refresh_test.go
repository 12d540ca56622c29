package config

import (
	"strings"
	"testing"
	"time"
)

// TestRefresh: a profile sets how often the dashboard reads again, as a
// table (a key left out keeps its default) or "off"; a period too short
// or not a duration is refused with the key it is under.
func TestRefresh(t *testing.T) {
	const base = "[profiles.p]\nbase_url = \"https://api.example.com\"\n"
	for _, tc := range []struct {
		name, toml   string
		chain, lists time.Duration
		err          string
	}{
		{"default", base, DefaultChainRefresh, DefaultListsRefresh, ""},
		{"table", base + "[profiles.p.refresh]\nchain = \"5s\"\nlists = \"1m\"\n", 5 * time.Second, time.Minute, ""},
		{"inline, one key", base + "refresh = { lists = \"45s\" }\n", DefaultChainRefresh, 45 * time.Second, ""},
		{"off", base + "refresh = \"off\"\n", 0, 0, ""},
		{"a word", base + "refresh = \"on\"\n", 0, 0, `refresh: "on" is neither "off" nor a table`},
		{"too short", base + "refresh = { chain = \"100ms\" }\n", 0, 0, "refresh.chain: 100ms is below the 2s"},
		{"no duration", base + "refresh = { lists = \"often\" }\n", 0, 0, `refresh.lists: "often" is not a duration`},
		{"a number", base + "refresh = { lists = 30 }\n", 0, 0, "refresh.lists: want a duration"},
		{"unknown key", base + "refresh = { blocks = \"1s\" }\n", 0, 0, `refresh: unknown key "blocks"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tc.toml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			chain, lists := cfg.Profiles["p"].Refresh.Every()
			if chain != tc.chain || lists != tc.lists {
				t.Fatalf("every %v, %v; want %v, %v", chain, lists, tc.chain, tc.lists)
			}
		})
	}
}
