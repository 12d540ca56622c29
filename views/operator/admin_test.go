package operator

import (
	"strings"
	"testing"

	"allot/api"
	"allot/api/sandbox"
)

// TestInitializeOffersDemoAdminWallets: the Initialize form says where an
// admin wallet id comes from while its field has the focus, and on the
// embedded sandbox ctrl+r lists its demo admin wallets: enter puts the
// one chosen in the field.
func TestInitializeOffersDemoAdminWallets(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	h := openForm(t, s, api.ActionInitialize)
	if !h.o.adminFocused() {
		t.Fatal("the admin wallet field does not have the focus")
	}
	if v := h.view(); !strings.Contains(v, "ctrl+r lists the embedded sandbox's demo admin wallets") {
		t.Fatalf("the form does not say where an admin wallet id comes from:\n%s", v)
	}
	offered := false
	for _, b := range h.o.Keys().ShortHelp() {
		offered = offered || b.Help().Desc == "demo admin wallets"
	}
	if !offered {
		t.Error("the footer does not offer the demo admin wallets")
	}
	h.Keys("ctrl+r")
	if v := h.view(); !strings.Contains(v, "Demo admin wallets of the embedded sandbox") || !strings.Contains(v, s.Fixtures.AdminWalletIDs[0]) {
		t.Fatalf("ctrl+r lists no demo admin wallet:\n%s", v)
	}
	h.Keys("enter")
	if got := h.o.adminWallet.Value(); got != s.Fixtures.AdminWalletIDs[0] {
		t.Errorf("the admin wallet field holds %q, want %q", got, s.Fixtures.AdminWalletIDs[0])
	}
	h.assertNothingSent()
}
