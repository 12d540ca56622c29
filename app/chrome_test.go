package app

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/views"
	"allot/views/widget"
)

// page is a page of the dashboard with a title and nothing else, to try
// the breadcrumb with.
type page struct {
	views.Base
	title string
}

func (p page) Title() string          { return p.title }
func (p page) Update(tea.Msg) tea.Cmd { return nil }
func (p page) View() string           { return p.title }
func (p page) SetSize(int, int)       {}
func (p page) Keys() widget.Bindings  { return nil }

// lines are the view's lines, without styles.
func lines(m *Model) []string { return strings.Split(ansi.Strip(m.View()), "\n") }

// TestHeaderCountdownsFit: at 80 columns, with an account unlocked and a
// portal session, the header shows both countdowns whole.
func TestHeaderCountdownsFit(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: FullWidth, Height: FullHeight})
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
	m := f.quit()
	// What may follow the countdown blank (a spinner's frame while a
	// load runs, under load) is no cut: the countdown must be whole.
	header := strings.TrimRight(lines(m)[0], " ")
	if !regexp.MustCompile(`SANDBOX.*unlocked \d+:\d\d · portal \d+:\d\d$`).MatchString(header) {
		t.Errorf("the header lacks SANDBOX or a whole countdown: %q", header)
	}
}

// TestBreadcrumbKeepsTheCurrentPage: the breadcrumb is never cut to "…"
// while there is room for the page on show; the pages before it give way
// from the left.
func TestBreadcrumbKeepsTheCurrentPage(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: FullWidth, Height: FullHeight})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	for _, c := range []struct{ open, want string }{
		{"Whale pool", "Pools › Whale pool"},
		{"Details", "Pools › Whale pool › Details"},
		{"Stake in Season 8 · 180-day Lock, a long title", "… › Stake in Season 8 · 180-day Lock, a long title"},
	} {
		m.Update(views.NavigateMsg{Screen: page{title: c.open}})
		tabs := lines(m)[1]
		if !strings.HasSuffix(tabs, c.want) || !strings.Contains(tabs, "[2 Pools]") {
			t.Errorf("after %q, tabs %q: want the active tab and %q at the end", c.open, tabs, c.want)
		}
	}
}

// TestFooterKeepsTheScreensActions: on Contracts at 80 columns the footer
// names every action of the screen (F fund among them) and the help key;
// the global keys make room first.
func TestFooterKeepsTheScreensActions(t *testing.T) {
	t.Parallel()
	view := drive(t, shared.Session(t), FullWidth, FullHeight, step{want: "Team & Advisors Vesting"})
	lines := strings.Split(ansi.Strip(view), "\n")
	footer := lines[len(lines)-1]
	for _, want := range []string{"I initialize", "D start", "F fund", "? help"} {
		if !strings.Contains(footer, want) {
			t.Errorf("the footer lacks %q: %q", want, footer)
		}
	}
}

func TestTrail(t *testing.T) {
	t.Parallel()
	crumbs := []string{"Pools", "Whale pool", "Details"}
	for _, c := range []struct {
		width int
		want  string
	}{
		{40, "Pools › Whale pool › Details"},
		{27, "… › Whale pool › Details"},
		{23, "… › Details"},
		{10, "Details"},
		{5, "Deta…"},
	} {
		if got := trail(crumbs, c.width); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

// TestCompactLayout: from 80x24 down to 60x20 the dashboard draws one top
// line, no detail pane, and a footer that still names the screen's
// actions and help; the countdowns stay whole in the top line.
func TestCompactLayout(t *testing.T) {
	t.Parallel()
	f := newFlow(t)
	f.send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight}).wait("1 Contracts │")
	m := f.m
	view := lines(m)
	if len(view) != MinHeight || !strings.HasPrefix(view[0], "1 Contracts │") || !strings.Contains(view[0], "SANDBOX") {
		t.Fatalf("the top line is not one line with the tab and SANDBOX:\n%s", strings.Join(view, "\n"))
	}
	if strings.Contains(strings.Join(view, "\n"), "ID       14f74a96") {
		t.Errorf("a detail pane is drawn in the compact layout:\n%s", strings.Join(view, "\n"))
	}
	footer := view[len(view)-1]
	for _, want := range []string{"I initialize", "D start", "F fund", "? help"} {
		if !strings.Contains(footer, want) {
			t.Errorf("the footer lacks %q: %q", want, footer)
		}
	}
	f.unlock()
	f.runes("6").runes("s").wait("Sign this message").key(tea.KeyEnd).runes("y").wait("Signed in as")
	f.runes("1").runes("d").wait("ID")
	m = f.quit()
	view = lines(m)
	// A load still running (the portal's, after the sign-in) adds its
	// spinner after the countdowns.
	if !regexp.MustCompile(`› Details │ .*SANDBOX.*unlocked \d+:\d\d · portal \d+:\d\d( │ \S)?$`).MatchString(view[0]) {
		t.Errorf("the top line lacks the page, SANDBOX or a whole countdown: %q", view[0])
	}
	if !strings.Contains(strings.Join(view, "\n"), "14f74a96-09be-51d7-9a23-06d5c91a3733") {
		t.Errorf("d does not open the row's details:\n%s", strings.Join(view, "\n"))
	}
}

