package chain

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/ethclient"
)

func TestRPCHandler(t *testing.T) {
	c := newTestChain(t)
	server := httptest.NewServer(c.RPCHandler())
	defer server.Close()

	client, err := ethclient.Dial(server.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	if id, err := client.ChainID(ctx); err != nil || id.Uint64() != DefaultChainID {
		t.Errorf("eth_chainId over HTTP = %v, %v; want %d", id, err, DefaultChainID)
	}
	c.Commit()
	if n, err := client.BlockNumber(ctx); err != nil || n != 1 {
		t.Errorf("eth_blockNumber over HTTP = %d, %v; want 1", n, err)
	}
	if v, err := client.NetworkID(ctx); err != nil || v.Uint64() != DefaultChainID {
		t.Errorf("net_version over HTTP = %v, %v; want %d", v, err, DefaultChainID)
	}

	for _, tc := range []struct {
		name, host, body string
		status           int
		want             string
	}{
		{"eth namespace", "", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`, 200, `"result":"0x7a69"`},
		{"batch", "", `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"net_version"}]`, 200, `"result":"31337"`},
		{"admin is not served", "", `{"jsonrpc":"2.0","id":1,"method":"admin_nodeInfo","params":[]}`, 200, `does not exist`},
		{"debug is not served", "", `{"jsonrpc":"2.0","id":1,"method":"debug_setHead","params":["0x0"]}`, 200, `does not exist`},
		{"localhost", "localhost:8546", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`, 200, `"result":"0x7a69"`},
		{"foreign host name (DNS rebinding)", "evil.example:8546", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`, 403, "invalid host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, server.URL, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
				t.Errorf("%d %s, want %d containing %s", resp.StatusCode, body, tc.status, tc.want)
			}
		})
	}
}

func TestServeRPC(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, err := c.ServeRPC("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if id, err := client.ChainID(context.Background()); err != nil || id.Uint64() != DefaultChainID {
		t.Errorf("eth_chainId at %s = %v, %v", url, id, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ChainID(context.Background()); err == nil {
		t.Errorf("%s still answers after Close", url)
	}
}
