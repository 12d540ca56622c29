package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
)

// busyPage is a page that owns esc and answers it with nothing, as a page
// whose write is on its way does.
type busyPage struct{ page }

func (busyPage) Mode() views.Mode { return views.Mode{Busy: true, OwnsEsc: true} }

// TestFooterOffersNoBackWhileThePageOwnsEsc: while a page owns esc (a
// write on its way, whose page stays until the answer comes), the footer
// does not offer "esc back": esc does not go back there. On a page that
// does not own esc it does.
func TestFooterOffersNoBackWhileThePageOwnsEsc(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: FullWidth, Height: FullHeight})
	m.Update(views.NavigateMsg{Screen: page{title: "Idle"}})
	if footer := m.footer(); !strings.Contains(footer, "back") {
		t.Errorf("an idle page's footer lacks esc back: %q", footer)
	}
	m.Update(views.NavigateMsg{Screen: busyPage{page{title: "Sending"}}})
	if footer := m.footer(); strings.Contains(footer, "back") {
		t.Errorf("the footer offers esc back on a page that owns esc: %q", footer)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if got := m.top().Title(); got != "Sending" {
		t.Errorf("esc closed the page that owns it: on show %q", got)
	}
}
