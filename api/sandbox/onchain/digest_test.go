package onchain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"allot/api/sandbox"
)

// deployedDigest is the SHA-256 of the contracts lists of both tokens, with
// the world deployed on the in-process chain: the addresses follow from the
// deployer's nonces, so they change if the deployment's order does. It was
// taken before the seed and deployment could run in the background, and
// again when the seed added three distributions of the second token, a
// post-claim handler and seeded claims (issue 23, D18).
const deployedDigest = "27e7858246b39540d5ccecf41352c88aea74a296ddc8ef1b96144c8e512eb715"

// contractsDigest hashes the contracts lists of every token.
func contractsDigest(t *testing.T, sb *Sandbox) string {
	t.Helper()
	fx := sb.Server.Fixtures()
	h := sha256.New()
	for _, token := range fx.TokenIDs {
		req := httptest.NewRequest("POST", "/api/external/v1/contracts", strings.NewReader(`{"tokenId":"`+token+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(sandbox.DefaultAPIKeyHeader, fx.ReadOnlyAPIKey)
		rec := httptest.NewRecorder()
		sb.Server.ServeHTTP(rec, req)
		data, _ := io.ReadAll(rec.Body)
		if rec.Code != http.StatusOK {
			t.Fatalf("contracts of %s: %d %s", token, rec.Code, data)
		}
		fmt.Fprintf(h, "%s %d\n", token, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestDeployedDigest(t *testing.T) {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	sb, err := Start(context.Background(), Options{Sandbox: sandbox.Options{Clock: func() time.Time { return start }, KeystoreDir: t.TempDir()}, MineInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if got := contractsDigest(t, sb); got != deployedDigest {
		t.Errorf("the deployed contracts hash to %s, want %s", got, deployedDigest)
	}
}
