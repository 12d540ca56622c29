package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/act"
	"allot/views/widget"
	"allot/wallet"
)

// TestSentStatusKeepsTheHashTogether: at 60 columns a sent transaction's
// line keeps its hash on one line, shortened in the middle as the review
// does, and not cut after 60 characters with "e656f2:" alone under it.
func TestSentStatusKeepsTheHashTogether(t *testing.T) {
	hash := common.HexToHash("0x9c37e9f9a91b1d164fcaaf2659e9f0b70a0f880c0fe19bb7db5d7de0fae656f2")
	s := &signing{ctx: &Context{Styles: widget.DefaultStyles()}, stage: signDone, width: 60,
		signed:   []act.Signed{{Op: "approve", Hash: hash}},
		statuses: []wallet.Status{{Hash: hash, State: wallet.StateSuccess, Block: 17, Confirmations: 1, GasUsed: 134320}}}
	view := widget.Page(s.viewOf(s.ctx.Styles), 60, 0)
	hex := strings.TrimPrefix(hash.Hex(), "0x")
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		for _, part := range []string{hex[:20], hex[len(hex)-20:]} {
			if strings.Contains(line, part) && len(line) < 30 {
				t.Errorf("a lone piece of the hash: %q\n%s", line, view)
			}
		}
		if strings.HasPrefix(line, hex[len(hex)-6:]) {
			t.Errorf("the hash's last characters alone: %q\n%s", line, view)
		}
	}
}

// TestQueuedStatusIsNotPending: a transaction the node holds in its queue
// is said to be queued behind the nonce it waits for, never "pending,
// waiting to be mined".
func TestQueuedStatusIsNotPending(t *testing.T) {
	hash := common.HexToHash("0x01")
	line := statusLine("claim", wallet.Status{Hash: hash, State: wallet.StateQueued, Behind: 4})
	if !strings.Contains(line, "QUEUED, not pending: queued behind nonce 4: another transaction from this account must be mined first") ||
		strings.Contains(line, "waiting to be mined") {
		t.Errorf("queued status line %q", line)
	}
}
