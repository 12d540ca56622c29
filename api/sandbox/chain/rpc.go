package chain

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"
)

// servedNamespaces are the JSON-RPC namespaces a wallet needs. admin_,
// debug_, miner_ and txpool_ stay out: they could rewind or stall the chain.
var servedNamespaces = []string{"eth", "net"}

// rpcBodyLimit bounds one HTTP request body, as geth does by default.
const rpcBodyLimit = 5 << 20

// newRPCServer registers the served namespaces of the eth service, and its
// log filters, on a JSON-RPC server of their own.
func newRPCServer(backend *eth.Ethereum, filterSystem *filters.FilterSystem) (*rpc.Server, error) {
	server := rpc.NewServer()
	server.SetHTTPBodyLimit(rpcBodyLimit)
	server.SetBatchLimits(node.DefaultConfig.BatchRequestLimit, node.DefaultConfig.BatchResponseMaxSize)
	apis := append(backend.APIs(), rpc.API{Namespace: "eth", Service: filters.NewFilterAPI(filterSystem)})
	for _, api := range apis {
		if !slices.Contains(servedNamespaces, api.Namespace) {
			continue
		}
		if err := server.RegisterName(api.Namespace, api.Service); err != nil {
			server.Stop()
			return nil, fmt.Errorf("rpc %s namespace: %w", api.Namespace, err)
		}
	}
	return server, nil
}

// RPCHandler serves the in-process chain's JSON-RPC (the eth_ and net_
// namespaces, POST, single or batch requests) over HTTP. Requests naming a
// host must name localhost or an IP address, against DNS rebinding; no
// CORS headers are sent, so web pages cannot read the answers. An external
// node serves its own: its handler answers 404.
func (c *Chain) RPCHandler() http.Handler {
	if c.External() {
		return http.NotFoundHandler()
	}
	return node.NewHTTPHandlerStack(c.rpc, nil, []string{"localhost"}, nil, false)
}

// ServeRPC listens on addr (host:port; loopback is the sensible host) and
// serves RPCHandler until Close. It returns the endpoint's URL. An
// external node serves its own.
func (c *Chain) ServeRPC(addr string) (string, error) {
	if c.External() {
		return "", fmt.Errorf("serve chain rpc: %w", ErrExternal)
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("serve chain rpc: %w", err)
	}
	server := &http.Server{
		Handler:           c.RPCHandler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	c.serveMu.Lock()
	if c.closed {
		c.serveMu.Unlock()
		listener.Close()
		return "", errors.New("serve chain rpc: chain closed")
	}
	c.servers = append(c.servers, server)
	c.serveMu.Unlock()
	// Serve only returns once Close shuts the server down; Close reports
	// what goes wrong then.
	go func() { _ = server.Serve(listener) }()
	return "http://" + listener.Addr().String(), nil
}

// stopServing shuts the RPC servers down, letting requests in flight finish
// for a moment.
func (c *Chain) stopServing() error {
	c.serveMu.Lock()
	c.closed = true
	servers := c.servers
	c.servers = nil
	c.serveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var errs []error
	for _, s := range servers {
		if err := s.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stop chain rpc: %w", err))
		}
	}
	return errors.Join(errs...)
}
