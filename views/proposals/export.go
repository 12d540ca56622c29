package proposals

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// exportPage writes a proposal as a Safe{Wallet} Transaction Builder
// file (docs/custody.md), the bytes `allot safe export FILE -o
// tx-builder` writes (session.TxBuilderFile), for an owner who signs in
// Safe{Wallet}: to a path the user edits, beside the proposal at first;
// a file there already is replaced only once the user answers yes. It
// then says where it wrote and the file's checksum, which Safe{Wallet}'s
// Transaction Builder checks as it imports it.
type exportPage struct {
	views.Base
	ctx    *views.Context
	sp     session.SafeProposal
	path   textinput.Model
	reqs   views.Requests
	seq    int
	saving bool
	ask    *widget.Confirm
	// target is the path being written; sum its checksum once written.
	target, sum string
	err         error
	w           int
}

var (
	keyExport = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export for Safe{Wallet}"))
	keyWrite  = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write the file"))
)

// exportBinding is the proposal page's key that opens the export.
func (p *page) exportBinding() widget.Binding {
	return widget.Binding{Key: keyExport, Short: true, Disabled: p.whyNotExport,
		Run:  func() tea.Cmd { return views.Navigate(newExport(p.Ctx, p.sp)) },
		Long: "write the proposal as a Safe{Wallet} Transaction Builder file, with its checksum, for an owner who signs in Safe{Wallet}"}
}

// whyNotExport says why the proposal cannot be exported, "" when it can.
func (p *page) whyNotExport() string {
	if p.sp.Proposal == nil {
		return "the proposal could not be read"
	}
	return ""
}

func newExport(ctx *views.Context, sp session.SafeProposal) *exportPage {
	in := textinput.New()
	in.Prompt = "File: "
	in.CharLimit = 1024
	in.SetValue(strings.TrimSuffix(sp.Path, ".json") + ".tx-builder.json")
	in.Focus()
	return &exportPage{ctx: ctx, sp: sp, path: in}
}

func (e *exportPage) Title() string { return "Export for Safe{Wallet}" }

func (e *exportPage) Mode() views.Mode {
	return views.Mode{Busy: e.saving, Writing: e.saving, TakesKeys: true, OwnsEsc: e.ask != nil}
}

func (e *exportPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if e.ask != nil {
			return e.ask.Update(msg)
		}
		if cmd, ok := e.Keys().Dispatch(msg); ok {
			return cmd
		}
		var cmd tea.Cmd
		e.path, cmd = e.path.Update(msg)
		return cmd
	case widget.ConfirmMsg:
		if !e.ask.Answers(msg) {
			return nil
		}
		e.ask = nil
		if msg.Yes {
			return e.write()
		}
		e.err = errors.New("not written: you did not answer yes to replacing the file")
	case views.Loaded[string]:
		if msg.Seq == e.seq {
			e.saving, e.sum, e.err = false, msg.Value, msg.Err
		}
	}
	return nil
}

// submit writes the file, or asks first when one is there.
func (e *exportPage) submit() tea.Cmd {
	path := strings.TrimSpace(e.path.Value())
	if path == "" {
		e.err = errors.New("type the path of the file to write")
		return nil
	}
	e.target, e.sum, e.err = path, "", nil
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		e.ask = e.ctx.Confirm("export", "Replace the file?", sanitize.Line(path), "A file is there already.")
		e.ask.SetWidth(min(e.w, 80))
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		e.err = fmt.Errorf("the file: %w", err)
		return nil
	}
	return e.write()
}

// write writes the file whole or not at all.
func (e *exportPage) write() tea.Cmd {
	prop, path, now := e.sp.Proposal, e.target, e.ctx.Now()
	e.seq, e.saving = e.reqs.Next(), true
	return views.Write(e.seq, func(context.Context) (string, error) {
		return session.WriteTxBuilder(prop, path, now)
	})
}

func (e *exportPage) Keys() widget.Bindings {
	if e.ask != nil {
		return e.ask.Bindings()
	}
	return widget.Bindings{{Key: keyWrite, Short: true, Run: e.submit, Disabled: func() string {
		if e.saving {
			return "wait: writing"
		}
		return ""
	}}}
}

func (e *exportPage) SetSize(width, _ int) {
	e.w = width
	e.path.Width = max(width-8, 10)
	e.path.SetCursor(e.path.Position()) // the text scrolls to the new width
	if e.ask != nil {
		e.ask.SetWidth(min(width, 80))
	}
}

func (e *exportPage) View() string {
	w, prop := max(e.w, 20), e.sp.Proposal
	out := []string{e.ctx.Styles.Title.Render("Export for Safe{Wallet}'s Transaction Builder"), ""}
	out = append(out, fitField("Proposal", sanitize.Line(act(prop)), w)...)
	out = append(out, fitField("safeTxHash", prop.Hashes.SafeTx.Hex(), w)...)
	out = append(out, widget.WrapWords("Its calls, written as a Transaction Builder file with its checksum: an owner imports it in Safe{Wallet} (Transaction Builder, drag and drop) and signs there.", w)...)
	out = append(out, "", e.path.View(), "")
	switch {
	case e.saving:
		out = append(out, "Writing…")
	case e.err != nil:
		out = append(out, widget.WrapWords("✗ "+sanitize.Line(e.err.Error()), w)...)
	case e.sum != "":
		out = append(out, "✓ Written:")
		// Whole, however long: the user finds the file by it.
		out = append(out, "  File:")
		out = append(out, hardWrap(sanitize.Line(e.target), w-4, "    ")...)
		out = append(out, fitField("  Checksum", sanitize.Line(e.sum), w)...)
	}
	if e.ask != nil {
		out = append(out, e.ask.View())
	}
	return strings.Join(out, "\n")
}

// hardWrap cuts s into lines of width runes, each after indent: a path
// is shown whole, never shortened.
func hardWrap(s string, width int, indent string) []string {
	r, width := []rune(s), max(width, 8)
	var out []string
	for len(r) > width {
		out = append(out, indent+string(r[:width]))
		r = r[width:]
	}
	return append(out, indent+string(r))
}
