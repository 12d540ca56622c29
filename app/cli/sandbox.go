package cli

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"allot/api/sandbox"
	"allot/api/sandbox/chain"
	"allot/api/sandbox/onchain"
	"allot/core/config"
	"allot/core/embedded"
)

// nextPort is the address after the port of addr, which was asked for as
// asked: where the chain's RPC goes by default, so that one --addr sets
// both. Asked for any free port (":0"), the RPC takes any free port too:
// the port after a random one may be another program's.
func nextPort(asked string, addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if _, port, err := net.SplitHostPort(asked); !ok || tcp.Port == 0 || err != nil || port == "0" || port == "" {
		host := "127.0.0.1"
		if ok {
			host = tcp.IP.String()
		}
		return net.JoinHostPort(host, "0")
	}
	return net.JoinHostPort(tcp.IP.String(), strconv.Itoa(tcp.Port+1))
}

// checkListenAddr refuses an address to listen on that is not HOST:PORT
// before anything starts: a usage error (exit 2), unlike a well-formed one
// that cannot be listened on (taken, not this machine's), which only
// listening finds (exit 1).
func checkListenAddr(flagName, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--%s %q is not HOST:PORT, such as 127.0.0.1:8787", flagName, addr)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || strconv.FormatUint(n, 10) != port {
		return usagef("--%s %q: the port must be a number from 0 to 65535", flagName, addr)
	}
	if _, err := netip.ParseAddr(host); host != "" && err != nil && !hostName.MatchString(host) {
		return usagef("--%s %q: %q is neither an IP address nor a host name", flagName, addr, host)
	}
	return nil
}

