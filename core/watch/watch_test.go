package watch

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

func wei(n int64) *big.Int { return big.NewInt(n) }

func TestChanges(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	base := Snapshot{At: at, Vested: wei(100), Claimable: wei(40), Withdrawn: wei(60), State: "active", Recipient: common.Address{1}}
	with := func(f func(*Snapshot)) Snapshot { s := base; f(&s); return s }
	kinds := func(events []Event) string {
		var out []string
		for _, e := range events {
			k := e.Event
			if e.AmountWei != "" {
				k += " " + e.AmountWei
			}
			out = append(out, k)
		}
		return strings.Join(out, ", ")
	}
	for _, tc := range []struct {
		name      string
		prev      *Snapshot
		cur       Snapshot
		threshold int64
		want      string
	}{
		{"first look, claimable above", nil, base, 0, "watching, claimable"},
		{"first look, claimable not above", nil, base, 40, "watching"},
		{"nothing new", &base, base, 0, ""},
		{"an unlock: claimable rises past the threshold", &base, with(func(s *Snapshot) { s.Vested, s.Claimable = wei(150), wei(90) }), 50, "unlocked 50, claimable"},
		{"an unlock already above", &base, with(func(s *Snapshot) { s.Vested, s.Claimable = wei(150), wei(90) }), 0, "unlocked 50"},
		{"a claim", &base, with(func(s *Snapshot) { s.Withdrawn, s.Claimable = wei(100), wei(0) }), 0, "claimed 40"},
		{"cancelled", &base, with(func(s *Snapshot) { s.State = Cancelled }), 0, "cancelled"},
		{"revoked", &base, with(func(s *Snapshot) { s.State, s.Claimable = Revoked, wei(0) }), 0, "revoked"},
		{"transferred", &base, with(func(s *Snapshot) { s.Recipient = common.Address{2} }), 0, "transferred"},
		{"the record unread: nothing guessed", &base, with(func(s *Snapshot) { s.Withdrawn, s.Claimable, s.State, s.Recipient = nil, nil, "", common.Address{} }), 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Changes("a", tc.prev, tc.cur, wei(tc.threshold))
			if kinds(got) != tc.want {
				t.Errorf("events %q, want %q", kinds(got), tc.want)
			}
			for _, e := range got {
				if e.Time != "2026-11-22T10:00:00.000Z" || e.Allocation != "a" {
					t.Errorf("event %+v", e)
				}
			}
		})
	}
	tr := Changes("a", &base, with(func(s *Snapshot) { s.Recipient = common.Address{2} }), wei(0))[0]
	if tr.Previous != (common.Address{1}).Hex() || tr.Recipient != (common.Address{2}).Hex() {
		t.Errorf("transfer %+v", tr)
	}
}
