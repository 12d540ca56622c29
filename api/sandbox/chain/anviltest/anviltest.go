// Package anviltest starts foundry's anvil, a local EVM node, for tests
// that prove allot against a node it does not run itself. Tests skip where
// anvil is not on PATH; CI installs it from npm (@foundry-rs/anvil, the
// version below) and sets RequireEnv.
package anviltest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the anvil CI installs.
const Version = "1.7.1"

// RequireEnv names the environment variable that, set, makes a missing
// anvil fail the tests that need it rather than skip them: CI sets it.
const RequireEnv = "ALLOT_REQUIRE_ANVIL"

// Keys are the private keys of anvil's first funded accounts, from its
// default mnemonic ("test test ... junk"): public knowledge, worth nothing.
var Keys = []string{
	"0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
	"0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
	"0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
}

// startTimeout bounds anvil's start, until it answers.
const startTimeout = 30 * time.Second

// Start runs anvil on a free loopback port with args (e.g. "--block-time",
// "1") until the test ends, and returns its JSON-RPC URL. It skips the
// test when anvil is not installed.
func Start(t testing.TB, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("anvil")
	if err != nil {
		msg := "anvil is not on PATH: install it with npm install -g @foundry-rs/anvil@" + Version
		if os.Getenv(RequireEnv) != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// Another process may take the free port before anvil does: try again.
	var last string
	for range 3 {
		url, out, ok := start(t, path, args)
		if ok {
			return url
		}
		last = out
	}
	t.Fatalf("anvil did not start:\n%s", last)
	return ""
}

func start(t testing.TB, path string, args []string) (url string, output string, ok bool) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, append([]string{"--host", "127.0.0.1", "--port", strconv.Itoa(port)}, args...)...)
	out := &tail{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	// npm's anvil is a node script that runs the real binary as its child:
	// a process group of its own ends both.
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start anvil: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		signalGroup(cmd, false)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			signalGroup(cmd, true)
			<-exited
		}
	}
	url = "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return "", out.String(), false
		case <-time.After(100 * time.Millisecond):
		}
		if answers(url) {
			t.Cleanup(stop)
			return url, "", true
		}
	}
	stop()
	t.Fatalf("anvil did not answer within %s:\n%s", startTimeout, out.String())
	return "", "", false
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// answers reports whether a node answers eth_chainId at url.
func answers(url string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// tail keeps the last max bytes written to it: anvil logs every request.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = bytes.Clone(w.buf[len(w.buf)-w.max:])
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
