package operator

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
)

// TestOperatorAppliedSaysNotSentAgainOnce: on the page of a write the
// check found applied, that it is not sent again is said once, by the
// check's line; r, not offered there, does not say it a second time.
func TestOperatorAppliedSaysNotSentAgainOnce(t *testing.T) {
	t.Parallel()
	// Seed 3: the reset comes after the sandbox applied the write.
	s := newSandbox(t, sandbox.Options{Faults: sandbox.Faults{Reset: 1, Seed: 3}})
	h := openForm(t, s, api.ActionInitialize)
	h.Paste(s.Fixtures.AdminWalletIDs[0])
	h.Keys("ctrl+s", "y")
	if h.o.state != stageUnknown || !h.o.outcome.Applied() {
		t.Fatalf("want the page of a write found applied: state %d, view:\n%s", h.o.state, ansi.Strip(h.view()))
	}
	h.Keys("r")
	v := strings.ToLower(strings.Join(strings.Fields(ansi.Strip(h.view())), " "))
	if n := strings.Count(v, "not sent again"); n != 1 {
		t.Fatalf("'not sent again' said %d times after r:\n%s", n, ansi.Strip(h.view()))
	}
}
