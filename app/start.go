package app

// The start: the dashboard's first frame is drawn at once, and the session
// opens behind it. The embedded sandbox takes a few hundred milliseconds to
// start (its chain and its seed); a terminal that stays blank that long
// reads as a hang.

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/internal/sanitize"
	"allot/views/widget"
)

// Run shows the dashboard on the terminal until the user quits, on the
// session open opens, and closes it; sw opens the configuration's other
// profiles (:profile). A session that could not be opened is shown, and
// returned once the user has quit.
func Run(ctx context.Context, open session.Opener, sw session.Switch) error {
	applyTheme(open.Theme)
	st := startOpening(open, Options{Switch: sw})
	err := run(ctx, st, open.StateDir, tea.WithAltScreen())
	if openErr := st.close(); err == nil {
		err = openErr
	}
	return err
}

// close waits for the opening to end (a quit while the session opened
// leaves it opening) and closes the sessions: the embedded sandbox removes
// its files on Close. It returns why the session could not be opened, if
// it could not.
func (st *start) close() error {
	<-st.done
	if st.dash != nil {
		// Whatever way the program ended (a crash, a signal), the
		// screens' work ends with it.
		st.dash.ctx.End()
		// The sessions switched away from are closing; the one on show
		// is closed here.
		st.dash.closing.Wait()
		st.dash.ctx.Session.Close()
	}
	if st.s != nil {
		st.s.Close()
	}
	return st.err
}

// start is the root model until the session is open: the chrome without
// a screen, saying what is starting. Once the session is open, the
// dashboard takes its place.
type start struct {
	open session.Opener
	opts Options
	keys keyMap
	help help.Model
	spin spinner.Model

	// done is closed when the opening has ended, with s or err.
	done chan struct{}
	s    *session.Session
	err  error

	failed        bool   // err is on show
	dash          *Model // the dashboard that took over, if any
	width, height int
}

// startOpening starts opening the session at once, before the program
// has the terminal, and returns the model that waits for it.
func startOpening(open session.Opener, opts Options) *start {
	st := &start{
		open: open,
		opts: opts,
		keys: defaultKeys(),
		help: newHelp(),
		spin: spinner.New(spinner.WithSpinner(spinner.MiniDot)),
		done: make(chan struct{}),
	}
	go func() {
		defer close(st.done)
		st.s, st.err = open.Open()
	}()
	return st
}

// openedMsg says the opening has ended.
type openedMsg struct{}

func (st *start) Init() tea.Cmd {
	return tea.Batch(st.spin.Tick, func() tea.Msg {
		<-st.done
		return openedMsg{}
	})
}

func (st *start) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		if st.err != nil {
			st.failed = true
			return st, nil
		}
		st.dash = New(st.s, st.opts)
		var size tea.Cmd
		if st.width > 0 {
			_, size = st.dash.Update(tea.WindowSizeMsg{Width: st.width, Height: st.height})
		}
		return st.dash, tea.Batch(size, st.dash.Init())
	case tea.WindowSizeMsg:
		st.width, st.height = msg.Width, msg.Height
		st.help.Width = msg.Width
	case spinner.TickMsg:
		if st.failed {
			return st, nil
		}
		var cmd tea.Cmd
		st.spin, cmd = st.spin.Update(msg)
		return st, cmd
	case tea.KeyMsg:
		cmd, _ := st.bindings().Dispatch(msg)
		return st, cmd
	}
	return st, nil
}

// bindings are the keys before the dashboard opens, which Update
// dispatches and the footer lists: q quits at once, since nothing runs
// that a quit could lose (the session is not open).
func (st *start) bindings() widget.Bindings {
	return widget.Bindings{{Key: st.keys.Quit, Short: true, Run: func() tea.Cmd { return tea.Quit }}}
}

// what names what is opening.
func (st *start) what() string {
	if st.open.Sandbox {
		return "the embedded sandbox"
	}
	return "profile " + sanitize.Line(st.open.Name)
}

func (st *start) View() string {
	switch {
	case st.width == 0:
		return ""
	case st.width < MinWidth || st.height < MinHeight:
		view, _ := tooSmallNotice(st.width, st.height, false)
		return view
	}
	body := st.spin.View() + " opening " + st.what() + "…"
	if st.open.Sandbox {
		body = st.spin.View() + " starting " + st.what() + "…"
	}
	if st.failed {
		body = widget.Page("✗ "+sanitize.Block(st.err.Error()), st.width, 0)
	}
	parts := make([]forms, partBusy+1)
	styles := widget.DefaultStyles() // the dashboard's, before it has a context
	parts[partBrand] = forms{styles.Brand.Render("allot"), ""}
	parts[partProfile], parts[partBadge] = profileParts(styles, st.open.Name, st.open.Sandbox, st.open.ReadOnly)
	top := []string{shrink(parts, headerSteps, partProfile, " │ ", st.width), widget.Fit(tabLabels(styles, tabContracts, tabsSpaced), st.width, 1)}
	if st.width < FullWidth || st.height < FullHeight {
		parts[partBrand] = nil
		top = []string{shrink(parts, headerSteps, partProfile, " │ ", st.width)}
	}
	h := st.height - len(top) - 2
	return strings.Join(append(top, widget.Fit(body, st.width, h), "", widget.Fit(st.help.ShortHelpView(st.bindings().ShortHelp()), st.width, 1)), "\n")
}
