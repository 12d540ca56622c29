package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/core/config"
)

// ErrCrashed is returned when the dashboard stopped on a panic; the error
// names the crash file.
var ErrCrashed = errors.New("allot stopped on an internal error")

// run runs m until it quits. A panic in Init, Update or View, or in a
// command they return (which Bubble Tea runs in a goroutine of its own), is
// written, with its stack, to a crash file in stateDir, Bubble Tea restores
// the terminal, and the error says where: a crash never leaves a broken
// terminal and no trace.
func run(ctx context.Context, m tea.Model, stateDir string, opts ...tea.ProgramOption) error {
	g := &crashGuard{dir: stateDir}
	g.inner = m
	p := tea.NewProgram(g, append(opts, tea.WithContext(ctx))...)
	_, err := p.Run()
	file, failed := g.crashed()
	switch {
	case file != "":
		return fmt.Errorf("%w: the details are in %s (add it to a bug report)", ErrCrashed, file)
	case failed != nil:
		return fmt.Errorf("%w, and the crash file could not be written (%v): the details are above", ErrCrashed, failed)
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil
	}
	return err
}

// crashGuard records a panic of the model it wraps, then lets it go on to
// Bubble Tea, which restores the terminal. A panic in a command it
// returned is recorded the same way, and ends the program.
type crashGuard struct {
	inner tea.Model
	dir   string

	mu     sync.Mutex // commands panic on goroutines of their own
	file   string     // the crash file written
	failed error      // why none could be
}

func (g *crashGuard) Init() tea.Cmd {
	defer g.record()
	return g.guard(g.inner.Init())
}

func (g *crashGuard) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer g.record()
	var cmd tea.Cmd
	g.inner, cmd = g.inner.Update(msg)
	return g, g.guard(cmd)
}

func (g *crashGuard) View() string {
	defer g.record()
	return g.inner.View()
}

func (g *crashGuard) record() {
	r := recover()
	if r == nil {
		return
	}
	g.write(r, debug.Stack())
	panic(r)
}

// write writes the first panic to a crash file.
func (g *crashGuard) write(r any, stack []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.file == "" && g.failed == nil {
		g.file, g.failed = writeCrash(g.dir, r, stack)
	}
}

func (g *crashGuard) crashed() (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.file, g.failed
}

// guard wraps cmd so that a panic in it is written to the crash file and
// ends the program, as one in Update does. Bubble Tea would catch it on
// the command's goroutine, print it over the dashboard and leave no
// trace. The commands of the batches and sequences cmd answers with are
// guarded too.
func (g *crashGuard) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				g.write(r, debug.Stack())
				msg = tea.QuitMsg{} // the terminal is restored as on any quit
			}
		}()
		return g.guardMsg(cmd())
	}
}

// cmdType is the type of a command, which batches and sequences hold.
var cmdType = reflect.TypeOf((*tea.Cmd)(nil)).Elem()

// guardMsg guards the commands of a batch or a sequence msg holds. A
// sequence's type is Bubble Tea's own, unexported: it is found as a slice
// of commands.
func (g *crashGuard) guardMsg(msg tea.Msg) tea.Msg {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return msg
	}
	out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	for i := range v.Len() {
		cmd, _ := v.Index(i).Interface().(tea.Cmd)
		out.Index(i).Set(reflect.ValueOf(g.guard(cmd)))
	}
	return out.Interface()
}

// writeCrash writes a panic and its stack to a new file in dir, readable
// by its owner only (0600), and returns its path.
func writeCrash(dir string, r any, stack []byte) (string, error) {
	if dir == "" {
		return "", errors.New("no state directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name := "crash-" + time.Now().UTC().Format("20060102T150405.000Z") + ".txt"
	path := filepath.Join(dir, name)
	text := fmt.Sprintf("allot crashed at %s\n\npanic: %v\n\n%s", time.Now().UTC().Format(time.RFC3339), r, stack)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", err
	}
	return path, nil
}

// Crash reports a panic that reached main: it writes the panic and stack
// to a crash file in the state directory, says where on w, and returns
// the exit status.
func Crash(w io.Writer, r any, stack []byte) int {
	dir, err := config.StateDir()
	path := ""
	if err == nil {
		path, err = writeCrash(dir, r, stack)
	}
	if err != nil {
		fmt.Fprintf(w, "allot: internal error: %v (no crash file: %v)\n%s", r, err, stack)
	} else {
		fmt.Fprintf(w, "allot: internal error: %v\nthe details are in %s (add it to a bug report)\n", r, path)
	}
	return 70 // EX_SOFTWARE
}
