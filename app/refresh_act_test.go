package app

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views/widget"
)

// TestContractsShowWhatAClaimMoved: once a claim is mined, the Contracts
// tab shows its vester's balance as it is now, without r: the tokens the
// claim withdrew have left it.
func TestContractsShowWhatAClaimMoved(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	balance := func() string {
		list, err := f.s.API.Contracts(context.Background(), f.s.TokenIDs[0])
		if err != nil || len(list.Items) == 0 {
			t.Fatalf("contracts: %v", err)
		}
		return widget.FormatAmountMin(list.Items[0].Balance.String(), 2)
	}
	before := balance()
	f.wait(before)
	f.unlock()
	f.runes("3").runes("/").typ(f.s.Fixtures.AllocationIDs[0]).key(tea.KeyEnter).wait("Unlock schedule")
	f.runes("C").wait("Claim allocation").key(tea.KeyEnter).wait("Send this claim request")
	f.runes("y").wait("Sign and send this transaction?").runes("y").wait("success, mined in block")
	after := balance()
	if after == before {
		t.Fatalf("the claim moved nothing: the vester holds %s still", after)
	}
	f.key(tea.KeyEsc).runes("1").wait(after)
	f.quit()
}

// TestPoolsShowWhatAStakeAdded: once a stake is mined, the Pools tab shows
// its pool's total as it is now, without r.
func TestPoolsShowWhatAStakeAdded(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	totals := func() map[string]string {
		all, err := f.s.API.AllPools(context.Background(), f.s.TokenIDs[0])
		if err != nil {
			t.Fatalf("pools: %v", err)
		}
		out := map[string]string{}
		for _, p := range all.Items {
			out[p.ID] = widget.FormatAmountMin(p.TotalStaked.String(), 2)
		}
		return out
	}
	before := totals()
	f.unlock()
	f.runes("6").wait("Proof of humanity").runes("s").wait("Sign this message").runes("y").wait("Signed in as")
	f.runes("2").wait("Season").runes("S").wait("Stake in")
	f.typ("150").key(tea.KeyEnter).wait("Sign and send these 2 transactions")
	f.runes("y").wait("stake 0x").wait("success, mined")
	changed := ""
	for id, total := range totals() {
		if total != before[id] {
			changed = total
		}
	}
	if changed == "" {
		t.Fatal("the stake changed no pool's total")
	}
	f.key(tea.KeyEsc).wait(changed)
	f.quit()
}
