package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyFlag: with --read-only every command that would write or
// sign is refused in one line before anything is asked or sent (exit
// status 1), while the reads answer as before.
func TestReadOnlyFlag(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	body := filepath.Join(t.TempDir(), "schedule.json")
	if err := os.WriteFile(body, []byte(runCLI(t, s, nil, "schedule", "create", "--example").stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	const want = "profile sandbox is read-only (--read-only): nothing is signed, sent or written"
	for _, args := range [][]string{
		{"--read-only", "tx", "initialize", "--contract", "14f74a96-09be-51d7-9a23-06d5c91a3733", "--admin-wallet", "14f74a96-09be-51d7-9a23-06d5c91a3733"},
		{"--read-only", "claim", "b99d73de-cf9b-513d-b8a6-bab0ccae0a79", "--sender", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"},
		{"--read-only", "signin", "--account", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"},
		{"schedule", "create", "--body", body, "--read-only"},
	} {
		r := runCLI(t, s, nil, args...)
		if r.code != 1 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.HasSuffix(strings.TrimSpace(r.stderr), want) {
			t.Errorf("allot %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if r := runCLI(t, s, nil, "--read-only", "contracts"); r.code != 0 || !strings.Contains(r.stdout, "Team & Advisors Vesting") {
		t.Errorf("a read: exit %d\n%s", r.code, r.stderr)
	}
}
