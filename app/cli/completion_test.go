package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCompletionScripts: allot completion prints each shell's script;
// an unknown shell is a usage error naming the three; the help says how
// to install each.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for shell, marks := range map[string][]string{
		"bash": {"complete -F _allot allot", "__complete"},
		"zsh":  {"#compdef allot", "compdef _allot allot", "__complete"},
		"fish": {"complete -c allot", "__complete"},
	} {
		r := runCLI(t, nil, nil, "completion", shell)
		for _, m := range marks {
			if r.code != ExitOK || !strings.Contains(r.stdout, m) {
				t.Errorf("completion %s: exit %d, the script lacks %q", shell, r.code, m)
			}
		}
	}
	r := runCLI(t, nil, nil, "completion", "tcsh")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "bash, zsh or fish") || r.stdout != "" {
		t.Errorf("an unknown shell: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, nil, nil, "completion", "--help")
	for _, want := range []string{"source <(allot completion bash)", `allot completion zsh > "${fpath[1]}/_allot"`, "allot completion fish > ~/.config/fish/completions/allot.fish"} {
		if r.code != ExitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("completion --help lacks %q:\n%s", want, r.stdout)
		}
	}
}

// shellHome is a folder holding this test binary as allot (it runs
// Main), the script of shell, and proof.json for file names; and the
// environment a shell runs it in: allot first on PATH, no configuration,
// an empty state folder.
func shellHome(t *testing.T, shell string) (dir, script string, environ []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	wrapper := "#!/bin/sh\nexec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "allot"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, nil, nil, "completion", shell)
	script = filepath.Join(dir, "allot."+shell)
	if err := os.WriteFile(script, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proof.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	environ = append(os.Environ(), childArgvEnv+"=1", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "LC_ALL=C.UTF-8")
	return dir, script, environ
}

// shellLines runs a shell's command in dir and returns its output's
// lines, tabs and what follows them cut.
func shellLines(t *testing.T, dir string, environ []string, name string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, environ
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if l, _, _ = strings.Cut(l, "\t"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestBashCompletion runs the bash script's function as bash calls it,
// with COMP_WORDS split as bash splits them (at =), and reads COMPREPLY.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir, script, environ := shellHome(t, "bash")
	for _, tc := range []struct {
		words []string // COMP_WORDS; the last is the current one
		want  []string
	}{
		{[]string{"allot", "pro"}, []string{"proof"}},
		{[]string{"allot", "tx", ""}, []string{"fund", "initialize", "start"}},
		{[]string{"allot", "stakes", "--pool", "Wh"}, []string{`Whale\ pool`}},
		{[]string{"allot", "stakes", "--pool", `Season\ 1\ ·\ 30-day\ F`}, []string{`Season\ 1\ ·\ 30-day\ Flex`}},
		{[]string{"allot", "pools", "-o", "=", "j"}, []string{"json"}},
		{[]string{"allot", "pools", "-o", "="}, []string{"table", "json", "csv"}},
		{[]string{"allot", "proof", "--file", "pr"}, []string{"proof.json"}},
		{[]string{"allot", "nope", ""}, nil},
	} {
		body := `source "$1"; COMP_CWORD=$2; shift 2; COMP_WORDS=("$@"); _allot; printf '%s\n' "${COMPREPLY[@]}"`
		args := append([]string{"--norc", "--noprofile", "-c", body, "bash", script, strconv.Itoa(len(tc.words) - 1)}, tc.words...)
		if got := shellLines(t, dir, environ, bash, args...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: COMPREPLY %q, want %q", tc.words, got, tc.want)
		}
	}
}

// TestFishCompletion asks fish what it completes (complete -C), the
// script loaded.
func TestFishCompletion(t *testing.T) {
	t.Parallel()
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("no fish")
	}
	dir, script, environ := shellHome(t, "fish")
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"allot pro", []string{"proof"}},
		{"allot stakes --pool Wh", []string{"Whale pool"}},
		{"allot pools -o=", []string{"-o=csv", "-o=json", "-o=table"}},
		{"allot proof --file pr", []string{"proof.json"}},
		{"allot nope ", nil},
	} {
		got := shellLines(t, dir, environ, fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, tc.line)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestZshCompletion runs the zsh script's function with words and
// CURRENT as zsh sets them, compadd and _files standing in for zsh's own
// (which need a terminal): what the function hands them.
func TestZshCompletion(t *testing.T) {
	t.Parallel()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh")
	}
	dir, script, environ := shellHome(t, "zsh")
	const stubs = `compdef() { :; }
_files() { print -r -- "_files $*"; }
compadd() {
    while (( $# )); do
        case $1 in
        -a) shift; print -rl -- "${(@P)1}" ;;
        -d) shift ;;
        esac
        shift
    done
}
`
	for _, tc := range []struct {
		words []string // words; the last is the current one
		want  []string
	}{
		{[]string{"allot", "pro"}, []string{"proof"}},
		{[]string{"allot", "stakes", "--pool", "Wh"}, []string{"Whale pool"}},
		{[]string{"allot", "stakes", "--pool", `Season\ 1\ ·\ 30-day\ F`}, []string{"Season 1 · 30-day Flex"}},
		{[]string{"allot", "pools", "-o=j"}, []string{"-o=json"}},
		{[]string{"allot", "proof", "--file", ""}, []string{"_files "}},
		{[]string{"allot", "claim", "x", "--keystore", ""}, []string{"_files -/"}},
		{[]string{"allot", "nope", ""}, nil},
	} {
		body := stubs + `source "$1"; shift; words=("$@"); CURRENT=$#words; PREFIX=${words[CURRENT]}; _allot || :`
		args := append([]string{"-f", "-c", body, "zsh", script}, tc.words...)
		if got := shellLines(t, dir, environ, zsh, args...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
}
