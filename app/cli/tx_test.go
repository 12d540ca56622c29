package cli

import (
	"strings"
	"testing"

	"allot/api"
	"allot/core/session/sessiontest"
)

// TestTxPrintsCreated: the service's PENDING, which the interface never
// updates, is printed as the dashboard shows it: CREATED, saying its
// execution is not reported; -o json is the service's answer as it came.
func TestTxPrintsCreated(t *testing.T) {
	t.Parallel()
	s := sandboxSession(t)
	fx := s.Fixtures
	for _, args := range [][]string{
		{"tx", "initialize", "--contract", fx.ContractIDs[0], "--admin-wallet", fx.AdminWalletIDs[0]},
		{"tx", "start", "--contract", fx.ContractIDs[0], "--token", fx.TokenIDs[0], "--allocation", fx.AllocationIDs[0]},
		{"tx", "fund", "--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0] + "=10.5", "--item", fx.AllocationIDs[1] + "=1"},
	} {
		r := runCLI(t, s, nil, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if strings.Contains(r.stdout, "PENDING") || len(lines) < 3 ||
			lines[len(lines)-1] != "CREATED: created at the service; its execution is not reported by the interface." {
			t.Errorf("%v printed:\n%s", args, r.stdout)
		}
		for _, row := range lines[1 : len(lines)-1] {
			if f := strings.Fields(row); len(f) != 2 || f[1] != api.TransactionCreated {
				t.Errorf("%v: row %q", args, row)
			}
		}

		var res struct {
			Transactions []struct {
				TransactionID string `json:"transactionId"`
				Status        string `json:"status"`
			} `json:"transactions"`
		}
		decodeJSON(t, runCLI(t, s, nil, append(args, "-o", "json")...), &res)
		if len(res.Transactions) == 0 || res.Transactions[0].Status != "PENDING" {
			t.Errorf("%v -o json: %+v, want the service's PENDING", args, res)
		}
	}
}

// TestTxPrintsOtherStatusesAsSent: a status other than PENDING is the
// service's own word, printed as it came (sanitized), and an answer
// without transactions says so.
func TestTxPrintsOtherStatusesAsSent(t *testing.T) {
	t.Parallel()
	h := sessiontest.NewHostile(t, t.TempDir())
	fx := h.Session.Fixtures
	args := []string{"tx", "initialize", "--contract", fx.ContractIDs[0], "--admin-wallet", fx.AdminWalletIDs[0]}

	h.Rewrite("/transactions/create", func(r map[string]any) {
		r["transactions"].([]any)[0].(map[string]any)["status"] = "FAILED\x1b[2J"
	})
	r := runCLI(t, h.Session, nil, args...)
	if r.code != 0 || !strings.Contains(r.stdout, "FAILED^[[2J") || strings.Contains(r.stdout, "CREATED") {
		t.Errorf("exit %d, printed:\n%s%s", r.code, r.stdout, r.stderr)
	}

	h.Rewrite("/transactions/create", func(r map[string]any) { r["transactions"] = []any{} })
	if r := runCLI(t, h.Session, nil, args...); r.stdout != "The service answered with no transactions.\n" {
		t.Errorf("exit %d, printed:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTxFundGroupedAmountSaysWhy: an amount written with a grouping comma
// ("1,000", as every screen writes it) is split at the comma, which
// separates items; the error says so rather than only that "000" is not
// an item.
func TestTxFundGroupedAmountSaysWhy(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fx := s.Fixtures
	r := runCLI(t, s, nil, "tx", "fund", "--token", fx.TokenIDs[0], "--item", fx.AllocationIDs[0]+"=1,000")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "1000, not 1,000") {
		t.Errorf("exit %d:\n%s", r.code, r.stderr)
	}
}
