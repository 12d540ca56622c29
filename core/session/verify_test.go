package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/ethclient"

	"allot/api"
)

// TestVerifyOptionsBoundsCandidates: a contract list too long to ask each
// leaves the root NOT CHECKED, saying why, rather than making thousands of
// calls or calling a vester missing.
func TestVerifyOptionsBoundsCandidates(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var items []api.Contract
		for i := range maxVesterCandidates + 1 {
			items = append(items, api.Contract{ID: fmt.Sprint(i), Type: "VESTING", Address: fmt.Sprintf("0x%040x", i+1)})
		}
		json.NewEncoder(w).Encode(map[string]any{"isProcessed": true, "result": api.List[api.Contract]{Items: items, Total: len(items)}})
	}))
	defer srv.Close()
	client, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	node, err := ethclient.Dial("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	s := &Session{Name: "p", API: client, Chain: node, TokenIDs: []string{"5d1c8f3e-1111-4111-8111-111111111111"}}
	opts := s.VerifyOptions(context.Background())
	if opts.Unchecked == nil || !strings.Contains(opts.Unchecked.Error(), "more than the 64") || opts.Candidates != nil {
		t.Errorf("unchecked %v, %d candidates; want the bound said", opts.Unchecked, len(opts.Candidates))
	}

	s.TokenIDs = nil
	if opts := s.VerifyOptions(context.Background()); opts.Unchecked == nil || !strings.Contains(opts.Unchecked.Error(), "names no token") {
		t.Errorf("no token: %v", opts.Unchecked)
	}
}
