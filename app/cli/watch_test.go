package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api"
	"allot/core/journal"
	"allot/core/session"
	"allot/core/watch"
	"allot/internal/clock"
	"allot/wallet"
)

// syncBuffer is a command's output read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the output holds want, or fails the test after a
// deadline: it waits on the output, never on a clock of the command's.
func (s *syncBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(s.String(), want) {
		select {
		case <-deadline:
			t.Fatalf("timed out waiting for %q in:\n%s", want, s.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// startWatch runs `allot watch args` on s with clock c until stop,
// which returns its exit status.
func startWatch(t *testing.T, s *session.Session, c clock.Clock, args ...string) (stdout, stderr *syncBuffer, stop func() int) {
	t.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{IO: IO{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }}, sess: s, clock: c}
	done := make(chan int, 1)
	go func() { done <- report(stderr, run(ctx, e, append([]string{"watch"}, args...))) }()
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	return stdout, stderr, stop
}

// events decodes watch's JSON lines, each field known.
func events(t *testing.T, out string) []watch.Event {
	t.Helper()
	var list []watch.Event
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var ev watch.Event
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("not an event line: %q: %v", line, err)
		}
		list = append(list, ev)
	}
	return list
}

func eventKinds(list []watch.Event) string {
	var out []string
	for _, e := range list {
		out = append(out, e.Event)
	}
	return strings.Join(out, " ")
}

// TestWatchOnce: --once prints what changed since the last --once (the
// first time, what it finds) and exits 10 when something can be claimed
// above the threshold, 0 when not, 1 when an allocation cannot be
// checked; the output is JSON lines and nothing else. A claim mined
// between two runs is the second's news; a damaged file of the last
// looks starts afresh.
func TestWatchOnce(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	r := f.run(t, "watch", testAllocation, "--once")
	if r.code != ExitClaimable || eventKinds(events(t, r.stdout)) != "watching claimable" || r.stderr != "" {
		t.Fatalf("all of 1000 claimable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ev := events(t, r.stdout)[1]
	if ev.Allocation != testAllocation || ev.Claimable != "1000" || ev.ClaimableWei != ether(1000).String() || ev.State != "active" || ev.Recipient != f.user.Hex() {
		t.Errorf("claimable event %+v", ev)
	}
	if strings.ContainsAny(r.stdout, "\x1b\r") {
		t.Errorf("terminal codes in the output: %q", r.stdout)
	}
	if r = f.run(t, "watch", testAllocation, "--once"); r.code != ExitClaimable || r.stdout != "" {
		t.Errorf("nothing new, still claimable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = f.run(t, "watch", testAllocation, "--once", "--threshold", "1000"); r.code != ExitOK || r.stdout != "" {
		t.Errorf("nothing above the threshold: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	f.svc.claim = func(sender common.Address) []api.EVMInstruction {
		return []api.EVMInstruction{f.withdraw(t, 0, sender, ether(600))}
	}
	if r := f.run(t, "claim", testAllocation, "--amount", "600", "--sign", "--account", f.user.Hex(), "--send", "--yes", "--wait"); r.code != ExitOK {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	r = f.run(t, "watch", testAllocation, "--once")
	if list := events(t, r.stdout); r.code != ExitClaimable || eventKinds(list) != "claimed" || list[0].Amount != "600" || list[0].Claimable != "400" {
		t.Errorf("after a claim: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	unknown := "3f1a2b4c-0000-4000-8000-0000000000ff"
	r = f.run(t, "watch", testAllocation, unknown, "--once")
	if r.code != ExitError || !strings.Contains(r.stderr, "allot: watch: allocation "+unknown+":") || r.stdout != "" {
		t.Errorf("one unknown: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if err := os.WriteFile(filepath.Join(f.sess.StateDir, watch.LooksName), []byte("{\"x\": [tor"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = f.run(t, "watch", testAllocation, "--once")
	if r.code != ExitClaimable || eventKinds(events(t, r.stdout)) != "watching claimable" || !strings.Contains(r.stderr, "starting afresh") {
		t.Errorf("a damaged file of looks: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchSeesAClaim: a watch left running sees a claim mined on the
// chain at its next look, which comes when its (fake) clock is moved on:
// nothing sleeps. ctrl+c (the context's end) stops it cleanly.
func TestWatchSeesAClaim(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	fake := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	stdout, stderr, stop := startWatch(t, f.sess, fake, testAllocation, "--interval", "30s")
	stdout.waitFor(t, `"event":"claimable"`)

	f.svc.claim = func(sender common.Address) []api.EVMInstruction {
		return []api.EVMInstruction{f.withdraw(t, 0, sender, ether(600))}
	}
	if r := f.run(t, "claim", testAllocation, "--amount", "600", "--sign", "--account", f.user.Hex(), "--send", "--yes", "--wait"); r.code != ExitOK {
		t.Fatalf("claim: exit %d\n%s", r.code, r.stderr)
	}
	if err := f.chain.AdvanceTime(time.Hour); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := fake.BlockUntil(wait, 1); err != nil {
		t.Fatal("the watch waits on no clock:", err)
	}
	fake.Advance(30 * time.Second)
	stdout.waitFor(t, `"event":"claimed"`)
	if code := stop(); code != ExitOK {
		t.Errorf("stopped: exit %d\n%s", code, stderr)
	}
	list := events(t, stdout.String())
	if eventKinds(list) != "watching claimable claimed" {
		t.Fatalf("events: %s", stdout)
	}
	claimed := list[2]
	if claimed.Amount != "600" || claimed.Withdrawn != "600" || claimed.Claimable != "400" {
		t.Errorf("claimed %+v", claimed)
	}
	if at, err := time.Parse(time.RFC3339, claimed.Time); err != nil || at.Before(time.Unix(int64(f.head(t).Time), 0).Add(-time.Minute)) {
		t.Errorf("the claim's time %q is not the chain's (%v)", claimed.Time, err)
	}
}

func (f *chainFixture) head(t *testing.T) *types.Header {
	t.Helper()
	h, err := f.sess.Chain.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// flakyNode is a chain that stops answering while down is set.
type flakyNode struct {
	wallet.Node
	down atomic.Bool
}

func (n *flakyNode) HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error) {
	if n.down.Load() {
		return nil, errors.New("connection refused")
	}
	return n.Node.HeaderByNumber(ctx, number)
}

// TestWatchBacksOff: while the chain does not answer, the watch says so on
// stderr and waits twice as long each time; when it answers again, the
// watch says so and its first look is printed.
func TestWatchBacksOff(t *testing.T) {
	t.Parallel()
	f := newChainFixture(t)
	node := &flakyNode{Node: f.sess.Chain}
	node.down.Store(true)
	f.sess.Chain = node
	fake := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	stdout, stderr, stop := startWatch(t, f.sess, fake, testAllocation, "--interval", "30s", "--threshold", "2000")
	wait, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, again := range []string{"1m0s", "2m0s", "4m0s"} {
		stderr.waitFor(t, "connection refused; trying again in "+again)
		if err := fake.BlockUntil(wait, 1); err != nil {
			t.Fatal(err)
		}
		if again == "4m0s" {
			node.down.Store(false)
		}
		fake.Advance(10 * time.Minute)
	}
	stderr.waitFor(t, "checking again: the service and the chain answer")
	stdout.waitFor(t, `"event":"watching"`)
	if code := stop(); code != ExitOK {
		t.Errorf("stopped: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "allot: watch: cannot check: allocation "+testAllocation+": the chain's head block: connection refused") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestWatchFollowsTheFollows: a watch of the followed allocations (no ids
// given) reads them again at each look: one followed meanwhile, as the
// dashboard's f does, is watched from the next look on, one unfollowed no
// longer. Before, the watch kept the list it started with.
func TestWatchFollowsTheFollows(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	if err := s.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(s.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	first, second := s.Fixtures.AllocationIDs[0], s.Fixtures.AllocationIDs[1]
	follows := s.Follows(j)
	if err := follows.Set(first, true); err != nil {
		t.Fatal(err)
	}
	fake := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	stdout, stderr, stop := startWatch(t, s, fake, "--interval", "30s")
	stdout.waitFor(t, `"allocation":"`+first+`","event":"watching"`)

	if err := follows.Set(second, true); err != nil {
		t.Fatal(err)
	}
	if err := follows.Set(first, false); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := fake.BlockUntil(wait, 1); err != nil {
		t.Fatal("the watch waits on no clock:", err)
	}
	fake.Advance(30 * time.Second)
	stdout.waitFor(t, `"allocation":"`+second+`","event":"watching"`)
	if code := stop(); code != ExitOK {
		t.Errorf("stopped: exit %d\n%s", code, stderr)
	}
	for _, ev := range events(t, stdout.String()) {
		if ev.Allocation != first && ev.Allocation != second {
			t.Errorf("an event of an allocation never followed: %+v", ev)
		}
	}
}
