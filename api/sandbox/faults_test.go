package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	f, err := ParseFaults("latency=50ms,error=0.2,malformed=0.1,reset=0.05,html=0.05")
	if err != nil {
		t.Fatal(err)
	}
	if f != (Faults{Latency: 50 * time.Millisecond, Error: 0.2, Malformed: 0.1, Reset: 0.05, HTML: 0.05}) {
		t.Errorf("parsed %+v", f)
	}
	if f, err := ParseFaults(" reset=1 , seed=42 "); err != nil || f != (Faults{Reset: 1, Seed: 42}) {
		t.Errorf("parsed %+v, %v", f, err)
	}
	if f, err := ParseFaults(""); err != nil || f.enabled() {
		t.Errorf("empty spec: %+v, %v", f, err)
	}
	for _, spec := range []string{
		"latency", "latency=fast", "latency=-1s", "latency=2m", "error=2", "error=-0.1", "error=NaN",
		"error=0.6,reset=0.6", "boom=1", "error=0.1,error=0.2", "seed=-1", "=1",
	} {
		if _, err := ParseFaults(spec); err == nil {
			t.Errorf("%q parsed", spec)
		}
	}
	if _, err := New(Options{Faults: Faults{Error: 3}, World: sharedWorld(), KeystoreDir: t.TempDir()}); err == nil {
		t.Error("New took invalid faults")
	}
}

func TestFaultDrawsRepeatWithSeed(t *testing.T) {
	f := Faults{Error: 0.25, Malformed: 0.25, Reset: 0.25, HTML: 0.1, Seed: 7}
	a, _ := newFaultInjector(f)
	b, _ := newFaultInjector(f)
	seen := map[fault]int{}
	for range 400 {
		x, y := a.draw(), b.draw()
		if x != y {
			t.Fatal("same seed, different draws")
		}
		seen[x]++
	}
	for _, k := range []fault{noFault, faultError, faultHTML, faultReset, faultResetAfter, faultMalformed} {
		if seen[k] == 0 {
			t.Errorf("fault %d never drawn in 400: %v", k, seen)
		}
	}
}

func TestFaultKinds(t *testing.T) {
	contracts := func(e *env) response { return e.admin("POST", "contracts", obj{"tokenId": e.fx.TokenIDs[0]}) }
	humanity := func(e *env) response {
		return e.do("POST", "/api/v2/"+e.fx.PortalID+"/humanity/status", nil, obj{"value": obj{"value": e.fx.Wallets[0].Address}})
	}
	t.Run("error", func(t *testing.T) {
		e := newEnv(t, Options{Faults: Faults{Error: 1, Seed: 1}})
		contracts(e).wantAdminError(t, http.StatusInternalServerError, kindInternal, "")
		humanity(e).wantPortalError(t, http.StatusInternalServerError, codeInternal)
	})
	t.Run("html", func(t *testing.T) {
		e := newEnv(t, Options{Faults: Faults{HTML: 1, Seed: 1}})
		r := contracts(e)
		if r.status != http.StatusBadGateway || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "<html>") {
			t.Errorf("%d %s %s", r.status, r.header.Get("Content-Type"), r.body)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		e := newEnv(t, Options{Faults: Faults{Malformed: 1, Seed: 1}})
		for _, r := range []response{contracts(e), humanity(e)} {
			if r.status != http.StatusOK || json.Valid(r.body) || len(r.body) == 0 {
				t.Errorf("%d %s", r.status, r.body)
			}
		}
	})
	t.Run("latency", func(t *testing.T) {
		e := newEnv(t, Options{Faults: Faults{Latency: 50 * time.Millisecond}})
		start := time.Now()
		if r := contracts(e); r.status != http.StatusOK {
			t.Fatalf("%d %s", r.status, r.body)
		}
		if elapsed := time.Since(start); elapsed < 50*time.Millisecond {
			t.Errorf("answered after %s, before the latency", elapsed)
		}
	})
	t.Run("journal is never faulted", func(t *testing.T) {
		e := newEnv(t, Options{Faults: Faults{Error: 1, Seed: 1}})
		if r := e.do("GET", journalPath, map[string]string{DefaultAPIKeyHeader: e.fx.APIKey}, nil); r.status != http.StatusOK {
			t.Errorf("journal: %d", r.status)
		}
	})
}

// TestResetsLeaveSomeWritesApplied sends writes through connection resets:
// every request fails on the client's side, yet the journal shows some of
// them applied, the unknown outcome a client must not retry blindly (D5).
func TestResetsLeaveSomeWritesApplied(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Reset: 1, Seed: 3}})
	body := `{"action":"INITIALIZE","contractId":"` + e.fx.ContractIDs[0] + `","adminWalletId":"` + e.fx.AdminWalletIDs[0] + `"}`
	const writes = 20
	for range writes {
		req, _ := http.NewRequest("POST", e.url+adminPrefix+"transactions/create", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(DefaultAPIKeyHeader, e.fx.APIKey)
		// A fresh connection each time: a reset one is gone anyway.
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		res, err := client.Do(req)
		if err == nil {
			res.Body.Close()
			t.Fatalf("a reset request got status %d", res.StatusCode)
		}
	}
	applied := len(e.srv.Journal())
	if applied == 0 || applied == writes {
		t.Fatalf("%d of %d reset writes applied: want some before and some after", applied, writes)
	}
	if len(e.srv.Transactions()) != applied {
		t.Errorf("%d transactions for %d journal entries", len(e.srv.Transactions()), applied)
	}
}
