package sessiontest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/ethclient"
)

// NodeLies puts a JSON-RPC node that lies in front of the sandbox's chain,
// and makes it the session's chain: it answers method with result (as
// JSON) instead of what the chain says; a nil result answers honestly
// again. Every other call, and every batch, goes to the chain as it is.
func (h *Hostile) NodeLies(t testing.TB, method string, result any) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lies == nil {
		h.lies = map[string]json.RawMessage{}
		chain := h.Sandbox.Chain.RPCHandler()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.serveNode(w, r, chain)
		}))
		h.cleanup(srv.Close)
		client, err := ethclient.Dial(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		h.cleanup(client.Close)
		h.Session.Chain = client
	}
	if result == nil {
		delete(h.lies, method)
		return
	}
	raw, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	h.lies[method] = raw
}

func (h *Hostile) serveNode(w http.ResponseWriter, r *http.Request, chain http.Handler) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var call struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &call) == nil {
		h.mu.Lock()
		lie, ok := h.lies[call.Method]
		h.mu.Unlock()
		if ok {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": call.ID, "result": lie})
			return
		}
	}
	// The chain's handler takes only local hosts.
	r.Host = "localhost"
	r.Body = io.NopCloser(bytes.NewReader(body))
	chain.ServeHTTP(w, r)
}
