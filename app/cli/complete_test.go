package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"allot/core/journal"
)

// completeHome gives completion a machine of its own: no configuration
// but what a test passes with --config, and an empty state folder, whose
// path it returns.
func completeHome(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	return state
}

// completeWith runs allot __complete words... on ctx and returns its
// candidates (without their descriptions) and its directive. It must
// exit 0 and say nothing on stderr, whatever it found.
func completeWith(ctx context.Context, t *testing.T, environ map[string]string, words ...string) ([]string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{IO: IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return environ[k] }}}
	code := report(&stderr, run(ctx, e, append([]string{completeName}, words...)))
	if code != ExitOK || stderr.Len() > 0 {
		t.Fatalf("__complete %q: exit %d, stderr %q", words, code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	var cands []string
	for _, l := range lines[:len(lines)-1] {
		value, _, _ := strings.Cut(l, "\t")
		cands = append(cands, value)
	}
	return cands, lines[len(lines)-1]
}

func complete(t *testing.T, words ...string) ([]string, string) {
	t.Helper()
	return completeWith(context.Background(), t, nil, words...)
}

// TestCompletionFollowsTheCommandTable: every command of the table
// completes, word by word, and so does every flag its FlagSet declares,
// written as its help writes it.
func TestCompletionFollowsTheCommandTable(t *testing.T) {
	completeHome(t)
	top, _ := complete(t, "")
	for _, c := range commands {
		words := strings.Fields(c.name)
		if !slices.Contains(top, words[0]) {
			t.Errorf("%s: %q does not complete at the top", c.name, words[0])
		}
		if len(words) == 2 {
			if subs, _ := complete(t, words[0], ""); !slices.Contains(subs, words[1]) {
				t.Errorf("%s: %q does not complete after %s: %q", c.name, words[1], words[0], subs)
			}
		}
		flags, _ := complete(t, append(words, "-")...)
		fs := newFlagSet(c, &env{})
		c.flags(fs, &env{})
		fs.VisitAll(func(f *flag.Flag) {
			name := "--" + f.Name
			if len(f.Name) == 1 {
				name = "-" + f.Name
			}
			if !slices.Contains(flags, name) {
				t.Errorf("%s: %s does not complete: %q", c.name, name, flags)
			}
		})
	}
	if slices.Contains(top, completeName) {
		t.Errorf("the hidden %s completes", completeName)
	}
}

// TestCompletionCandidates: what each kind of word completes to, with
// no configuration (the embedded sandbox's seed answers for the pools)
// and no network.
func TestCompletionCandidates(t *testing.T) {
	completeHome(t)
	for _, tc := range []struct {
		words     []string
		want      []string
		directive string
	}{
		{[]string{"p"}, []string{"pin", "pools", "proof"}, directiveNone},
		{[]string{"tx", ""}, []string{"fund", "initialize", "start"}, directiveNone},
		{[]string{"--sandbox", "tx", "s"}, []string{"start"}, directiveNone},
		{[]string{"help", "tx", ""}, []string{"fund", "initialize", "start"}, directiveNone},
		{[]string{"claim", "--s"}, []string{"--sandbox", "--send", "--sender", "--sign"}, directiveNone},
		{[]string{"version", "-"}, []string{"-o", "--help"}, directiveNone},
		{[]string{"proof", "-o", ""}, []string{"table", "json"}, directiveNone},
		{[]string{"pools", "-o", ""}, []string{"table", "json", "csv"}, directiveNone},
		{[]string{"history", "-o", ""}, []string{"table", "json", "csv", "koinly", "cointracker"}, directiveNone},
		{[]string{"pools", "-o=j"}, []string{"-o=json"}, directiveNone},
		{[]string{"completion", ""}, []string{"bash", "fish", "zsh"}, directiveNone},
		{[]string{"pin", "rm", ""}, []string{"vester", "staking", "token", "handler"}, directiveNone},
		{[]string{"pin", "rm", "vester", ""}, nil, directiveNone},
		{[]string{"proof", "--file", ""}, nil, directiveFiles},
		{[]string{"creative", "upload", ""}, nil, directiveFiles},
		{[]string{"claim", "x", "--keystore", ""}, nil, directiveDirs},
		{[]string{"--config", ""}, nil, directiveFiles},
		{[]string{"nope", ""}, nil, directiveNone},
		{[]string{"stakes", "--token", "H"}, []string{"HBR"}, directiveNone},
		{[]string{"stakes", "--pool", "Wh"}, []string{"Whale pool"}, directiveNone},
		{[]string{"stakes", "--pool=Wh"}, []string{"--pool=Whale pool"}, directiveNone},
		{[]string{"stake", "--token", "HBR", "--pool", "Season 1 · 30"}, []string{"Season 1 · 30-day Flex", "Season 1 · 30-day Lock"}, directiveNone},
	} {
		got, directive := complete(t, tc.words...)
		if !slices.Equal(got, tc.want) || directive != tc.directive {
			t.Errorf("%q: %q %s, want %q %s", tc.words, got, directive, tc.want, tc.directive)
		}
	}
}

// TestCompletionProfilesAndAllocations: --profile completes the
// configuration's profiles, a hostile name left out; an allocation id the
// ids followed on the profile's deployment (the profile's allocations
// first, as session.Follows reads them), then those looked up lately,
// read from the local record, which is left as it was; a Safe the Safes
// the profile lists.
func TestCompletionProfilesAndAllocations(t *testing.T) {
	state := completeHome(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	body := "default_profile = \"prod\"\n" +
		"[profiles.prod]\nbase_url = \"https://api.example.com\"\nchain_id = 1\n" +
		"[profiles.staging]\nbase_url = \"https://staging.example.com\"\nchain_id = 1\n" +
		"safes = [\"0x12753968b1983d941f183544faafb84f81a97c7c\"]\n" +
		"allocations = [\"7c0e9a1b-2d3f-4e5a-8b6c-0d1e2f3a4b5c\"]\n" +
		"[profiles.\"evil\\u001b]0;t\\u0007\"]\nbase_url = \"https://api.example.com\"\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]string{
		{"--config", cfg, "--profile", ""},
		{"--config", cfg, "pools", "--profile", ""},
	} {
		if got, _ := complete(t, words...); !slices.Equal(got, []string{"prod", "staging"}) {
			t.Errorf("%q: %q, want prod and staging alone", words, got)
		}
	}
	if got, _ := complete(t, "--config", cfg, "--profile=s"); !slices.Equal(got, []string{"--profile=staging"}) {
		t.Errorf("--profile=s: %q", got)
	}

	prod := journal.Deployment{Profile: "prod", BaseURL: "https://api.example.com", ChainID: 1}
	staging := journal.Deployment{Profile: "staging", BaseURL: "https://staging.example.com", ChainID: 1}
	const (
		a        = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
		b        = "6f1c0d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
		followed = "05b5c169-826c-5127-b4be-e82e50f24f7a"
		other    = "3f1a2b4c-0000-4000-8000-000000000004"
	)
	j, err := journal.Open(filepath.Join(state, "allot"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []journal.Entry{
		prod.Stamp(journal.Entry{Kind: journal.KindLookup, Ref: a}),
		staging.Stamp(journal.Entry{Kind: journal.KindLookup, Ref: other}),
		prod.Stamp(journal.Entry{Kind: journal.KindLookup, Ref: b}),
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetFollowed(prod, followed, true); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, filepath.Join(state, "allot"))
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"--config", cfg, "proof", ""}, []string{followed, b, a}},
		{[]string{"--config", cfg, "watch", a, "--once", ""}, []string{followed, b, a}},
		{[]string{"--config", cfg, "claim", "6"}, []string{b}},
		{[]string{"--config", cfg, "--profile", "staging", "history", ""}, []string{"7c0e9a1b-2d3f-4e5a-8b6c-0d1e2f3a4b5c", other}},
		{[]string{"--config", cfg, "tx", "start", "--allocation", a + ",0"}, []string{a + "," + followed}},
		{[]string{"--config", cfg, "proof", a, ""}, nil},
		{[]string{"--config", cfg, "--profile", "staging", "safe", "remove", ""}, []string{"0x12753968b1983d941F183544FAAFb84f81A97C7C"}},
		{[]string{"--config", cfg, "safe", "show", ""}, nil},
	} {
		if got, _ := complete(t, tc.words...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
	if after := listDir(t, filepath.Join(state, "allot")); !slices.Equal(before, after) {
		t.Errorf("completion changed the state folder: %q, then %q", before, after)
	}
}

// listDir names the files in dir with their sizes and modes.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d", e.Name(), info.Mode(), info.ModTime(), info.Size()))
	}
	return out
}
