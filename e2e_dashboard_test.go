package main

import (
	"testing"
	"time"
)

// TestDashboardInTmux runs the real binary on the embedded sandbox in tmux,
// as a new user would after `go run .`, and reads the screen.
func TestDashboardInTmux(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	tm := startTmux(t, userEnv(t), 120, 36)
	const wait = 20 * time.Second

	tm.waitFor(wait, "SANDBOX", "Team & Advisors Vesting", "1 Contracts")

	tm.send("2")
	tm.waitFor(wait, "Whale pool", "pools,")

	tm.send("/")
	tm.typeText("Whale")
	// The filtered list, its cursor on the pool: "Whale pool" alone is on
	// screen before the filter has applied, when the cursor is on the first
	// row, which enter would open.
	tm.waitFor(wait, "▶ Whale pool")
	tm.send("Enter") // leave the filter input
	tm.send("Enter") // open the pool
	tm.waitFor(wait, "100,000 stakes ·", "Pools › Whale pool")

	tm.send("/")
	tm.typeText("0x28FF05d46d6E233b0B570A2b3557957C69cB30BE")
	tm.waitFor(wait, "asked the service", "4,200")
	tm.send("Enter")
	tm.send("Escape") // clears the filter, keeps the page
	tm.waitFor(wait, "100,000 stakes ·", "Pools › Whale pool")

	tm.send("?")
	tm.waitFor(wait, "Keys", "Commands")
	tm.send("?")

	tm.send("3")
	tm.waitFor(wait, "Allocation:")
	tm.send("/")
	tm.typeText("05b5c169-826c-5127-b4be-e82e50f24f7a")
	tm.send("Enter")
	screen := tm.waitFor(wait, "✓ PASS", "Unlock schedule", "now")
	t.Logf("allocation screen:\n%s", screen)

	tm.send("q")
	tm.exited(wait)
}
