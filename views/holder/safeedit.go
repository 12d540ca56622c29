package holder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet/safe"
)

// safeEdit is :safe add ADDR and :safe remove ADDR (docs/custody.md), as
// `allot safe add|remove` do: an added Safe is read from the chain first
// and one the canonical checks refuse is never listed, with the reason
// the CLI gives (session.SafeToAdd); a removed one is not read, so that a
// Safe that no longer reads as one can go. The profile's file is written
// (atomically, session.ListSafe) only once the user answers yes; the
// accounts page then reads its Safes again (views.SafesChanged). The
// embedded sandbox has no file to list Safes in, and says so.
type safeEdit struct {
	views.Base
	ctx    *views.Context
	addr   common.Address
	remove bool

	reqs             views.Requests
	readSeq, editSeq int
	reading, writing bool
	info             safe.Info
	// err is why the Safe cannot be listed or taken out, or why the
	// write failed; note what was done.
	err  error
	note string
	ask  *widget.Confirm
	w    int
}

// NewSafeEdit is :safe add addr, or :safe remove addr when remove.
func NewSafeEdit(ctx *views.Context, addr common.Address, remove bool) views.Screen {
	return &safeEdit{ctx: ctx, addr: addr, remove: remove}
}

// Acting: the page writes the profile's file.
func (e *safeEdit) Acting() {}

func (e *safeEdit) Title() string {
	if e.remove {
		return "Remove a Safe"
	}
	return "Add a Safe"
}

func (e *safeEdit) Mode() views.Mode {
	return views.Mode{Busy: e.reading || e.writing, Writing: e.writing, TakesKeys: e.ask != nil, OwnsEsc: e.ask != nil}
}

// safeToEdit is what is read before asking: the Safe (when added) and
// whether the profile lists it.
type safeToEdit struct {
	info   safe.Info
	listed bool
}

func (e *safeEdit) Init() tea.Cmd {
	s, addr, remove := e.ctx.Session, e.addr, e.remove
	e.readSeq, e.reading = e.reqs.Next(), true
	return views.Load(e.ctx, e.readSeq, func(c context.Context) (safeToEdit, error) {
		if !remove {
			info, listed, err := s.SafeToAdd(c, addr)
			return safeToEdit{info, listed}, err
		}
		if err := s.SafesEditable(); err != nil {
			return safeToEdit{}, err
		}
		addrs, err := s.ProfileSafes()
		return safeToEdit{listed: slices.Contains(addrs, addr)}, err
	})
}

func (e *safeEdit) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if e.ask != nil {
			return e.ask.Update(msg)
		}
		cmd, _ := e.Keys().Dispatch(msg)
		return cmd
	case widget.ConfirmMsg:
		if !e.ask.Answers(msg) {
			return nil
		}
		e.ask = nil
		if !msg.Yes {
			e.note = "Nothing was changed: you did not answer yes."
			return nil
		}
		return e.write()
	case views.Loaded[safeToEdit]:
		if msg.Seq == e.readSeq {
			e.reading = false
			e.settleRead(msg.Value, msg.Err)
		}
	case views.Loaded[struct{}]:
		if msg.Seq != e.editSeq {
			return nil
		}
		e.writing = false
		if msg.Err != nil {
			e.err = msg.Err
			return nil
		}
		e.note = e.done()
		return func() tea.Msg { return views.SafesChanged{} }
	}
	return nil
}

// settleRead asks, or says why nothing is to be done.
func (e *safeEdit) settleRead(v safeToEdit, err error) {
	s, what := e.ctx.Session, e.addr.Hex()
	var refused session.RefusedSafe
	switch {
	case errors.As(err, &refused):
		// The CLI's words: `allot safe add` says just this.
		e.err = fmt.Errorf("safe add: %w", refused)
	case err != nil:
		e.err = err
	case e.remove && !v.listed:
		e.note = fmt.Sprintf("Profile %q does not list the Safe %s (%s): nothing to take out.", s.Name, what, s.ConfigPath)
	case e.remove:
		e.info = v.info
		e.ask = e.ctx.Confirm("safe-remove", "Take the Safe out of the profile?",
			"Safe "+what, fmt.Sprintf("profile %q, file %s", s.Name, s.ConfigPath), "The Safe itself is not touched.")
	case v.listed:
		e.info = v.info
		e.note = fmt.Sprintf("Profile %q lists the Safe %s already (%s).", s.Name, what, s.ConfigPath)
	default:
		e.info = v.info
		e.ask = e.ctx.Confirm("safe-add", "List the Safe in the profile?",
			"Safe "+what, fmt.Sprintf("%s, %d of its %d owners sign", v.info.Kind, v.info.Threshold, len(v.info.Owners)),
			fmt.Sprintf("profile %q, file %s", s.Name, s.ConfigPath))
	}
	if e.ask != nil {
		e.ask.SetWidth(min(e.w, 80))
	}
}

// write lists the Safe in the profile's file, or takes it out, detached
// from the screen: a write cut off half way is no write.
func (e *safeEdit) write() tea.Cmd {
	s, addr, remove := e.ctx.Session, e.addr, e.remove
	e.editSeq, e.writing = e.reqs.Next(), true
	return views.Write(e.editSeq, func(context.Context) (struct{}, error) {
		return struct{}{}, s.ListSafe(addr, remove)
	})
}

// done is what the write did, in the CLI's words.
func (e *safeEdit) done() string {
	s, what := e.ctx.Session, e.addr.Hex()
	if e.remove {
		return fmt.Sprintf("Took the Safe %s out of profile %q (%s).", what, s.Name, s.ConfigPath)
	}
	return fmt.Sprintf("Listed the Safe %s in profile %q (%s): %s, %d of its %d owners sign. The accounts page (u) shows it.",
		what, s.Name, s.ConfigPath, e.info.Kind, e.info.Threshold, len(e.info.Owners))
}

func (e *safeEdit) SetSize(width, _ int) {
	e.w = width
	if e.ask != nil {
		e.ask.SetWidth(min(width, 80))
	}
}

func (e *safeEdit) Keys() widget.Bindings {
	if e.ask != nil {
		return e.ask.Bindings()
	}
	return nil
}

func (e *safeEdit) View() string {
	w := max(e.w, 20)
	out := []string{e.ctx.Styles.Title.Render(e.Title() + ": " + e.addr.Hex()), ""}
	switch {
	case e.reading && !e.remove:
		out = append(out, "Reading the Safe from the chain…")
	case e.writing:
		out = append(out, "Writing the profile's file…")
	case e.err != nil:
		out = append(out, wordWrap("✗ "+sanitize.Line(e.err.Error()), w)...)
	case e.note != "":
		out = append(out, wordWrap(sanitize.Line(e.note), w)...)
	}
	if e.ask != nil {
		out = append(out, e.ask.View())
	}
	return strings.Join(out, "\n")
}
