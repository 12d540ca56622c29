package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGroupPointsToItsHelp: a group named without one of its commands
// (allot tx) is a usage error that points to the group's help, which lists
// its commands, not to the whole usage.
func TestGroupPointsToItsHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tx"}, "allot: tx needs one of: fund, initialize, start\nRun 'allot help tx' for its commands.\n"},
		{[]string{"account"}, "allot: account needs one of: import, list, new\nRun 'allot help account' for its commands.\n"},
		{[]string{"creative", "--sandbox"}, "allot: creative needs one of: upload\nRun 'allot help creative' for its commands.\n"},
		{[]string{"schedule"}, "allot: schedule needs one of: create\nRun 'allot help schedule' for its commands.\n"},
		{[]string{"tx", "nope"}, "allot: tx has no command \"nope\": it has fund, initialize, start\nRun 'allot help tx' for its commands.\n"},
		{[]string{"help", "tx", "nope"}, "allot: help: tx has no command \"nope\": it has fund, initialize, start\nRun 'allot help tx' for its commands.\n"},
		{[]string{"nope"}, "allot: unknown command \"nope\"\nRun 'allot help' for usage.\n"},
	} {
		r := runCLI(t, nil, nil, tc.args...)
		if r.code != ExitUsage || r.stderr != tc.want {
			t.Errorf("%v: exit %d, stderr\n%s\nwant exit %d, stderr\n%s", tc.args, r.code, r.stderr, ExitUsage, tc.want)
		}
	}
}

