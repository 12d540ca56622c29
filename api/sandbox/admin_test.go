package sandbox

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"allot/internal/isotime"
)

// adminOps lists every administration operation with a body that succeeds
// with the full key.
func adminOps(fx Fixtures) []struct {
	name, method, op string
	body             any
	write            bool
} {
	return []struct {
		name, method, op string
		body             any
		write            bool
	}{
		{"transactions/create", "POST", "transactions/create", obj{"action": "INITIALIZE", "contractId": fx.ContractIDs[0], "adminWalletId": fx.AdminWalletIDs[0]}, true},
		{"schedules/create", "POST", "schedules/create", validSchedule(fx.TokenIDs[0]), true},
		{"staking/pools", "POST", "staking/pools", obj{"tokenId": fx.TokenIDs[0]}, false},
		{"staking/stakes", "POST", "staking/stakes", obj{"stakingPoolId": fx.PoolIDs[0]}, false},
		{"upload-url", "POST", "portals/creatives/upload-url", obj{"fileName": "a.png", "contentType": "image/png", "portalSlug": fx.PortalSlug}, true},
		{"creatives/create", "POST", "portals/creatives/create", obj{"storageKey": "portal-assets/x/none.png", "name": "n"}, true},
		{"claim", "POST", "allocations/" + fx.AllocationIDs[0] + "/claim", obj{"sender": fx.Wallets[0].Address}, true},
		{"contracts", "POST", "contracts", obj{"tokenId": fx.TokenIDs[0]}, false},
		{"merkle-proof", "GET", "allocations/" + fx.AllocationIDs[0] + "/merkle-proof", nil, false},
	}
}

func TestAuthAndScope(t *testing.T) {
	e := newEnv(t, Options{})
	for _, op := range adminOps(e.fx) {
		t.Run(op.name, func(t *testing.T) {
			path := adminPrefix + op.op
			e.do(op.method, path, nil, op.body).wantAdminError(t, http.StatusUnauthorized, kindUnauthorized, "")
			e.do(op.method, path, map[string]string{DefaultAPIKeyHeader: "sandbox-full-wrong"}, op.body).
				wantAdminError(t, http.StatusUnauthorized, kindUnauthorized, "")
			// The key in another header is no key.
			e.do(op.method, path, map[string]string{"Authorization": e.fx.APIKey}, op.body).
				wantAdminError(t, http.StatusUnauthorized, kindUnauthorized, "")
			read := e.do(op.method, path, map[string]string{DefaultAPIKeyHeader: e.fx.ReadOnlyAPIKey}, op.body)
			if op.write {
				read.wantAdminError(t, http.StatusForbidden, kindForbidden, "")
			} else if read.status != http.StatusOK {
				t.Fatalf("read key: status %d: %.300s", read.status, read.body)
			}
		})
	}
}

func TestEveryOperationSucceedsWithFixtures(t *testing.T) {
	e := newEnv(t, Options{})
	for _, op := range adminOps(e.fx) {
		if op.name == "creatives/create" {
			continue // needs an upload first: TestUploadFlow
		}
		t.Run(op.name, func(t *testing.T) {
			var result map[string]any
			e.admin(op.method, op.op, op.body).result(t, &result)
		})
	}
}

func TestAPIKeyHeaderOption(t *testing.T) {
	e := newEnv(t, Options{APIKeyHeader: "x-vendor-key"})
	if e.fx.APIKeyHeader != "x-vendor-key" {
		t.Fatalf("fixtures name header %q", e.fx.APIKeyHeader)
	}
	e.do("POST", adminPrefix+"contracts", map[string]string{DefaultAPIKeyHeader: e.fx.APIKey}, obj{"tokenId": e.fx.TokenIDs[0]}).
		wantAdminError(t, http.StatusUnauthorized, kindUnauthorized, "")
	var result map[string]any
	e.do("POST", adminPrefix+"contracts", map[string]string{"X-Vendor-Key": e.fx.APIKey}, obj{"tokenId": e.fx.TokenIDs[0]}).result(t, &result)
}

func TestKeysAreFixedStrings(t *testing.T) {
	e := newEnv(t, Options{})
	if !regexp.MustCompile(`^sandbox-full-[0-9a-f]{32}$`).MatchString(e.fx.APIKey) ||
		!regexp.MustCompile(`^sandbox-read-[0-9a-f]{32}$`).MatchString(e.fx.ReadOnlyAPIKey) {
		t.Fatalf("keys %q, %q", e.fx.APIKey, e.fx.ReadOnlyAPIKey)
	}
}

func TestUnknownOperations(t *testing.T) {
	e := newEnv(t, Options{})
	e.admin("POST", "nothing/here", obj{}).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
	// A known path with the wrong method is no operation either.
	e.admin("GET", "contracts", nil).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
	e.admin("POST", "allocations/"+e.fx.AllocationIDs[0]+"/merkle-proof", obj{}).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
	e.do("GET", "/api/v2/"+e.fx.PortalID+"/nothing", nil, nil).wantPortalError(t, http.StatusNotFound, codeNotFound)
}

