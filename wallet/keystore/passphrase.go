package keystore

import (
	"bufio"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/term"
)

// PassphraseEnv is the environment variable scripts pass a passphrase in.
const PassphraseEnv = "ALLOT_PASSPHRASE"

// PassphraseSource says where ReadPassphrase looks, in order: a file, the
// environment, then the terminal. A passphrase never comes from a flag's
// value, which shells keep in history and ps shows.
type PassphraseSource struct {
	File   string              // --passphrase-file: its first line
	Getenv func(string) string // for PassphraseEnv
	Stdin  *os.File            // the terminal to prompt on
	Prompt io.Writer           // where the prompt goes (stderr)
}

// ReadPassphrase returns the passphrase from the first source that has one.
func ReadPassphrase(src PassphraseSource, prompt string) (string, error) {
	if src.File != "" {
		f, err := os.Open(src.File)
		if err != nil {
			return "", fmt.Errorf("passphrase file: %w", err)
		}
		defer f.Close()
		line, err := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("passphrase file: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	if src.Getenv != nil {
		if p := src.Getenv(PassphraseEnv); p != "" {
			return p, nil
		}
	}
	if src.Stdin == nil || !term.IsTerminal(int(src.Stdin.Fd())) {
		return "", fmt.Errorf("no passphrase: not on a terminal; use --passphrase-file or %s", PassphraseEnv)
	}
	fmt.Fprint(src.Prompt, prompt)
	b, err := term.ReadPassword(int(src.Stdin.Fd()))
	fmt.Fprintln(src.Prompt)
	if err != nil {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	return string(b), nil
}

func randomID() uuid.UUID {
	id, err := uuid.NewRandomFromReader(rand.Reader)
	if err != nil {
		return uuid.New()
	}
	return id
}
