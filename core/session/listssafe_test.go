package session_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"allot/core/session/sessiontest"
)

// TestListsSafeReadsTheFileNow: a Safe another allot lists in the
// profile's file, or takes out of it, is known so at once, whatever the
// profile said when this session opened it.
func TestListsSafeReadsTheFileNow(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	h.PinIn(t, h.Session.Profile.Pins)
	s, addr := h.Session, common.HexToAddress("0x00000000000000000000000000000000000b0b01")
	listed := func() bool {
		t.Helper()
		ok, err := s.ListsSafe(addr)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if listed() {
		t.Fatal("a Safe no file lists is listed")
	}
	if err := s.ListSafe(addr, false); err != nil { // as `allot safe add` elsewhere
		t.Fatal(err)
	}
	if !listed() || s.Profile.ListsSafe(addr) {
		t.Fatalf("the file's Safe: listed %v (the opened profile: %v)", listed(), s.Profile.ListsSafe(addr))
	}
	if err := s.ListSafe(addr, true); err != nil {
		t.Fatal(err)
	}
	if listed() {
		t.Error("a Safe taken out of the file is still listed")
	}
}
