package watch

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLooksKeepTheNewest: the looks written are read back exactly, and no
// more than maxLooksKept are kept: the newest.
func TestLooksKeepTheNewest(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	looks := Looks{}
	for i := range maxLooksKept + 5 {
		looks[fmt.Sprint(i)] = Snapshot{At: at.Add(time.Duration(i) * time.Second), Vested: big.NewInt(int64(i)), State: "active"}
	}
	if err := WriteLooks(dir, looks); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLooks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxLooksKept {
		t.Fatalf("%d looks kept", len(got))
	}
	for i := range 5 {
		if _, ok := got[fmt.Sprint(i)]; ok {
			t.Errorf("look %d, among the oldest, was kept", i)
		}
	}
	last := got[fmt.Sprint(maxLooksKept+4)]
	if last.Vested.Int64() != maxLooksKept+4 || !last.At.Equal(at.Add((maxLooksKept+4)*time.Second)) || last.State != "active" {
		t.Errorf("the newest look read back as %+v", last)
	}
}

// FuzzReadLooks: whatever the file holds, ReadLooks does not panic, and
// every look it returns has an amount vested and none below zero.
func FuzzReadLooks(f *testing.F) {
	f.Add([]byte(`{"a|1|x":{"At":"2026-11-22T10:00:00Z","Vested":5,"Claimable":null,"Withdrawn":1,"State":"active","Recipient":"0x0000000000000000000000000000000000000001"}}`))
	f.Add([]byte(`{"a":{}}`))
	f.Add([]byte(`{"a":{"Vested":5,"Withdrawn":-1}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, LooksName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		looks, _ := ReadLooks(dir)
		for k, s := range looks {
			if s.Vested == nil || s.Vested.Sign() < 0 || (s.Withdrawn != nil && s.Withdrawn.Sign() < 0) || (s.Claimable != nil && s.Claimable.Sign() < 0) {
				t.Fatalf("look %q: %+v", k, s)
			}
		}
	})
}
