package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
)

// nextPort is the address after addr's port: where the chain's RPC goes by
// default, so that one --addr sets both.
func nextPort(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.Port == 0 {
		return "127.0.0.1:0"
	}
	return net.JoinHostPort(tcp.IP.String(), strconv.Itoa(tcp.Port+1))
}

var sandboxCommand = command{
	name:    "sandbox",
	args:    "[--addr HOST:PORT] [--rpc-addr HOST:PORT] [--fixtures FILE] [--faults SPEC] [--keystore-dir DIR]",
	summary: "serve the sandbox service and its chain over HTTP, for integrators and demos",
	// It serves a deployment: it uses none.
	standalone: true,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		addr := fs.String("addr", "127.0.0.1:8787", "listen on `HOST:PORT`")
		rpcAddr := fs.String("rpc-addr", "", "serve the chain's JSON-RPC on `HOST:PORT` (default: the next port after --addr)")
		fixtures := fs.String("fixtures", "", "write the seed data's ids, keys and wallets to `FILE` as JSON")
		faults := fs.String("faults", "", "inject faults as in `SPEC` = latency=50ms,error=0.2,malformed=0.1,reset=0.05,html=0.05")
		keystoreDir := fs.String("keystore-dir", "", "write the demo wallets' keystore files to `DIR` (default: a new temporary directory)")
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("sandbox takes no arguments, got %q", args[0])
			}
			opts := sandbox.Options{KeystoreDir: *keystoreDir}
			if *faults != "" {
				f, err := sandbox.ParseFaults(*faults)
				if err != nil {
					return usagef("--faults: %v", err)
				}
				opts.Faults = f
			}
			return serveSandbox(ctx, e, *addr, *rpcAddr, *fixtures, opts)
		}
	},
}

// fixtures are the sandbox's fixtures and where its chain answers.
type fixtures struct {
	sandbox.Fixtures
	RPCURL string `json:"rpcUrl"`
}

func serveSandbox(ctx context.Context, e *env, addr, rpcAddr, fixturesPath string, opts sandbox.Options) error {
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	url := "http://" + listener.Addr().String()
	opts.PublicURL = url
	sb, err := onchain.Start(ctx, onchain.Options{Sandbox: opts})
	if err != nil {
		listener.Close()
		return fmt.Errorf("sandbox: %w", err)
	}
	defer sb.Close()
	if rpcAddr == "" {
		rpcAddr = nextPort(listener.Addr())
	}
	rpcURL, err := sb.Chain.ServeRPC(rpcAddr)
	if err != nil {
		listener.Close()
		return fmt.Errorf("sandbox: chain RPC: %w", err)
	}

	if fixturesPath != "" {
		data, err := json.MarshalIndent(fixtures{sb.Server.Fixtures(), rpcURL}, "", "  ")
		if err != nil {
			return fmt.Errorf("sandbox: fixtures: %w", err)
		}
		// The fixtures hold the sandbox's API keys and passphrases: private.
		if err := os.WriteFile(fixturesPath, append(data, '\n'), 0o600); err != nil {
			return fmt.Errorf("sandbox: write fixtures: %w", err)
		}
	}

	httpSrv := &http.Server{Handler: sb.Server, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(listener) }()
	fmt.Fprintf(e.Stderr, "allot sandbox: chain JSON-RPC on %s\n", rpcURL)
	fmt.Fprintf(e.Stderr, "allot sandbox: listening on %s\n", url)
	if fixturesPath != "" {
		fmt.Fprintf(e.Stderr, "allot sandbox: fixtures in %s\n", fixturesPath)
	}

	select {
	case err := <-served:
		return fmt.Errorf("sandbox: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("sandbox: shut down: %w", err)
	}
	fmt.Fprintln(e.Stderr, "allot sandbox: stopped")
	return nil
}