// TestErrorsNameTheirCommand: every command's own errors start with its
// name, as its flag errors do ("signin: --account ADDR is required" read
// "--account ADDR is required"), once. Each command has a case here.
func TestErrorsNameTheirCommand(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		args []string
		want string
		code int
	}{
		"contracts":       {[]string{"contracts", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"pools":           {[]string{"pools", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"stakes":          {[]string{"stakes"}, "--pool is required", ExitUsage},
		"humanity":        {[]string{"humanity"}, "takes one wallet address", ExitUsage},
		"proof":           {[]string{"proof"}, "takes one allocation id, or --file", ExitUsage},
		"claim":           {[]string{"claim"}, "takes one allocation id", ExitUsage},
		"history":         {[]string{"history"}, "takes one allocation id, or --wallet ADDR", ExitUsage},
		"upcoming":        {[]string{"upcoming", "--days", "0"}, "--days 0: give 1 to 3660", ExitUsage},
		"watch":           {[]string{"watch", "--threshold", "x"}, `--threshold: invalid amount: "x" is not a decimal amount`, ExitUsage},
		"signin":          {[]string{"signin"}, "--account ADDR is required", ExitUsage},
		"submission":      {[]string{"submission", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"stake":           {[]string{"stake"}, "--pool ID is required", ExitUsage},
		"reset-allowance": {[]string{"reset-allowance"}, "--pool ID is required", ExitUsage},
		"tx initialize":   {[]string{"tx", "initialize", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"tx start":        {[]string{"tx", "start", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"tx fund":         {[]string{"tx", "fund", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"schedule create": {[]string{"schedule", "create"}, "--body is required (--example prints one)", ExitUsage},
		"creative upload": {[]string{"creative", "upload"}, "takes one file", ExitUsage},
		"account list":    {[]string{"account", "list", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"transactions":    {[]string{"transactions", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"account new":     {[]string{"account", "new", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"account import":  {[]string{"account", "import"}, "takes one keystore file", ExitUsage},
		"sandbox":         {[]string{"sandbox", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"version":         {[]string{"version", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"completion":      {[]string{"completion", "tcsh"}, `"tcsh" is no shell allot completes: bash, zsh or fish`, ExitUsage},
		"pin vester":      {[]string{"pin", "vester"}, "takes one contract address", ExitUsage},
		"pin staking":     {[]string{"pin", "staking", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"}, `"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" has a wrong EIP-55 checksum: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed is the checksummed address`, ExitUsage},
		"pin token":       {[]string{"pin", "token", "x"}, `"x" is not a 0x address`, ExitUsage},
		"pin handler":     {[]string{"pin", "handler", "a", "b"}, "takes one contract address", ExitUsage},
		"pin list":        {[]string{"pin", "list", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"pin rm":          {[]string{"pin", "rm", "pool", "x"}, `"pool" is no kind of pin: vester, staking, token or handler`, ExitUsage},
		"pin check":       {[]string{"pin", "check"}, "takes the JSON-RPC URL of a second node", ExitUsage},
		"safe show":       {[]string{"safe", "show"}, "takes one Safe address or proposal file", ExitUsage},
		"safe sign":       {[]string{"safe", "sign"}, "takes one proposal file", ExitUsage},
		"safe exec":       {[]string{"safe", "exec", "p.json", "--account", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "--wait"}, "--wait needs --send", ExitUsage},
		"safe export":     {[]string{"safe", "export", "p.json"}, "-o tx-builder is required: the one format export writes", ExitUsage},
		"safe import":     {[]string{"safe", "import"}, "takes one Transaction Builder file", ExitUsage},
		"safe hash":       {[]string{"safe", "hash", "--safe", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "--to", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "--operation", "2"}, `--operation "2": give 0 (a call) or 1 (a delegatecall)`, ExitUsage},
		"safe add":        {[]string{"safe", "add"}, "takes one Safe address", ExitUsage},
		"safe remove":     {[]string{"safe", "remove", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"}, `"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" has a wrong EIP-55 checksum: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed is the checksummed address`, ExitUsage},
		"safe list":       {[]string{"safe", "list", "x"}, `takes no arguments, got "x"`, ExitUsage},
		"safe batch":      {[]string{"safe", "batch", "--account", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "--owner", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}, "name the acts: --claim ID, --stake POOL_ID=AMOUNT, --transfer ID=ADDR", ExitUsage},
		"transfer":        {[]string{"transfer", "b2c6a6d4-1b7e-4e43-9c53-3f4f0f3b0a11"}, "--to ADDR is required", ExitUsage},
	}
	for _, c := range commands {
		tc, ok := cases[c.name]
		if !ok {
			t.Errorf("no case for %q", c.name)
			continue
		}
		r := runCLI(t, nil, nil, tc.args...)
		want := "allot: " + c.name + ": " + tc.want + "\n"
		if r.code != tc.code || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%v: exit %d, stderr\n%s\nwant exit %d, stderr starting\n%s", tc.args, r.code, r.stderr, tc.code, want)
		}
	}
}

// TestRuntimeErrorsNameTheirCommand: an error that is no usage error, from
// a layer below the command, starts with the command's name too, and once.
func TestRuntimeErrorsNameTheirCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "/nonexistent/config.toml", "contracts"}, "allot: contracts: "},
		{[]string{"proof", "--verify", "--file", "/nonexistent/proof.json"}, "allot: proof: proof file: "},
	} {
		r := runCLI(t, nil, nil, tc.args...)
		if r.code != ExitError || !strings.HasPrefix(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and one line starting %q", tc.args, r.code, r.stderr, ExitError, tc.want)
		}
	}
}

// TestAccountImportMissingFile: one line naming the file once (it read
// "nonexistent: stat /nonexistent: no such file or directory").
func TestAccountImportMissingFile(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, nil, "account", "import", "/nonexistent")
	if want := "allot: account import: nonexistent: no such file or directory\n"; r.code != ExitError || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", r.code, r.stderr, ExitError, want)
	}
}

// TestDecisionsCiteTheirDoc: a comment citing a decision names the document
// that holds it, "docs/deployment.md" and the decision's number: a reader of
// the code has no other list of them (output_stakes.go cited a bare one).
func TestDecisionsCiteTheirDoc(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bare := regexp.MustCompile(`(\S+ )?\bD\d+\b`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range bare.FindAllStringSubmatch(line, -1) {
				if m[1] != "docs/deployment.md " && m[1] != "(docs/deployment.md " {
					t.Errorf("%s:%d cites %q without docs/deployment.md", f, i+1, strings.TrimSpace(m[0]))
				}
			}
		}
	}
}

// TestStakesByPoolName: --pool takes a pool's name as `allot pools` lists
// it, spaces and all, or equal but for case, as the dashboard's :stakes
// does ("Whale pool" was refused as not a UUID); an unknown name is a
// usage error that says where the names are.
func TestStakesByPoolName(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	byID := runCLI(t, s, nil, "stakes", "--pool", "2f167346-c4a2-5875-b293-b28c60e376e5", "-o", "csv")
	if byID.code != ExitOK || strings.Count(byID.stdout, "\n") < 2 {
		t.Fatalf("by id: exit %d\n%s%s", byID.code, byID.stdout, byID.stderr)
	}
	for _, name := range []string{"Season 8 · 30-day Flex", "season 8 · 30-DAY flex"} {
		r := runCLI(t, s, nil, "stakes", "--pool", name, "-o", "csv")
		if r.code != ExitOK || r.stdout != byID.stdout {
			t.Errorf("--pool %q: exit %d, stderr %q; stdout differs from the id's: %v", name, r.code, r.stderr, r.stdout != byID.stdout)
		}
	}
	r := runCLI(t, s, nil, "stakes", "--pool", "No such pool")
	want := `allot: stakes: --pool "No such pool" is neither a pool id nor the name of a pool of Meridian (MRD) (see 'allot pools')` + "\n"
	if r.code != ExitUsage || !strings.HasPrefix(r.stderr, want) || r.stdout != "" {
		t.Errorf("unknown name: exit %d, stderr %q, want exit %d and %q", r.code, r.stderr, ExitUsage, want)
	}
}

// TestJSONKeepsAmpersands: -o json writes "Team & Advisors Vesting" as it
// reads, not with & escaped for HTML as "\u0026".
func TestJSONKeepsAmpersands(t *testing.T) {
	t.Parallel()
	r := runCLI(t, shared.Session(t), nil, "contracts", "-o", "json")
	if r.code != ExitOK || !strings.Contains(r.stdout, `"name": "Team & Advisors Vesting"`) || strings.Contains(r.stdout, `\u0026`) {
		t.Errorf("exit %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
}

// TestUnknownAllocationNamesDemoOnes: on the embedded sandbox, proof and
// claim of an allocation the service does not have name demo allocations
// a newcomer can look up instead, as the dashboard's Allocation screen
// does; one of them then works.
func TestUnknownAllocationNamesDemoOnes(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	demo := s.Fixtures.AllocationIDs[0]
	unknown := "3f1a2b4c-0000-4000-8000-000000000004"
	for _, args := range [][]string{
		{"proof", unknown},
		{"claim", unknown, "--sender", "0x3e3Daf419A62d6665b5B6444e071475801B87Ae2"},
	} {
		r := runCLI(t, s, nil, args...)
		if r.code != ExitError || !strings.Contains(r.stderr, "; the embedded sandbox's demo allocations include "+demo) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	if r := runCLI(t, s, nil, "proof", demo); r.code != ExitOK {
		t.Errorf("proof %s: exit %d, stderr %q", demo, r.code, r.stderr)
	}
}

// TestStakeByPoolName: stake takes a pool's name as stakes does; the name
// is resolved before the account is unlocked, so that an unknown one is a
// usage error and a known one goes on to the passphrase.
func TestStakeByPoolName(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	account := "0x3e3Daf419A62d6665b5B6444e071475801B87Ae2"
	r := runCLI(t, s, map[string]string{}, "stake", "--pool", "No such pool", "--amount", "1", "--account", account)
	if r.code != ExitUsage || !strings.HasPrefix(r.stderr, `allot: stake: --pool "No such pool" is neither a pool id nor the name of a pool of Meridian (MRD)`) {
		t.Errorf("unknown name: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, s, map[string]string{}, "stake", "--pool", "Whale pool", "--amount", "1", "--account", account)
	if r.code != ExitError || !strings.HasPrefix(r.stderr, "allot: stake: no passphrase") {
		t.Errorf("Whale pool: exit %d, stderr %q, want the name resolved and the passphrase asked for", r.code, r.stderr)
	}
}

// TestStakeByPoolNameListsThePoolsOnce: stake --pool NAME lists the
// token's pools once, to find the pool by its name, and not a second time
// to read the pool it found (the pools are many pages on a real service).
func TestStakeByPoolNameListsThePoolsOnce(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	listings := func() int {
		n := 0
		for _, x := range s.Requests.All() {
			if x.Op == "staking/pools" {
				n++
			}
		}
		return n
	}
	if r := runCLI(t, s, nil, "pools"); r.code != ExitOK {
		t.Fatalf("pools: exit %d, stderr %q", r.code, r.stderr)
	}
	once := listings()
	if once == 0 {
		t.Fatal("allot pools asked for no staking/pools page")
	}
	r := runCLI(t, s, map[string]string{}, "stake", "--pool", "Whale pool", "--amount", "1", "--account", "0x3e3Daf419A62d6665b5B6444e071475801B87Ae2")
	if r.code != ExitError || !strings.HasPrefix(r.stderr, "allot: stake: no passphrase") {
		t.Fatalf("exit %d, stderr %q, want the name resolved and the passphrase asked for", r.code, r.stderr)
	}
	if n := listings() - once; n != once {
		t.Errorf("stake --pool NAME asked for %d pages of pools, a listing is %d", n, once)
	}
}
