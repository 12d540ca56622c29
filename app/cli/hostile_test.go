package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/session"
)

// evilMark is appended to the strings of the service's answers and
// replaced, in the bytes sent, by evil: an OSC 52 clipboard write, a
// screen clear, a C1 CSI as a raw byte (not UTF-8) and as UTF-8, and BEL.
const evilMark = "EVIL-MARK"

var evil = []byte(`\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007\u001b[2J` + "\x9b\u009b" + `\u0007`)

// identifier matches the strings a client validates (ids, addresses, hex,
// amounts, times, enums): the "text" mode leaves them whole so that the
// commands get past validation and print what they print on success.
var identifier = regexp.MustCompile(`^([0-9a-fA-F-]{36}|0x[0-9a-fA-F]*|[0-9.]+|[A-Z0-9_-]+|\d{4}-\d\d-\d\dT[0-9:.]+Z)$`)

// hostile wraps the sandbox's handler and rewrites every JSON answer: each
// string value (mode "all") or each free-text one (mode "text") gets the
// escape sequences of evil.
func hostile(next http.Handler, mode string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			out, _ := json.Marshal(poison(v, mode))
			body = bytes.ReplaceAll(out, []byte(evilMark), evil)
		}
		for k, vs := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = vs
			}
		}
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

func poison(v any, mode string) any {
	switch v := v.(type) {
	case string:
		if mode == "text" && identifier.MatchString(v) {
			return v
		}
		return v + evilMark
	case []any:
		for i := range v {
			v[i] = poison(v[i], mode)
		}
	case map[string]any:
		for k := range v {
			v[k] = poison(v[k], mode)
		}
	}
	return v
}

