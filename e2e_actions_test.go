package main

import (
	"regexp"
	"testing"
	"time"
)

// TestActionsInTmux acts with the real binary on the embedded sandbox, as
// a stakeholder and an operator would: unlock a demo account, sign in,
// claim an allocation and see it mined; create a schedule and see its key;
// start a distribution and see its transaction CREATED on the Transactions screen.
func TestActionsInTmux(t *testing.T) {
	t.Parallel() // its own binary, tmux server, home and ports; it waits on them
	tm := startTmux(t, userEnv(t), 120, 36)
	const wait = 30 * time.Second
	tm.waitFor(wait, "SANDBOX", "Team & Advisors Vesting")

	// Unlock demo account 0 (its passphrase is allot-demo-0).
	tm.send("u")
	tm.waitFor(wait, "Unlock an account of the keystore", "allot-demo-N")
	tm.send("Enter")
	tm.waitFor(wait, "Passphrase:")
	tm.typeText("allot-demo-0")
	tm.send("Enter")
	tm.waitFor(wait, "unlocked 0x3e3Daf419A62d6665b5B6444e071475801B87Ae2")

	// Sign in: the message is shown whole before anything is signed.
	tm.send("6")
	tm.waitFor(wait, "Not signed in. s signs in")
	tm.send("s")
	tm.waitFor(wait, "wants you to sign in with your Ethereum account", "Expiration Time:", "Sign this message")
	tm.send("y")
	tm.waitFor(wait, "Signed in as 0x3e3D", "Primary wallet", "· portal ")

	// Claim: the request, then the decoded call, then mined.
	tm.send("3")
	tm.waitFor(wait, "Allocation:")
	tm.send("/")
	tm.typeText("05b5c169-826c-5127-b4be-e82e50f24f7a")
	tm.send("Enter")
	tm.waitFor(wait, "✓ PASS", "C claim")
	tm.send("C")
	tm.waitFor(wait, "Claim allocation", "Claiming as 0x3e3D")
	tm.send("Enter")
	tm.waitFor(wait, "Send this claim request", `"sender": "0x3e3Daf419A62d6665b5B6444e071475801B87Ae2"`)
	tm.send("y")
	review := tm.waitFor(wait, "Review: exactly what will be signed", "withdraw(uint256,uint32,bytes,bytes32[])", "Sign and send this transaction?")
	t.Logf("claim review:\n%s", review)
	tm.send("y")
	mined := tm.waitFor(wait, "success, mined in block")
	t.Logf("claim mined:\n%s", mined)
	tm.send("4")
	tm.waitFor(wait, "claim", "success, block")

	// A schedule: one periodic piece after a cliff.
	tm.send(":")
	tm.typeText("schedule")
	tm.send("Enter")
	tm.waitFor(wait, "New unlock schedule")
	fill := func(text string) {
		tm.send("C-u") // clear what the field holds
		if text != "" {
			tm.typeText(text)
		}
		tm.send("Tab")
	}
	fill("Team 4y")
	fill("Team vesting")
	fill("0.1") // at start
	fill("0.2") // cliff
	fill("12")  // cliff months
	fill("Monthly")
	fill("0.7") // portion
	fill("12")  // delay
	tm.send("Right")
	tm.waitFor(wait, "(•) periodic", "sum of portions 1 of 1")
	tm.send("C-s")
	tm.waitFor(wait, `"name": "Team 4y"`, "Create schedule")
	tm.send("y")
	created := tm.waitFor(wait, "Schedule created", "Created here:")
	if !regexp.MustCompile(`Key\s+S-[A-Z0-9]{8}`).MatchString(created) {
		t.Fatalf("no schedule key on screen:\n%s", created)
	}
	tm.send("Escape")
	// Back on the Transactions screen; a key sent before Escape is read
	// alone would make it alt+key.
	tm.waitFor(wait, "success, block")

	// Start a distribution of the looked-up allocation.
	tm.send("1")
	tm.waitFor(wait, "Team & Advisors Vesting")
	tm.send("D")
	tm.waitFor(wait, "Start distribution · Team & Advisors Vesting")
	tm.send("C-r") // the list of recent lookups
	tm.waitFor(wait, "Recent lookups", "05b5c169-826c-5127-b4be-e82e50f24f7a")
	tm.send("Enter")
	tm.waitFor(wait, "Added 1 from the recent lookups.")
	tm.send("C-s")
	tm.waitFor(wait, `"action": "START_DISTRIBUTION"`, "Send this START_DISTRIBUTION request")
	tm.send("y")
	tm.waitFor(wait, "CREATED", "Transactions screen (4)")
	tm.send("4")
	screen := tm.waitFor(wait, "START_DISTRIBUTION", "CREATED")
	t.Logf("transactions:\n%s", screen)
}
