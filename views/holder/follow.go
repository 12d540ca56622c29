package holder

import (
	"errors"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

var (
	keyFollow   = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow"))
	keyUnfollow = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "unfollow"))
)

// followedMsg answers a follow (on) or an unfollow of id.
type followedMsg struct {
	id  string
	on  bool
	err error
}

// errNoJournal: follows live beside the journal, which could not open.
var errNoJournal = errors.New("the state directory is unusable: nothing can be followed")

// setFollowed follows id or stops following it, in a command: the file
// is written and synced off the UI goroutine.
func setFollowed(ctx *views.Context, id string, on bool) tea.Cmd {
	j, d := ctx.Journal, ctx.Session.Deployment()
	return func() tea.Msg {
		if j == nil {
			return followedMsg{id: id, on: on, err: errNoJournal}
		}
		return followedMsg{id: id, on: on, err: j.SetFollowed(d, id, on)}
	}
}

// followStatus says what a follow did, for the status line.
func followStatus(msg followedMsg) tea.Cmd {
	if msg.err != nil {
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

// followed are the allocations the user follows on the session's
// deployment: the profile's allocations, then those followed from the
// dashboard, each once; err says why the latter could not be read.
func followed(ctx *views.Context) (ids []string, err error) {
	ids = slices.Clone(ctx.Session.Profile.Allocations)
	more, err := ctx.Journal.Followed(ctx.Session.Deployment())
	for _, id := range more {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, err
}

// inProfile reports whether the profile lists id: only an edit of the
// configuration stops following it.
func inProfile(ctx *views.Context, id string) bool {
	return slices.Contains(ctx.Session.Profile.Allocations, id)
}
