package cli

import (
	"net"
	"strings"
	"testing"
)

// TestNextPort: the chain's RPC goes on the port after --addr's, unless
// --addr asked for any free port; then the port after it may be taken by
// another program, and the RPC takes any free port too (a CI run lost
// TestHeadlessCommandsAgainstSandbox to "address already in use").
func TestNextPort(t *testing.T) {
	t.Parallel()
	listening := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 44177}
	for _, tt := range []struct{ asked, want string }{
		{"127.0.0.1:8080", "127.0.0.1:44178"},
		{"127.0.0.1:0", "127.0.0.1:0"},
		{":0", "127.0.0.1:0"},
	} {
		if got := nextPort(tt.asked, listening); got != tt.want {
			t.Errorf("nextPort(%q, %v) = %q, want %q", tt.asked, listening, got, tt.want)
		}
	}
}

// TestSandboxAddr: an address that is not HOST:PORT is a usage error (exit
// 2) before anything starts; a well-formed one that cannot be listened on
// is a runtime error (exit 1) that says so (--addr bad gave exit 1 and the
// listen error).
func TestSandboxAddr(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--addr", "bad"}, ExitUsage, `allot: sandbox: --addr "bad" is not HOST:PORT, such as 127.0.0.1:8787` + "\nRun 'allot help sandbox' for its flags.\n"},
		{[]string{"--addr", "127.0.0.1:99999"}, ExitUsage, `allot: sandbox: --addr "127.0.0.1:99999": the port must be a number from 0 to 65535` + "\n"},
		{[]string{"--addr", "localhost:http"}, ExitUsage, "the port must be a number"},
		{[]string{"--addr", "no host:80"}, ExitUsage, `"no host" is neither an IP address nor a host name`},
		{[]string{"--rpc-addr", "8545"}, ExitUsage, `allot: sandbox: --rpc-addr "8545" is not HOST:PORT`},
		{[]string{"--addr", taken.Addr().String()}, ExitError, "allot: sandbox: --addr " + taken.Addr().String() + " is well formed but cannot be listened on: bind: address already in use\n"},
	} {
		r := runCLI(t, nil, nil, append([]string{"sandbox"}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.want)
		}
	}
}
