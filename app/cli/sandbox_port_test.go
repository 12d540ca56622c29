package cli

import (
	"net"
	"testing"
)

// TestNextPort: the chain's RPC goes on the port after --addr's, unless
// --addr asked for any free port; then the port after it may be taken by
// another program, and the RPC takes any free port too (a CI run lost
// TestHeadlessCommandsAgainstSandbox to "address already in use").
func TestNextPort(t *testing.T) {
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
