package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// panicky panics in Update on its first key, or in View from the start.
type panicky struct{ inView bool }

func (p panicky) Init() tea.Cmd { return nil }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		panic("boom in Update")
	}
	return p, nil
}

func (p panicky) View() string {
	if p.inView {
		panic("boom in View")
	}
	return "ready"
}

// TestCrashFile: a panic in View or Update ends the program with the
// terminal restored (the cursor shown again, the alternate screen left),
// and writes the panic and its stack to a crash file of mode 0600 in the
// state directory, which the error names.
func TestCrashFile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		model panicky
		input string
		want  string
	}{
		{"view", panicky{inView: true}, "", "boom in View"},
		{"update", panicky{}, "x", "boom in Update"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			var out bytes.Buffer
			err := run(context.Background(), tt.model, dir, tea.WithInput(strings.NewReader(tt.input)), tea.WithOutput(&out), tea.WithAltScreen())
			if !errors.Is(err, ErrCrashed) {
				t.Fatalf("err = %v, want ErrCrashed", err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "crash-*.txt"))
			if len(files) != 1 || !strings.Contains(err.Error(), files[0]) {
				t.Fatalf("crash files %v; the error says %q", files, err)
			}
			info, err := os.Stat(files[0])
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("crash file mode %v (%v), want 0600", info.Mode().Perm(), err)
			}
			text, _ := os.ReadFile(files[0])
			if !strings.Contains(string(text), tt.want) || !strings.Contains(string(text), "goroutine") {
				t.Errorf("the crash file lacks the panic or its stack:\n%s", text)
			}
			if o := out.String(); strings.LastIndex(o, "\x1b[?1049l") < strings.LastIndex(o, "\x1b[?1049h") {
				t.Errorf("the alternate screen was not left: %q", o)
			}
		})
	}
}

// TestCrashOutsideTheDashboard: a panic that reaches main is written to a
// crash file in the state directory, and one line says where.
func TestCrashOutsideTheDashboard(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var out bytes.Buffer
	if code := Crash(&out, "boom", []byte("goroutine 1 [running]:")); code == 0 {
		t.Fatal("exit status 0 after a crash")
	}
	files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "allot", "crash-*.txt"))
	if len(files) != 1 || !strings.Contains(out.String(), files[0]) {
		t.Fatalf("crash files %v; said %q", files, out.String())
	}
}

// panickyCmd answers Init with cmd, which panics on its goroutine.
type panickyCmd struct{ cmd tea.Cmd }

func (p panickyCmd) Init() tea.Cmd                       { return p.cmd }
func (p panickyCmd) Update(tea.Msg) (tea.Model, tea.Cmd) { return p, nil }
func (p panickyCmd) View() string                        { return "ready" }

// TestCrashInCommand: a panic in a command, which Bubble Tea runs on a
// goroutine of its own (alone, in a batch or in a sequence), ends the
// program with the terminal restored, and is written to the same 0600
// crash file as one in Update, which the error names; nothing is printed
// over the screen.
func TestCrashInCommand(t *testing.T) {
	t.Parallel()
	boom := func() tea.Msg { panic("boom in a command") }
	for _, tt := range []struct {
		name string
		cmd  tea.Cmd
	}{
		{"alone", boom},
		{"in a batch", tea.Batch(func() tea.Msg { return nil }, boom)},
		{"in a sequence", tea.Sequence(func() tea.Msg { return nil }, boom)},
		{"in a batch in a batch", tea.Batch(tea.Batch(boom, nil))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			var out bytes.Buffer
			err := run(context.Background(), panickyCmd{tt.cmd}, dir, tea.WithInput(nil), tea.WithOutput(&out), tea.WithAltScreen())
			if !errors.Is(err, ErrCrashed) {
				t.Fatalf("err = %v, want ErrCrashed", err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "crash-*.txt"))
			if len(files) != 1 || !strings.Contains(err.Error(), files[0]) {
				t.Fatalf("crash files %v; the error says %q", files, err)
			}
			if info, err := os.Stat(files[0]); err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("crash file: %v, %v; want mode 0600", info, err)
			}
			if text, _ := os.ReadFile(files[0]); !strings.Contains(string(text), "boom in a command") || !strings.Contains(string(text), "goroutine") {
				t.Errorf("the crash file lacks the panic or its stack:\n%s", text)
			}
			o := out.String()
			if strings.Contains(o, "Caught goroutine panic") || strings.LastIndex(o, "\x1b[?1049l") < strings.LastIndex(o, "\x1b[?1049h") {
				t.Errorf("printed over the screen, or the alternate screen was not left: %q", o)
			}
		})
	}
}
