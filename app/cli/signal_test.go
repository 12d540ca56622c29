package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childArgsEnv, when set, makes the test binary run allot's Main with the
// JSON list of arguments it holds, instead of the tests: the signal tests
// run allot as a process of its own without building it.
const childArgsEnv = "ALLOT_TEST_CHILD_ARGS"

// childArgvEnv, when set, makes the test binary run allot's Main with its
// own arguments: a shell runs it as allot (the completion tests).
const childArgvEnv = "ALLOT_TEST_CHILD_ARGV"

func TestMain(m *testing.M) {
	if os.Getenv(childArgvEnv) != "" {
		os.Exit(Main(os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, nil))
	}
	if raw := os.Getenv(childArgsEnv); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			panic(err)
		}
		os.Exit(Main(args, IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, nil))
	}
	code := m.Run()
	shared.Close()
	os.Exit(code)
}

// TestSIGTERMDuringKeyDerivation: a SIGTERM while scrypt runs (which
// nothing can interrupt) ends allot promptly, with a message and status
// 143, before the derivation finishes.
func TestSIGTERMDuringKeyDerivation(t *testing.T) {
	if testing.Short() {
		t.Skip("derives a key at the largest scrypt cost allowed")
	}
	dir := t.TempDir()
	// The most a file may ask of scrypt, n = 2^19 (512 MiB, seconds of
	// work), and a MAC no passphrase matches: a run that is not stopped
	// ends, after the whole derivation, with "wrong passphrase".
	file := filepath.Join(dir, "slow.json")
	os.WriteFile(file, []byte(`{"version":3,"crypto":{"cipher":"aes-128-ctr",
		"ciphertext":"`+strings.Repeat("11", 32)+`","cipherparams":{"iv":"`+strings.Repeat("22", 16)+`"},
		"kdf":"scrypt","kdfparams":{"dklen":32,"n":524288,"p":1,"r":8,"salt":"`+strings.Repeat("33", 32)+`"},
		"mac":"`+strings.Repeat("44", 32)+`"}}`), 0o600)
	ks := filepath.Join(dir, "keystore")
	args, _ := json.Marshal([]string{"account", "import", file, "--keystore", ks})

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(args), "ALLOT_PASSPHRASE=p")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	var said []string
	for lines.Scan() {
		said = append(said, lines.Text())
		if strings.HasPrefix(lines.Text(), "Decrypting") {
			break
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		said = append(said, lines.Text())
	}
	err = cmd.Wait()
	t.Logf("exited %s after the signal", time.Since(sent).Round(time.Millisecond))
	status := cmd.ProcessState.ExitCode()
	out := strings.Join(said, "\n")
	if status != 143 || !strings.Contains(out, "interrupted by SIGTERM") {
		t.Errorf("exit %d (%v), want 143 and a message; stderr:\n%s", status, err, out)
	}
	if strings.Contains(out, "wrong passphrase") {
		t.Errorf("the derivation ran to its end before allot stopped:\n%s", out)
	}
}
