package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		out, unout []string // in stdout+stderr, and not
	}{
		{"help writes flags with two dashes", []string{"help", "claim"}, ExitOK,
			[]string{"  --sender ADDR\n", "  -o FORMAT\n", "Global flags:\n  --config PATH"}, []string{"\n  -sender"}},
		{"the sandbox takes no profile", []string{"help", "sandbox"}, ExitOK,
			[]string{"  --addr HOST:PORT\n", "  --faults SPEC\n"}, []string{"--profile", "--config", "Global flags"}},
		{"--sandbox with --profile", []string{"--sandbox", "--profile", "prod", "contracts"}, ExitUsage,
			[]string{"--sandbox and --profile prod contradict each other"}, nil},
		{"--sandbox with --profile after the command", []string{"contracts", "--sandbox", "--profile", "prod"}, ExitUsage,
			[]string{"contradict each other", "Run 'allot help contracts' for its flags."}, nil},
		{"an unknown flag", []string{"pools", "--nope"}, ExitUsage,
			[]string{"pools: unknown flag --nope", "Run 'allot help pools' for its flags."}, []string{"flag provided"}},
		{"a missing value", []string{"pools", "--token"}, ExitUsage, []string{"a value is missing after --token"}, nil},
		{"a command's own usage error names its help", []string{"stakes"}, ExitUsage, []string{"Run 'allot help stakes' for its flags."}, nil},
		{"help on a group lists its commands", []string{"help", "tx"}, ExitOK,
			[]string{"  tx fund ", "  tx start ", "Run 'allot help tx COMMAND'"}, []string{"account list", "Global flags"}},
		{"help on help is the usage", []string{"help", "help"}, ExitOK, []string{"Commands:\n"}, nil},
		{"help on an unknown command", []string{"help", "nope"}, ExitUsage,
			[]string{`help: unknown command "nope"`, "Run 'allot help' for usage."}, []string{"Commands:"}},
		{"help on an unknown command of a group", []string{"help", "tx", "nope"}, ExitUsage,
			[]string{`tx has no command "nope": it has fund, initialize, start`}, []string{"Commands:"}},
		{"-o on a command that has none", []string{"account", "new", "-o", "csv"}, ExitUsage,
			[]string{"account new: unknown flag -o\n"}, []string{"flag provided"}},
		{"-o csv where no CSV is written", []string{"proof", "-o", "csv"}, ExitUsage,
			[]string{`proof: invalid value "csv" for -o: want table or json` + "\n"}, []string{"for flag"}},
		{"a value of the wrong kind", []string{"sandbox", "--whale-stakes", "x"}, ExitUsage,
			[]string{`sandbox: invalid value "x" for --whale-stakes: `}, nil},
		{"proof --file without --verify, before the file is read", []string{"proof", "--file", "/nonexistent/proof.json"}, ExitUsage,
			[]string{"allot: proof: --file needs --verify\n"}, []string{"no such file"}},
		{"proof --vester without --verify", []string{"proof", "3f1a2b4c-0000-4000-8000-000000000004", "--vester", "0x0000000000000000000000000000000000000001"}, ExitUsage,
			[]string{"proof: --vester needs --verify"}, nil},
		{"creative upload --yes without --replace", []string{"creative", "upload", "banner.png", "--portal", "demo", "--yes"}, ExitUsage,
			[]string{"creative upload: --yes needs --replace"}, nil},
		{"account list reads no passphrase", []string{"account", "list", "--passphrase-file", "pass.txt"}, ExitUsage,
			[]string{"account list: unknown flag --passphrase-file"}, nil},
		{"the sandbox refuses a profile given before it", []string{"--profile", "x", "sandbox"}, ExitUsage,
			[]string{"sandbox uses no profile"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, nil, nil, tc.args...)
			all := r.stdout + r.stderr
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, all)
			}
			for _, w := range tc.out {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.unout {
				if strings.Contains(all, w) {
					t.Errorf("output holds %q:\n%s", w, all)
				}
			}
		})
	}
}

// A keystore needs no API key: account list works with a profile whose
// key is not in the environment.
func TestAccountListNeedsNoAPIKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ks := filepath.Join(dir, "keystore")
	if err := os.Mkdir(ks, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	body := "[profiles.prod]\nbase_url = \"https://api.example.com\"\napi_key_env = \"NOT_SET_ANYWHERE\"\nkeystore = \"" + ks + "\"\ntokens = [\"db51faa7-7c5e-4f59-9bd5-7a2f7d0f4a11\"]\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, nil, map[string]string{}, "--config", cfg, "account", "list")
	if r.code != ExitOK || !strings.Contains(r.stdout, "no accounts in "+ks) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// account import says a file is no keystore before it asks for a
// passphrase (a script with none gave "no passphrase" for notes.txt).
func TestAccountImportChecksTheFileFirst(t *testing.T) {
	t.Parallel()
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("groceries"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, shared.Session(t), map[string]string{}, "account", "import", notes)
	if r.code != ExitError || strings.Contains(r.stderr, "passphrase") || !strings.Contains(r.stderr, "notes.txt") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestTypedValuesAreUsageErrors: a value the user typed that allot's own
// checks refuse is a usage error (exit 2) naming the flag or argument as
// typed, not the service's field, and nothing is sent.
func TestTypedValuesAreUsageErrors(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	id := s.TokenIDs[0] // any well-formed UUID
	text := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(text, []byte("groceries"), 0o600); err != nil {
		t.Fatal(err)
	}
	body := filepath.Join(t.TempDir(), "init.json")
	if err := os.WriteFile(body, []byte(`{"action":"initialize","contractId":"`+id+`","adminWalletId":"`+id+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(s.Requests.All())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tx", "initialize"}, "allot: tx initialize: --contract is required; --admin-wallet is required\n"},
		{[]string{"tx", "start", "--contract", id, "--token", id, "--allocation", id + ",a"}, `--allocation 2: "a" is not a UUID`},
		{[]string{"tx", "fund", "--token", id, "--item", id + "=0"}, "--item 1's amount must be greater than 0"},
		{[]string{"tx", "initialize", "--body", body, "--contract", id}, "--body is the whole request: drop --contract"},
		{[]string{"stakes", "--pool", "nope", "--wallet", "0x1"}, `--wallet: "0x1" is not an address`},
		{[]string{"stakes", "--pool", id, "--wallet", "0x1"}, `--wallet: "0x1" is not an address`},
		{[]string{"proof", "nope"}, `allocation id: "nope" is not a UUID`},
		{[]string{"claim", "nope", "--sender", "0x1"}, `allocation id: "nope" is not a UUID; --sender: "0x1" is not an address`},
		{[]string{"stake", "--pool", "nope", "--amount", "1", "--account", "0x1"}, `--account: "0x1" is not an address`},
		{[]string{"creative", "upload", text, "--portal", "BAD"}, text + `: "text/plain" is not allowed`},
	} {
		r := runCLI(t, s, nil, tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "Run 'allot help ") {
			t.Errorf("%v: exit %d, want %d and %q:\n%s", tc.args, r.code, ExitUsage, tc.want, r.stderr)
		}
	}
	if n := len(s.Requests.All()) - before; n != 0 {
		t.Errorf("%d requests were sent for values allot refuses itself", n)
	}
}
