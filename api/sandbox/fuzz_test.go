package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fuzzServer is one sandbox for every fuzz input: New writes keystore
// files, too slow to repeat per input. Fuzz workers are processes that end
// without cleaning up, so the keystore goes to one fixed directory that
// every run overwrites.
var fuzzServer = sync.OnceValues(func() (*Server, error) {
	return New(Options{
		World:       sharedWorld(),
		Clock:       func() time.Time { return testStart },
		KeystoreDir: filepath.Join(os.TempDir(), "allot-sandbox-fuzz-keystore"),
	})
})

// fuzzTargets are the operations that parse a JSON body.
var fuzzTargets = []string{
	adminPrefix + "transactions/create",
	adminPrefix + "schedules/create",
	adminPrefix + "staking/pools",
	adminPrefix + "staking/stakes",
	adminPrefix + "portals/creatives/upload-url",
	adminPrefix + "portals/creatives/create",
	adminPrefix + "allocations/" + "05b5c169-826c-5127-b4be-e82e50f24f7a" + "/claim",
	adminPrefix + "contracts",
	"/api/v2/{portal}/auth/signin",
	"/api/v2/{portal}/humanity/status",
}

// FuzzRequestBodies sends arbitrary bodies to every operation that reads
// one: each answer must be a well-formed 200 or 4xx, never a failure.
func FuzzRequestBodies(f *testing.F) {
	f.Add(uint8(0), []byte(`{"action":"FUND_DISTRIBUTION","tokenId":"x","data":[{"allocationId":"y","amount":1e5}]}`))
	f.Add(uint8(1), []byte(`{"pieces":[{"portion":0.5,"periodicPieceConfiguration":{"length":{"value":3}}}]}`))
	f.Add(uint8(2), []byte(`{"tokenId":"db51faa7-2858-5523-b01a-79ecc813ed11","cursor":"x"}`))
	f.Add(uint8(6), []byte(`{"sender":"0x0000000000000000000000000000000000000001","amount":-0}`))
	f.Add(uint8(8), []byte(`{"wallet":"0x0000000000000000000000000000000000000001","message":"a wants you to sign in","signature":"0x00"}`))
	f.Add(uint8(9), []byte(`{"value":{"value":[]}}`))
	f.Fuzz(func(t *testing.T, target uint8, body []byte) {
		srv, err := fuzzServer()
		if err != nil {
			t.Fatal(err)
		}
		path := fuzzTargets[int(target)%len(fuzzTargets)]
		path = string(bytes.ReplaceAll([]byte(path), []byte("{portal}"), []byte(srv.world.Portal.ID)))
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(DefaultAPIKeyHeader, srv.keys.full)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code == http.StatusInternalServerError && srv.journalFull() {
			t.Skip("the sandbox took all the writes it takes")
		}
		if rec.Code >= 500 || !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body.Bytes())
		}
		if rec.Code != http.StatusOK && rec.Code/100 != 4 {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
	})
}
