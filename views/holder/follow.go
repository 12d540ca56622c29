package holder

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/core/session"
	"allot/views"
)

var (
	keyFollow   = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow"))
	keyUnfollow = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "unfollow"))
)

// followedMsg answers a follow (on) or an unfollow of id, asked by the
// screen by: every screen takes the change, only by says it on the status
// line (another tab's screen saying it would tie it to a page not on
// show).
type followedMsg struct {
	id  string
	on  bool
	err error
	by  views.Screen
}

// Event makes a follow heard by every screen (views.Event): the follows
// are the session's, not the asking screen's.
func (followedMsg) Event() {}

// setFollowed follows id or stops following it through the session's
// follows, in a command: the file is written and synced off the UI
// goroutine. Its answer goes to every screen, so that each showing
// follows shows the change at once.
func setFollowed(ctx *views.Context, by views.Screen, id string, on bool) tea.Cmd {
	f := follows(ctx)
	return func() tea.Msg { return followedMsg{id: id, on: on, err: f.Set(id, on), by: by} }
}

// followStatus says what a follow did, for the status line, when me
// asked for it.
func followStatus(me views.Screen, msg followedMsg) tea.Cmd {
	switch {
	case msg.by != me:
		return nil
	case msg.err != nil:
		return func() tea.Msg { return views.ErrorMsg{Op: "follow", Err: msg.err} }
	}
	// Whole in the status line at 80 columns; docs/live.md names the
	// commands that read the follows too.
	text := "following " + msg.id + ": its unlocks are on :upcoming"
	if !msg.on {
		text = "no longer following " + msg.id
	}
	return func() tea.Msg { return views.StatusMsg{Text: text} }
}

// follows are the allocations followed on the session's deployment
// (session.Follows), read where they are kept at each call.
func follows(ctx *views.Context) session.Follows { return ctx.Session.Follows(ctx.Journal) }
