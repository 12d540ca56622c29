package embedded

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/wallet"
)

// TestVesterUnits: a vester's amounts are named after the token whose
// contracts list it; one no list names, after the profile's token when it
// has one only, and after none when it has several.
func TestVesterUnits(t *testing.T) {
	s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	units := s.VesterUnits(ctx)
	for i, want := range []string{"MRD", "HBR"} {
		list, err := s.API.Contracts(ctx, s.TokenIDs[i])
		if err != nil {
			t.Fatal(err)
		}
		vesters := wallet.VesterCandidates(list.Items)
		if len(vesters) == 0 {
			t.Fatalf("token %s lists no vester", want)
		}
		for _, v := range vesters {
			if got := units(v); got != want {
				t.Errorf("vester %s of %s: %q", v.Hex(), want, got)
			}
		}
	}
	unlisted := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if got := units(unlisted); got != "" {
		t.Errorf("a vester no list names, of two tokens: %q", got)
	}
	s.TokenIDs = s.TokenIDs[:1]
	if got := s.VesterUnits(ctx)(unlisted); got != "MRD" {
		t.Errorf("a vester no list names, of the one token: %q", got)
	}
}