// TestNamesShowWhole: names get the width their cells need before an
// address grows: on Contracts and Pools at 80, 100, 120 and 200 columns
// the names are whole, and from 100 columns Contracts shows Created.
func TestNamesShowWhole(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 100, 120, 200} {
		contracts := drive(t, shared.Session(t), w, 30, step{want: "Team & Advisors Vesting"})
		wants := []string{"Team & Advisors Vesting", "Seed & Strategic Vesting"}
		if w >= 100 {
			wants = append(wants, "Created")
		}
		for _, want := range wants {
			if !strings.Contains(contracts, want) {
				t.Errorf("at %d columns Contracts lacks %q:\n%s", w, want, contracts)
			}
		}
		pools := drive(t, shared.Session(t), w, 30, step{keys: "2", want: "Whale pool"})
		if !strings.Contains(pools, "Season 8 · 180-day Flex") {
			t.Errorf("at %d columns Pools cuts a name:\n%s", w, pools)
		}
	}
}

// TestErrorStaysWithItsPage: an error on the status line is about the page
// it came on: another tab or a page opened on top does not show it as its
// own, E still details it, and the page it came on shows it again.
func TestErrorStaysWithItsPage(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(views.ErrorMsg{Op: "load contracts", Err: errors.New("boom")})
	shows := func() bool { return strings.Contains(ansi.Strip(m.View()), "✗ load contracts: boom") }
	if !shows() {
		t.Fatalf("the error is not on its page:\n%s", m.View())
	}
	m.Update(runes("2"))
	if shows() {
		t.Fatalf("the Contracts tab's error shows on the Pools tab:\n%s", m.View())
	}
	m.Update(runes("E"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Error details") || !strings.Contains(v, "boom") {
		t.Fatalf("E does not detail the error on another tab:\n%s", v)
	}
	m.Update(runes("E"))
	m.Update(runes("1"))
	if !shows() {
		t.Fatalf("back on its page, the error is gone:\n%s", m.View())
	}
	m.Update(views.NavigateMsg{Screen: page{title: "Detail"}})
	if shows() {
		t.Fatalf("the error shows on a page opened on top:\n%s", m.View())
	}

	// A warning a background tab's load sent is that tab's.
	pools := m.stacks[tabPools][0]
	m.Update(tag(pools, func() tea.Msg { return widget.StatusMsg{Text: "Pools: half read", Error: true} })())
	if v := ansi.Strip(m.View()); strings.Contains(v, "half read") {
		t.Fatalf("the Pools tab's warning shows on Contracts:\n%s", v)
	}
	m.Update(runes("2"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "✗ Pools: half read") {
		t.Fatalf("the Pools tab does not show its warning:\n%s", v)
	}
}

// keyed is a page with keys of its own.
type keyed struct {
	page
	keys []key.Binding
}

func (k keyed) Keys() widget.Bindings { return widget.Described(k.keys...).InFooter() }

// TestCompactFooterReadsWell: where the screen's keys do not fit, their
// descriptions lose their small words, not all but the first: "/ i type id",
// never "/ i type" or "enter look".
func TestCompactFooterReadsWell(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	m.Update(views.NavigateMsg{Screen: keyed{page{title: "Lookup"}, []key.Binding{
		key.NewBinding(key.WithKeys("/"), key.WithHelp("/ i", "type an id")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("↑/↓ enter", "look one up")),
		key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new lookup")),
	}}})
	v := lines(m)
	footer := v[len(v)-1]
	if !strings.HasPrefix(footer, "/ i type id • ↑/↓ enter look up • n new lookup • ? help") {
		t.Errorf("footer at %dx%d: %q", MinWidth, MinHeight, footer)
	}
}

// TestCompactTopLineNamesTheToken: below 80x24 the top line names the
// token as the full header does where it fits, its symbol where not.
func TestCompactTopLineNamesTheToken(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	if top := lines(m)[0]; !strings.Contains(top, "token Meridian (MRD)") || !strings.Contains(top, "SANDBOX") {
		t.Errorf("top line at %dx%d: %q", MinWidth, MinHeight, top)
	}
	m.Update(views.NavigateMsg{Screen: page{title: "Stakes of the Whale pool, newest first"}})
	if top := lines(m)[0]; !strings.Contains(top, "MRD") || strings.Contains(top, "Meridian") || !strings.Contains(top, "SANDBOX") {
		t.Errorf("top line with a long page at %dx%d: %q", MinWidth, MinHeight, top)
	}
}
