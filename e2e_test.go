package main

// End-to-end tests of the real binary: built once, run as a user runs it,
// headless against `allot sandbox` and interactive in tmux.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "allot-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "allot")
	// Linked without the symbol table and DWARF, as go test links its
	// own binaries: the tests read what allot prints, never its symbols,
	// and the link takes a third less.
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build allot: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// userEnv is a fresh user's environment: no configuration, private state.
func userEnv(t testing.TB) []string {
	home := t.TempDir()
	return append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"NO_COLOR=1",
	)
}

// run runs the binary and returns stdout, stderr and the exit status.
func run(t testing.TB, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("run allot %s: %v", strings.Join(args, " "), err)
	}
	return stdout.String(), stderr.String(), code
}

// tmux drives the binary in a detached tmux session of a fixed size, on a
// tmux server of its own: a person's tmux (or another test's) ending its
// last session stops the shared default server under a starting test.
type tmux struct {
	t       *testing.T
	socket  string
	session string
}

// command is a tmux command on the test's own server.
func (tm *tmux) command(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...)
}

func startTmux(t *testing.T, env []string, width, height int, args ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: skipping the end-to-end test of the dashboard (.ci/run installs it)")
	}
	// A short directory: a socket's path is limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "allot-tmux")
	if err != nil {
		t.Fatal(err)
	}
	tm := &tmux{t: t, socket: filepath.Join(dir, "s"), session: "allot-e2e"}
	t.Cleanup(func() {
		tm.command("kill-server").Run()
		os.RemoveAll(dir)
	})
	var envArgs []string
	for _, kv := range env {
		for _, prefix := range []string{"HOME=", "XDG_", "NO_COLOR=", "PATH=", "ALLOT_API_KEY=", "ALLOT_THEME=", "COLORTERM=", "CI="} {
			if strings.HasPrefix(kv, prefix) {
				envArgs = append(envArgs, "-e", kv)
			}
		}
	}
	cmdArgs := append([]string{"new-session", "-d", "-s", tm.session, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}, envArgs...)
	cmdArgs = append(cmdArgs, binary)
	cmdArgs = append(cmdArgs, args...)
	if out, err := tm.command(cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return tm
}

func (tm *tmux) send(keys ...string) {
	tm.t.Helper()
	args := append([]string{"send-keys", "-t", tm.session}, keys...)
	if out, err := tm.command(args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

// typeText sends text literally, so that words such as "Enter" are not keys.
func (tm *tmux) typeText(text string) {
	tm.t.Helper()
	tm.send("-l", text)
}

func (tm *tmux) screen() string { return tm.capture() }

// capture is the screen, with flags for capture-pane (-e: with its
// escape sequences).
func (tm *tmux) capture(flags ...string) string {
	out, err := tm.command(append([]string{"capture-pane", "-p", "-t", tm.session}, flags...)...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// exited waits until the program has ended, and its tmux session with
// it, or fails the test with the screen it still shows.
func (tm *tmux) exited(timeout time.Duration) {
	tm.t.Helper()
	for deadline := time.Now().Add(timeout); ; {
		if tm.command("has-session", "-t", tm.session).Run() != nil {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("still running %v after it was asked to quit; the screen shows:\n%s", timeout, tm.screen())
		}
		time.Sleep(100 * time.Millisecond) // a poll interval
	}
}

// waitFor waits until every one of texts is on the screen and returns it.
func (tm *tmux) waitFor(timeout time.Duration, texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	var screen string
	for time.Now().Before(deadline) {
		screen = tm.screen()
		missing := false
		for _, want := range texts {
			if !strings.Contains(screen, want) {
				missing = true
				break
			}
		}
		if !missing {
			return screen
		}
		time.Sleep(100 * time.Millisecond)
	}
	tm.t.Fatalf("waited %v for %q; the screen shows:\n%s", timeout, texts, screen)
	return ""
}