func TestRequestBodies(t *testing.T) {
	e := newEnv(t, Options{})
	key := map[string]string{DefaultAPIKeyHeader: e.fx.APIKey}
	tokenID := e.fx.TokenIDs[0]
	t.Run("content type", func(t *testing.T) {
		key := map[string]string{DefaultAPIKeyHeader: e.fx.APIKey, "Content-Type": "text/plain"}
		e.do("POST", adminPrefix+"contracts", key, obj{"tokenId": tokenID}).
			wantAdminError(t, http.StatusBadRequest, kindValidation, "header.Content-Type")
	})
	t.Run("content type with charset", func(t *testing.T) {
		key := map[string]string{DefaultAPIKeyHeader: e.fx.APIKey, "Content-Type": "application/json; charset=utf-8"}
		var result map[string]any
		e.do("POST", adminPrefix+"contracts", key, obj{"tokenId": tokenID}).result(t, &result)
	})
	t.Run("too large", func(t *testing.T) {
		body := `{"tokenId":"` + tokenID + `","pad":"` + strings.Repeat("x", MaxBodySize) + `"}`
		e.do("POST", adminPrefix+"contracts", key, body).wantAdminError(t, http.StatusBadRequest, kindValidation, bodyPath)
	})
	for _, tc := range []struct{ name, body, path string }{
		{"not json", `{"tokenId":`, bodyPath},
		{"empty", ``, bodyPath},
		{"array", `[1,2]`, bodyPath},
		{"trailing data", `{"tokenId":"` + tokenID + `"} {}`, bodyPath},
		{"wrong type", `{"tokenId": 5}`, "tokenId"},
		{"null required", `{"tokenId": null}`, "tokenId"},
		{"not a uuid", `{"tokenId": "db51faa7-2858-5523-b01a-79ecc813ed1"}`, "tokenId"},
		{"uuid in braces", `{"tokenId": "{` + tokenID + `}"}`, "tokenId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.do("POST", adminPrefix+"contracts", key, tc.body).wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
		})
	}
	t.Run("unknown fields tolerated", func(t *testing.T) {
		var result map[string]any
		e.admin("POST", "contracts", obj{"tokenId": tokenID, "extra": obj{"nested": []int{1}}}).result(t, &result)
	})
	t.Run("uppercase id", func(t *testing.T) {
		var result struct {
			Total int `json:"total"`
		}
		e.admin("POST", "contracts", obj{"tokenId": strings.ToUpper(tokenID)}).result(t, &result)
		if result.Total == 0 {
			t.Fatal("no contracts for an uppercase token id")
		}
	})
}

func TestJournal(t *testing.T) {
	e := newEnv(t, Options{})
	get := func(key string) response {
		return e.do("GET", journalPath, map[string]string{DefaultAPIKeyHeader: key}, nil)
	}
	get("").wantAdminError(t, http.StatusUnauthorized, kindUnauthorized, "")
	var empty struct {
		Entries []json.RawMessage `json:"entries"`
	}
	if r := get(e.fx.ReadOnlyAPIKey); r.status != http.StatusOK || json.Unmarshal(r.body, &empty) != nil || empty.Entries == nil || len(empty.Entries) != 0 {
		t.Fatalf("empty journal: %d %s", r.status, r.body)
	}

	start := `{"action":"START_DISTRIBUTION","contractId":"` + e.fx.ContractIDs[0] + `","tokenId":"` + e.fx.TokenIDs[0] +
		`","allocationIds":["` + e.fx.AllocationIDs[0] + `","` + e.fx.AllocationIDs[1] + `"]}`
	var tx transactionsResult
	e.admin("POST", "transactions/create", start).result(t, &tx)
	// Reads, refusals and failed validation are not journaled.
	e.admin("POST", "contracts", obj{"tokenId": e.fx.TokenIDs[0]})
	e.do("POST", adminPrefix+"transactions/create", map[string]string{DefaultAPIKeyHeader: e.fx.ReadOnlyAPIKey}, start)
	e.admin("POST", "transactions/create", obj{"action": "START_DISTRIBUTION"})
	claim := obj{"sender": e.fx.Wallets[0].Address}
	var claimed map[string]any
	e.admin("POST", "allocations/"+e.fx.AllocationIDs[0]+"/claim", claim).result(t, &claimed)
	e.clock.Advance(90 * 1e9)

	var journal struct {
		Entries []struct {
			Operation  string `json:"operation"`
			Action     string `json:"action"`
			At         string `json:"at"`
			BodySHA256 string `json:"bodySha256"`
		} `json:"entries"`
	}
	r := get(e.fx.APIKey)
	if err := json.Unmarshal(r.body, &journal); err != nil {
		t.Fatal(err)
	}
	if len(journal.Entries) != 2 {
		t.Fatalf("journal %s, want 2 entries", r.body)
	}
	first, second := journal.Entries[0], journal.Entries[1]
	if first.Operation != "transactions/create" || first.Action != ActionStart || first.BodySHA256 != sha256Hex([]byte(start)) ||
		first.At != isotime.Format(testStart) {
		t.Errorf("first entry %+v", first)
	}
	claimBody, _ := json.Marshal(claim)
	if second.Operation != "allocations/"+e.fx.AllocationIDs[0]+"/claim" || second.Action != "" || second.BodySHA256 != sha256Hex(claimBody) {
		t.Errorf("second entry %+v", second)
	}
	if !strings.Contains(string(r.body), `"operation":"allocations/`+e.fx.AllocationIDs[0]+`/claim","at"`) {
		t.Errorf("an entry without action must omit it: %s", r.body)
	}
	if n := len(e.srv.Journal()); n != 2 {
		t.Errorf("Journal() has %d entries", n)
	}
}
