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
	// Terminal reads one line typed without echo; nil reads Stdin when it
	// is a terminal. Tests replace it.
	Terminal func() (string, error)
}

// ErrPassphraseMismatch is a new passphrase typed differently twice.
var ErrPassphraseMismatch = errors.New("the two passphrases differ")

// ReadPassphrase returns the passphrase from the first source that has one.
func ReadPassphrase(src PassphraseSource, prompt string) (string, error) {
	pass, _, err := readPassphrase(src, prompt)
	return pass, err
}

// NewPassphrase returns the passphrase for a new key. Typed at the
// terminal, it is asked twice, as geth and cast ask, and a mismatch is
// refused: one typo would make a key nobody can unlock. From a file or the
// environment it is read once.
func NewPassphrase(src PassphraseSource, prompt string) (string, error) {
	pass, typed, err := readPassphrase(src, prompt)
	if err != nil || !typed {
		return pass, err
	}
	again, err := src.terminal("Repeat the passphrase: ")
	if err != nil {
		return "", err
	}
	if again != pass {
		return "", ErrPassphraseMismatch
	}
	return pass, nil
}

// Check says whether ReadPassphrase can find a passphrase, without reading
// it: the file can be opened, the environment holds one, or there is a
// terminal to type it on. A command checks it before it writes anything,
// so that a missing file is not found after a request was sent.
func (src PassphraseSource) Check() error {
	switch {
	case src.File != "":
		f, err := os.Open(src.File)
		if err != nil {
			return fmt.Errorf("passphrase file: %w", err)
		}
		defer f.Close()
		if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
			return fmt.Errorf("passphrase file: %s is not a regular file", src.File)
		}
		return nil
	case src.Getenv != nil && src.Getenv(PassphraseEnv) != "", src.Terminal != nil:
		return nil
	case src.Stdin == nil || !term.IsTerminal(int(src.Stdin.Fd())):
		return fmt.Errorf("no passphrase: not on a terminal; use --passphrase-file or %s", PassphraseEnv)
	}
	return nil
}

// readPassphrase reads as ReadPassphrase does, and says whether the
// passphrase was typed at the terminal.
func readPassphrase(src PassphraseSource, prompt string) (pass string, typed bool, err error) {
	if src.File != "" {
		f, err := os.Open(src.File)
		if err != nil {
			return "", false, fmt.Errorf("passphrase file: %w", err)
		}
		defer f.Close()
		line, err := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", false, fmt.Errorf("passphrase file: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), false, nil
	}
	if src.Getenv != nil {
		if p := src.Getenv(PassphraseEnv); p != "" {
			return p, false, nil
		}
	}
	pass, err = src.terminal(prompt)
	return pass, err == nil, err
}

// terminal prompts and reads a line typed without echo.
func (src PassphraseSource) terminal(prompt string) (string, error) {
	read := src.Terminal
	if read == nil {
		if src.Stdin == nil || !term.IsTerminal(int(src.Stdin.Fd())) {
			return "", fmt.Errorf("no passphrase: not on a terminal; use --passphrase-file or %s", PassphraseEnv)
		}
		read = func() (string, error) {
			b, err := term.ReadPassword(int(src.Stdin.Fd()))
			return string(b), err
		}
	}
	if src.Prompt != nil {
		fmt.Fprint(src.Prompt, prompt)
	}
	pass, err := read()
	if src.Prompt != nil {
		fmt.Fprintln(src.Prompt)
	}
	if err != nil {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	return pass, nil
}

func randomID() uuid.UUID {
	id, err := uuid.NewRandomFromReader(rand.Reader)
	if err != nil {
		return uuid.New()
	}
	return id
}