// hostileSession is the sandbox, its chain in process, reached through a
// hostile server; its keystore holds files whose names carry escapes.
func hostileSession(t *testing.T, mode string) (*session.Session, sandbox.Fixtures, []onchain.Deployed) {
	t.Helper()
	var handler http.Handler
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	srv.Start()
	t.Cleanup(srv.Close)
	ksDir := t.TempDir()
	sb, err := onchain.Start(context.Background(), onchain.Options{
		Sandbox: sandbox.Options{KeystoreDir: ksDir, PublicURL: srv.URL}, MineInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	handler = hostile(sb.Server, mode)
	fx := sb.Server.Fixtures()

	// Keystore files named to talk to the terminal: one a valid key, one not.
	key, err := os.ReadFile(fx.Wallets[0].KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ksDir, "key\x1b]0;owned\x07\x9b\xc2\x9b.json"), key, 0o600)
	os.WriteFile(filepath.Join(ksDir, "junk\x1b[2J\x07\x9b"), []byte("{\x1b]52;c;x\x07"), 0o600)

	client, err := api.New(api.Config{BaseURL: srv.URL, PortalURL: srv.URL, PortalID: fx.PortalID,
		APIKey: fx.APIKey, APIKeyHeader: fx.APIKeyHeader, Timeout: 20 * time.Second,
		Backoff: func(int) time.Duration { return 0 }}) // its failures are on purpose: nothing to wait for
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{
		Name: "hostile",
		Profile: config.Profile{Name: "hostile", BaseURL: srv.URL, PortalURL: srv.URL, PortalID: fx.PortalID,
			ChainID: fx.ChainID, Keystore: ksDir, SigninDomain: fx.SigninDomain, Tokens: fx.TokenIDs},
		API:      client,
		TokenIDs: fx.TokenIDs,
		Requests: session.NewRequestLog(),
		StateDir: t.TempDir(),
		Now:      time.Now,
		Chain:    sb.Chain.Client(),
		// A file to pin in: `allot pin` says what the service lists.
		ConfigPath: filepath.Join(t.TempDir(), "config.toml"),
	}
	if err := os.WriteFile(s.ConfigPath, []byte("[profiles.hostile]\nbase_url = \""+srv.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s, fx, sb.Deployed()
}

// assertInert fails when out holds ESC, BEL, or a C1 control, as a raw byte
// or in UTF-8.
func assertInert(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		bad := r == 0x1b || r == 0x07 || (r >= 0x80 && r < 0xa0) ||
			(r == utf8.RuneError && size == 1 && out[i] >= 0x80 && out[i] < 0xa0)
		if bad {
			t.Errorf("%s holds %q at byte %d:\n%q", what, out[i:i+size], i, out)
			return
		}
		i += size
	}
}

// TestNoCommandTalksToTheTerminal runs every command against a service
// whose every string carries escape sequences, with a keystore whose file
// names do too: nothing that reaches stdout or stderr can act on a
// terminal.
func TestNoCommandTalksToTheTerminal(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	for _, mode := range []string{"all", "text"} {
		t.Run(mode, func(t *testing.T) {
			s, fx, deployed := hostileSession(t, mode)
			dir := t.TempDir()
			w0 := fx.Wallets[0]
			ks := s.Profile.Keystore
			vester := deployed[len(deployed)-1].Address.Hex()
			evilFile := filepath.Join(dir, "img\x1b]52;c;eA==\x07\x9b.png")
			os.WriteFile(evilFile, []byte("\x89PNG\r\n\x1a\n"), 0o600)
			body := filepath.Join(dir, "schedule.json")
			os.WriteFile(body, []byte(`{"tokenId":"`+fx.TokenIDs[0]+`","name":"n\u001b[2J","description":"d","unlockAtStart":1,"cliff":{"value":0,"duration":0},"pieces":[]}`), 0o600)
			keyCopy := filepath.Join(dir, "import\x1b]0;t\x07.json")
			// A proposal and a Transaction Builder file written to talk to
			// the terminal, in their names and their fields.
			proposalFile := filepath.Join(dir, "proposal\x1b]0;t\x07.json")
			os.WriteFile(proposalFile, []byte(`{"version":1,"safe":"`+vester+`","act":"stake\u001b]52;c;eA==\u0007","detail":"\u009b2J"}`), 0o600)
			txbFile := filepath.Join(dir, "batch\x1b[2J.json")
			os.WriteFile(txbFile, []byte(`{"version":"1.0","chainId":"1","createdAt":1,"meta":{"name":"n\u001b[2J","checksum":"0x\u001b]0;t\u0007"},"transactions":[{"to":"`+vester+`","value":"0","data":"0x\u009b"}]}`), 0o600)
			key, _ := os.ReadFile(fx.Wallets[1].KeyFile)
			os.WriteFile(keyCopy, key, 0o600)

			runs := map[string][][]string{
				"contracts":       {{}, {"-o", "json"}, {"-o", "csv"}},
				"pools":           {{}, {"-o", "json"}, {"-o", "csv"}},
				"stakes":          {{"--pool", fx.PoolIDs[0]}, {"--pool", fx.PoolIDs[0], "-o", "json"}, {"--pool", fx.PoolIDs[0], "-o", "csv"}, {"--pool", "Whale pool"}, {"--pool", "nope\x1b]0;t\x07\x9b"}},
				"proof":           {{fx.AllocationIDs[0]}, {fx.AllocationIDs[0], "-o", "json"}, {fx.AllocationIDs[0], "--verify"}},
				"history":         {{fx.AllocationIDs[0]}, {fx.AllocationIDs[0], "-o", "json"}, {fx.AllocationIDs[0], "-o", "csv"}, {"--wallet", w0.Address, "-o", "csv"}, {"--wallet", w0.Address, "-o", "koinly"}, {"--wallet", w0.Address, "-o", "cointracker"}},
				"claim":           {{fx.AllocationIDs[0], "--sender", w0.Address}, {fx.AllocationIDs[0], "--sender", w0.Address, "-o", "json"}, {fx.AllocationIDs[0], "--sign", "--account", w0.Address, "--keystore", ks}},
				"humanity":        {{w0.Address}, {w0.Address, "-o", "json"}},
				"upcoming":        {{fx.AllocationIDs[0]}, {fx.AllocationIDs[0], "-o", "json"}, {fx.AllocationIDs[0], "-o", "csv"}, {fx.AllocationIDs[0], "--ics", filepath.Join(dir, "u.ics")}},
				"watch":           {{fx.AllocationIDs[0], "--once"}, {fx.AllocationIDs[0], fx.AllocationIDs[1], "--once", "--threshold", "1"}},
				"tx initialize":   {{"--contract", fx.ContractIDs[0], "--admin-wallet", fx.AdminWalletIDs[0]}},
				"tx start":        {{"--contract", fx.ContractIDs[0], "--token", fx.TokenIDs[0], "--allocation", fx.AllocationIDs[0]}},
				"tx fund":         {{"--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=1"}, {"--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=1", "-o", "json"}},
				"schedule create": {{"--body", body}},
				"creative upload": {{evilFile, "--portal", fx.PortalSlug}},
				"sandbox":         {{"--addr", "127.0.0.1:0", "--keystore-dir", t.TempDir()}},
				"account list":    {{"--keystore", ks}, {"--keystore", ks, "-o", "json"}},
				"transactions":    {{}, {"-o", "json"}, {"-o", "csv"}},
				"account new":     {{"--keystore", t.TempDir(), "--light"}},
				"account import":  {{keyCopy, "--keystore", t.TempDir()}},
				"signin":          {{"--account", w0.Address, "--keystore", ks}},
				"submission":      {{"--account", w0.Address, "--keystore", ks}},
				"stake":           {{"--pool", fx.PoolIDs[0], "--amount", "1", "--account", w0.Address, "--keystore", ks}},
				"reset-allowance": {{"--pool", fx.PoolIDs[0], "--account", w0.Address, "--keystore", ks}},
				"pin vester":      {{vester}},
				"pin staking":     {{vester}},
				"pin token":       {{vester}},
				"pin handler":     {{vester}},
				"pin list":        {{}, {"-o", "json"}},
				"pin rm":          {{"handler", vester}},
				"pin check":       {{"http://127.0.0.1:1"}},
				"safe show":       {{vester}, {vester, "-o", "json"}, {proposalFile}, {proposalFile, "-o", "json"}},
				"safe sign":       {{proposalFile, "--owner", w0.Address, "--keystore", ks}},
				"safe exec":       {{proposalFile, "--account", w0.Address, "--keystore", ks}},
				"safe export":     {{proposalFile, "-o", "tx-builder"}},
				"safe import":     {{txbFile, "--safe", vester, "--owner", w0.Address, "--keystore", ks, "--proposal", filepath.Join(dir, "p.json")}},
				"safe hash":       {{"--safe", vester, "--to", vester}},
				"safe add":        {{vester}},
				"safe list":       {{}, {"-o", "json"}},
				"safe remove":     {{vester}},
				"safe batch":      {{"--account", vester, "--owner", w0.Address, "--claim", fx.AllocationIDs[0], "--keystore", ks, "--proposal", filepath.Join(dir, "b.json")}},
				"transfer":        {{fx.AllocationIDs[0], "--to", vester, "--account", w0.Address, "--keystore", ks}, {fx.AllocationIDs[0], "--to", vester, "--account", vester, "--owner", w0.Address, "--keystore", ks}},
				"version":         {{}, {"-o", "json"}},
				"completion":      {{"bash"}, {"zsh"}, {"fish"}},
			}
			for _, cmd := range commands {
				argSets, ok := runs[cmd.name]
				if !ok {
					t.Errorf("command %q is not run by this test: add it", cmd.name)
					continue
				}
				for _, args := range argSets {
					full := append(strings.Fields(cmd.name), args...)
					ctx := context.Background()
					if cmd.name == "sandbox" {
						// It serves until stopped: stopped at once.
						c, cancel := context.WithCancel(ctx)
						cancel()
						ctx = c
					}
					r := runHostile(ctx, s, w0.Passphrase, full...)
					assertInert(t, strings.Join(full, " ")+": stdout", r.stdout)
					assertInert(t, strings.Join(full, " ")+": stderr", r.stderr)
				}
			}
			// The calendar a user imports is as inert as the terminal's
			// output.
			if ics, err := os.ReadFile(filepath.Join(dir, "u.ics")); err != nil {
				t.Errorf("upcoming --ics: %v", err)
			} else {
				assertInert(t, "upcoming --ics", string(ics))
			}
		})
	}
}

// runHostile is runCLI with a context, and the passphrase of the demo
// wallets.
func runHostile(ctx context.Context, s *session.Session, pass string, args ...string) result {
	var stdout, stderr bytes.Buffer
	e := &env{IO: IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"ALLOT_PASSPHRASE": pass}[k] }}, sess: s}
	code := report(&stderr, run(ctx, e, args))
	return result{stdout.String(), stderr.String(), code}
}
