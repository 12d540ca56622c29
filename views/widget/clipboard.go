package widget

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
)

// maxCopyBytes bounds what goes on the clipboard: ids and addresses are
// short, and terminals drop (or choke on) very long OSC 52 payloads.
const maxCopyBytes = 4096

// commandTimeout bounds a clipboard command: xclip waits for a display that
// may never answer, and the copy must not hang.
const commandTimeout = 2 * time.Second

// StatusMsg is a one-line message for the status bar, sent by a widget
// after an action such as a copy.
type StatusMsg struct {
	Text  string
	Error bool
}

// Mux is a terminal multiplexer between allot and the terminal. Each needs
// its own way to reach the clipboard: tmux drops an application's OSC 52
// unless its allow-passthrough option is on, and screen passes on only
// what is wrapped for it.
type Mux int

const (
	NoMux Mux = iota
	Tmux
	Screen
)

// Clipboard puts text on a clipboard by the first way that works where
// allot runs, and says which way it went:
//   - under tmux, `tmux load-buffer -w -` fills tmux's paste buffer and, as
//     tmux's set-clipboard option allows, the outer terminal's clipboard;
//   - a system clipboard command (wl-copy, xclip, xsel, pbcopy) on a local
//     desktop session;
//   - the OSC 52 escape sequence, which works over SSH and needs no tool,
//     wrapped for screen when screen is in between.
//
// OSC 52 gives no answer, so its message says the text was sent and shows
// it, to select by hand where the terminal ignores it. Bubble Tea v1 has no
// clipboard call, so the sequence is written straight to the terminal
// output from a tea.Cmd. The renderer writes whole frames in single writes,
// and the terminal driver does not interleave two writes, so the short
// sequence cannot land inside a frame.
type Clipboard struct {
	// Out is the terminal the program draws on (tests use a buffer).
	Out io.Writer
	// Mux is the multiplexer allot runs under.
	Mux Mux
	// Command is a system clipboard command that reads the text on its
	// standard input; empty when there is none to use.
	Command []string
	// Run runs a clipboard command; nil runs it with os/exec.
	Run func(ctx context.Context, argv []string, stdin string) error
}

// TerminalClipboard is the clipboard of the terminal on standard output,
// with the multiplexer and system command found in the environment.
func TerminalClipboard() Clipboard {
	c := Clipboard{Out: os.Stdout}
	switch {
	case os.Getenv("TMUX") != "":
		c.Mux = Tmux
		if path, err := exec.LookPath("tmux"); err == nil {
			c.Command = []string{path, "load-buffer", "-w", "-"}
		}
		return c
	case os.Getenv("STY") != "":
		c.Mux = Screen
	}
	c.Command = systemCommand(os.Getenv, runtime.GOOS, exec.LookPath)
	return c
}

// systemCommand finds the desktop's clipboard command. Over SSH the desktop
// is the one the user sits at, which only OSC 52 reaches: none is used.
func systemCommand(getenv func(string) string, goos string, look func(string) (string, error)) []string {
	if getenv("SSH_TTY") != "" || getenv("SSH_CONNECTION") != "" {
		return nil
	}
	var candidates [][]string
	switch {
	case goos == "darwin":
		candidates = [][]string{{"pbcopy"}}
	case getenv("WAYLAND_DISPLAY") != "":
		candidates = [][]string{{"wl-copy"}}
	case getenv("DISPLAY") != "":
		candidates = [][]string{{"xclip", "-selection", "clipboard"}, {"xsel", "--clipboard", "--input"}}
	}
	for _, argv := range candidates {
		if path, err := look(argv[0]); err == nil {
			return append([]string{path}, argv[1:]...)
		}
	}
	return nil
}

// errNoTerminal reports a Clipboard with neither a command nor an output.
var errNoTerminal = errors.New("no clipboard command and no terminal output")

// Copy returns a command that puts text on the clipboard and reports the
// outcome as a StatusMsg. The text is sanitized first: a control character
// copied from a hostile server string would act when pasted into a shell.
func (c Clipboard) Copy(text string) tea.Cmd {
	clean := sanitize.Line(text)
	return func() tea.Msg {
		way, err := c.write(clean)
		if err != nil {
			msg := fmt.Sprintf("copy failed: %v", err)
			if clean != "" && len(clean) <= maxCopyBytes {
				msg += "; select it by hand: " + clean
			}
			return StatusMsg{Text: sanitize.Truncate(msg, 160), Error: true}
		}
		return StatusMsg{Text: "copied " + sanitize.Truncate(clean, 48) + " (" + way + ")"}
	}
}

// write puts clean on the clipboard and says how, in a few words.
func (c Clipboard) write(clean string) (way string, err error) {
	switch {
	case clean == "":
		return "", errors.New("nothing to copy")
	case len(clean) > maxCopyBytes:
		return "", fmt.Errorf("text too long (%d bytes, limit %d)", len(clean), maxCopyBytes)
	}
	var cmdErr error
	if len(c.Command) > 0 {
		if cmdErr = c.run(c.Command, clean); cmdErr == nil {
			if c.Mux == Tmux {
				return "tmux paste buffer", nil
			}
			return baseName(c.Command[0]), nil
		}
	}
	if c.Out == nil {
		if cmdErr != nil {
			return "", cmdErr
		}
		return "", errNoTerminal
	}
	if _, err := io.WriteString(c.Out, osc52(clean, c.Mux)); err != nil {
		return "", fmt.Errorf("write to terminal: %w", err)
	}
	return "OSC 52", nil
}

func (c Clipboard) run(argv []string, stdin string) error {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	if c.Run != nil {
		return c.Run(ctx, argv, stdin)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if words := strings.TrimSpace(stderr.String()); words != "" {
			return fmt.Errorf("%s: %s", baseName(argv[0]), sanitize.Truncate(words, 80))
		}
		return fmt.Errorf("%s: %w", baseName(argv[0]), err)
	}
	return nil
}

func baseName(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// osc52 builds the sequence that sets the clipboard ("c") to text, wrapped
// for the multiplexer in between.
func osc52(text string, mux Mux) string {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
	switch mux {
	case Tmux:
		// tmux passes a DCS "tmux;" payload on, with each ESC doubled, when
		// allow-passthrough is on; load-buffer above is the way that does
		// not depend on it.
		return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	case Screen:
		return "\x1bP" + seq + "\x1b\\"
	}
	return seq
}