// hostName is a DNS name: dot-separated labels of letters, digits and
// inner hyphens.
var hostName = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$`)

// listenCause is why listening failed, without the address the message
// names already ("bind: address already in use").
func listenCause(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

var sandboxCommand = command{
	name:    "sandbox",
	args:    "[--addr HOST:PORT] [--rpc-addr HOST:PORT | --chain-rpc URL --deployer-key-file FILE] [--fixtures FILE] [--faults SPEC] [--keystore-dir DIR] [--whale-stakes N]",
	summary: "serve the sandbox service and its chain over HTTP, for integrators and demos",
	// It serves a deployment: it uses none.
	standalone: true,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		addr := fs.String("addr", "127.0.0.1:8787", "listen on `HOST:PORT`")
		rpcAddr := fs.String("rpc-addr", "", "serve the chain's JSON-RPC on `HOST:PORT` (default: the port after --addr's, or any free port when that is 0)")
		fixtures := fs.String("fixtures", "", "write the seed data's ids, keys and wallets to `FILE` as JSON")
		faults := fs.String("faults", "", "inject faults as in `SPEC` = latency=50ms,error=0.2,malformed=0.1,reset=0.05,html=0.05")
		keystoreDir := fs.String("keystore-dir", "", "write the demo wallets' keystore files to `DIR` (default: a new temporary directory)")
		chainRPC := fs.String("chain-rpc", "", "deploy the sandbox's world on the external EVM node at `URL` (anvil, a devnet) instead of an in-process chain")
		keyFile := fs.String("deployer-key-file", "", "with --chain-rpc: `FILE` holding the hex private key of the node's account that deploys and pays (mode 600)")
		whale := fs.Int("whale-stakes", sandbox.WhaleStakes, fmt.Sprintf("seed the \"Whale pool\" with `N` stakes, 1 to %d, all listed in one response", sandbox.MaxWhaleStakes))
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if err := checkListenAddr("addr", *addr); err != nil {
				return err
			}
			if *rpcAddr != "" {
				if err := checkListenAddr("rpc-addr", *rpcAddr); err != nil {
					return err
				}
			}
			if *whale < 1 || *whale > sandbox.MaxWhaleStakes {
				return usagef("sandbox: --whale-stakes %d: want 1 to %d", *whale, sandbox.MaxWhaleStakes)
			}
			switch {
			case *chainRPC != "" && *keyFile == "":
				return usagef("sandbox: --chain-rpc needs --deployer-key-file")
			case *chainRPC == "" && *keyFile != "":
				return usagef("sandbox: --deployer-key-file needs --chain-rpc")
			case *chainRPC != "" && *rpcAddr != "":
				return usagef("sandbox: --rpc-addr serves the in-process chain; with --chain-rpc the node serves its own")
			}
			opts := sandbox.Options{KeystoreDir: *keystoreDir, WhaleStakes: *whale}
			if *faults != "" {
				f, err := sandbox.ParseFaults(*faults)
				if err != nil {
					return usagef("--faults: %v", err)
				}
				opts.Faults = f
			}
			var node *chain.Chain
			if *chainRPC != "" {
				key, err := readDeployerKey(*keyFile)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.Stderr, "allot sandbox: deploying on %s ...\n", chain.Redact(*chainRPC))
				if node, err = chain.Dial(ctx, *chainRPC, key); err != nil {
					return fmt.Errorf("sandbox: %w", err)
				}
			}
			return serveSandbox(ctx, e, *addr, *rpcAddr, *fixtures, opts, node, *chainRPC)
		}
	},
}

// maxKeyFile bounds a deployer key file: a key is 66 characters.
const maxKeyFile = 1 << 10

// readDeployerKey reads the deployer's private key from path: hex, 0x
// optional, in a file only its owner may read. Neither the key nor the
// file's text ever reaches an error.
func readDeployerKey(path string) (*ecdsa.PrivateKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--deployer-key-file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("--deployer-key-file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("--deployer-key-file: %s is not a regular file", path)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("--deployer-key-file: %s may be read by others (mode %04o): chmod 600 %s", path, info.Mode().Perm(), path)
	}
	text, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("--deployer-key-file: %w", err)
	}
	if len(text) > maxKeyFile {
		return nil, fmt.Errorf("--deployer-key-file: %s is larger than %d bytes: not a key file", path, maxKeyFile)
	}
	key, err := chain.ParseKey(text)
	if err != nil {
		return nil, fmt.Errorf("--deployer-key-file %s: %w", path, err)
	}
	return key, nil
}

// fixtures are the sandbox's fixtures, where its chain answers, and the
// pins of its deployment, which a profile for it needs to sign.
type fixtures struct {
	sandbox.Fixtures
	RPCURL string      `json:"rpcUrl"`
	Pins   config.Pins `json:"pins"`
}

// serveSandbox serves the sandbox, its world deployed on node (at nodeURL),
// or on an in-process chain when node is nil.
func serveSandbox(ctx context.Context, e *env, addr, rpcAddr, fixturesPath string, opts sandbox.Options, node *chain.Chain, nodeURL string) error {
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		if node != nil {
			node.Close()
		}
		return fmt.Errorf("sandbox: --addr %s is well formed but cannot be listened on: %w", addr, listenCause(err))
	}
	url := "http://" + listener.Addr().String()
	opts.PublicURL = url
	sb, err := onchain.Start(ctx, onchain.Options{Sandbox: opts, Chain: node})
	if err != nil {
		listener.Close()
		return fmt.Errorf("sandbox: %w", err)
	}
	defer sb.Close()
	rpcURL := nodeURL
	if node != nil {
		printDeployed(e.Stderr, sb)
	} else {
		asked := rpcAddr
		if rpcAddr == "" {
			rpcAddr = nextPort(addr, listener.Addr())
		}
		if rpcURL, err = sb.Chain.ServeRPC(rpcAddr); err != nil {
			listener.Close()
			if asked == "" {
				return fmt.Errorf("sandbox: the chain's JSON-RPC cannot be listened on at %s, the port after --addr's (choose one with --rpc-addr): %w", rpcAddr, listenCause(err))
			}
			return fmt.Errorf("sandbox: --rpc-addr %s is well formed but cannot be listened on: %w", rpcAddr, listenCause(err))
		}
	}

	// A claim or a stake signs only for pinned contracts: the profile of
	// an integrator pins these (config.example.toml's sandbox profile
	// holds those of the in-process chain).
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	pins, err := embedded.Pins(readCtx, sb)
	cancel()
	if err != nil {
		listener.Close()
		return fmt.Errorf("sandbox: %w", err)
	}
	fmt.Fprintf(e.Stderr, "allot sandbox: a profile for it pins its contracts (what `allot pin` would record):\n%s", pins.TOML("sandbox"))

	if fixturesPath != "" {
		data, err := json.MarshalIndent(fixtures{sb.Server.Fixtures(), rpcURL, pins}, "", "  ")
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
	fmt.Fprintf(e.Stderr, "allot sandbox: chain %d, JSON-RPC on %s\n", sb.Chain.ChainID(), chain.Redact(rpcURL))
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

// printDeployed says what the sandbox deployed on an external node, for
// integrators to point their tools at.
func printDeployed(w io.Writer, sb *onchain.Sandbox) {
	fmt.Fprintf(w, "allot sandbox: deployed on chain %d by %s:\n", sb.Chain.ChainID(), sb.Chain.Deployer().Hex())
	t := newTable(w, "  ADDRESS", "KIND", "NAME")
	for _, d := range sb.Deployed() {
		t.row("  "+d.Address.Hex(), d.Kind, d.Name)
	}
	t.flush()
}
