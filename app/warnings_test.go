package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestSessionWarningsShownInDashboard: the warnings printed on stderr
// before the dashboard takes the screen (a readable config with an inline
// key, a journal others can read that could not be mended) are on its
// status line at start, and all of them under E.
func TestSessionWarningsShownInDashboard(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	s.Warnings = []string{
		"/home/u/.config/allot/config.toml is readable by other users and profile \"prod\" holds an inline api_key: run chmod 600",
		"second \x1b]0;title\x07 warning",
	}
	view := drive(t, s, 120, 36, step{want: "Contracts"})
	if !strings.Contains(view, "✗ 2 warnings: /home/u/.config/allot/config.toml is readable") || !strings.Contains(view, "(E: details)") {
		t.Errorf("status line does not show the warning:\n%s", view)
	}
	view = drive(t, s, 120, 36, step{want: "Contracts"}, step{keys: "E", want: "second"})
	if !strings.Contains(view, "holds an inline api_key") || !strings.Contains(view, "second ^[]0;title^G warning") {
		t.Errorf("E does not show every warning, inert:\n%s", view)
	}
}

// TestJournalMadePrivateAtStart: a journal left readable by others is made
// private when the dashboard opens it.
func TestJournalMadePrivateAtStart(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	os.Chmod(s.StateDir, 0o755)
	path := filepath.Join(s.StateDir, "journal.jsonl")
	os.WriteFile(path, nil, 0o644)
	os.Chmod(path, 0o644)
	newModel(s)
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("journal mode %v", info.Mode().Perm())
	}
}

// TestUnlockFoundryKeyBesideFIFO: in the dashboard, a keystore folder with
// a FIFO (which froze the dashboard: opening it blocks) and a key made by
// foundry's cast (no address in the file) lists the FIFO as a problem, the
// key by its file name, and unlocking it shows the proven address.
func TestUnlockFoundryKeyBesideFIFO(t *testing.T) {
	t.Parallel()
	src := filepath.Join("..", "wallet", "keystore", "testdata", "foundry")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var addr string
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(src, e.Name()))
		if e.Name() == "ADDRESS" {
			addr = strings.TrimSpace(string(data))
			continue
		}
		os.WriteFile(filepath.Join(dir, e.Name()), data, 0o600)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "UTC--fifo"), 0o600); err != nil {
		t.Skip(err)
	}
	s := shared.Session(t)
	s.Profile.Keystore = dir
	view := drive(t, s, 120, 36, step{want: "Contracts"}, step{keys: "u", want: "not a regular file"})
	if !strings.Contains(view, "(address known once unlocked)") || !strings.Contains(view, "UTC--fifo") {
		t.Errorf("the listing does not show the foundry key by file and the FIFO as a problem:\n%s", view)
	}
	view = drive(t, s, 120, 36, step{want: "Contracts"}, step{keys: "u", want: "not a regular file"},
		step{key: tea.KeyEnter, want: "Passphrase"}, step{keys: "fixture passphrase"}, step{key: tea.KeyEnter, want: "unlocked " + addr})
	if !strings.Contains(view, addr) {
		t.Errorf("the unlocked address is not shown:\n%s", view)
	}
}

// TestWarningsStayUnderLaterError: when a failed load takes the status
// line from the warnings at start, E still shows them below the error.
func TestWarningsStayUnderLaterError(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	s.Warnings = []string{"config.toml is readable by other users"}
	m := newModel(s)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m.fail("Contracts", errors.New("connection refused"))
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'E'}})
	view := m.View()
	if !strings.Contains(view, "connection refused") || !strings.Contains(view, "config.toml is readable by other users") {
		t.Errorf("E does not show the error and the warnings:\n%s", view)
	}
}
