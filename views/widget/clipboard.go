package widget

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/sanitize"
)

// maxCopyBytes bounds what goes on the clipboard: ids and addresses are
// short, and terminals drop (or choke on) very long OSC 52 payloads.
const maxCopyBytes = 4096

// StatusMsg is a one-line message for the status bar, sent by a widget
// after an action such as a copy.
type StatusMsg struct {
	Text  string
	Error bool
}

// Clipboard puts text on the clipboard of the terminal the program runs in,
// with the OSC 52 escape sequence, which works over SSH and needs no system
// clipboard tool. Bubble Tea v1 has no clipboard call, so the sequence is
// written straight to the terminal output from a tea.Cmd. The renderer
// writes whole frames in single writes, and the terminal driver does not
// interleave two writes, so the short sequence cannot land inside a frame.
type Clipboard struct {
	// Out is the terminal the program draws on (tests use a buffer).
	Out io.Writer
	// Tmux wraps the sequence in tmux's passthrough, so that tmux hands it
	// on to the outer terminal.
	Tmux bool
}

// TerminalClipboard is the clipboard of the terminal on standard output.
func TerminalClipboard() Clipboard {
	return Clipboard{Out: os.Stdout, Tmux: os.Getenv("TMUX") != ""}
}

// errNoTerminal reports a Clipboard without an output.
var errNoTerminal = errors.New("no terminal output")

// Copy returns a command that puts text on the clipboard and reports the
// outcome as a StatusMsg. The text is sanitized first: a control character
// copied from a hostile server string would act when pasted into a shell.
func (c Clipboard) Copy(text string) tea.Cmd {
	clean := sanitize.Line(text)
	return func() tea.Msg {
		if err := c.write(clean); err != nil {
			return StatusMsg{Text: fmt.Sprintf("copy failed: %v", err), Error: true}
		}
		return StatusMsg{Text: "copied " + sanitize.Truncate(clean, 48)}
	}
}

func (c Clipboard) write(clean string) error {
	if c.Out == nil {
		return errNoTerminal
	}
	if clean == "" {
		return errors.New("nothing to copy")
	}
	if len(clean) > maxCopyBytes {
		return fmt.Errorf("text too long (%d bytes, limit %d)", len(clean), maxCopyBytes)
	}
	if _, err := io.WriteString(c.Out, osc52(clean, c.Tmux)); err != nil {
		return fmt.Errorf("write to terminal: %w", err)
	}
	return nil
}

// osc52 builds the sequence that sets the clipboard ("c") to text.
func osc52(text string, tmux bool) string {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
	if tmux {
		// tmux passes a DCS "tmux;" payload on with each ESC doubled.
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return seq
}
