package app

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/session"
	"allot/views"
	"allot/views/widget"
)

// clock is the fixed time of every screen test: the sandbox lays its data
// out around it and the screens show times relative to it.
var clock = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

func newModel(s *session.Session) *Model {
	return New(s, Options{Now: func() time.Time { return clock }, Clipboard: widget.Clipboard{Out: io.Discard}})
}

// drive starts the dashboard at w x h, runs steps, and returns the final
// view once the last step's text is on screen.
type step struct {
	keys string // typed as runes; "\r" is enter
	key  tea.KeyType
	want string // wait for this text before the next step
}

func drive(t *testing.T, s *session.Session, w, h int, steps ...step) string {
	t.Helper()
	tm := teatest.NewTestModel(t, unfaded{probed{newModel(s)}}, teatest.WithInitialTermSize(w, h))
	for _, st := range steps {
		switch {
		case st.key != 0:
			tm.Send(tea.KeyMsg{Type: st.key})
		case st.keys != "":
			tm.Type(st.keys)
		}
		if st.want != "" {
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(st.want)) },
				teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
		}
	}
	// The model's own view once nothing runs: no spinner turning, no
	// answer still on its way.
	view := settle(t, tm).view
	final(t, tm)
	checkFits(t, view, w, h)
	return view
}

// unfaded is the dashboard with its informational status line kept: the
// view drive returns is the screen as the steps leave it, however long a
// loaded machine takes to get there, while the line's fade (statusLife)
// runs on the wall clock.
type unfaded struct{ probed }

func (u unfaded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(clearStatus); ok {
		return u, nil
	}
	_, cmd := u.probed.Update(msg)
	return u, cmd
}

func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("view has %d lines, terminal %d", len(lines), h)
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("line %d is %d cells wide, terminal %d: %q", i, lipgloss.Width(l), w, l)
		}
	}
}

// volatile masks what changes from run to run on the Requests screen:
// wall-clock times and durations.
var volatile = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2}\b| *\b\d+(\.\d+)?(ms|µs|s)\b`)

func golden(t *testing.T, view string) {
	t.Helper()
	teatest.RequireEqualOutput(t, []byte(volatile.ReplaceAllString(view, "~")))
}

// TestScreens takes each golden once its text shows and nothing runs
// (settle), so they run side by side.
func TestScreens(t *testing.T) {
	t.Parallel()
	fx := shared.Session(t).Fixtures
	screens := []struct {
		name  string
		steps []step
	}{
		{"contracts", []step{{want: "Team & Advisors Vesting"}}},
		{"pools", []step{{keys: "2", want: "Whale pool"}}},
		{"stakes", []step{{keys: ":stakes " + fx.BigPoolID}, {key: tea.KeyEnter, want: "100,000 stakes ·"}}},
		{"stakes-histogram", []step{{keys: ":stakes " + fx.BigPoolID}, {key: tea.KeyEnter, want: "100,000 stakes ·"}, {keys: "h", want: "Stake sizes"}}},
		{"allocation-start", []step{{keys: "3", want: "Demo allocations of the embedded sandbox"}}},
		{"allocation", []step{{keys: "3", want: "Allocation:"}, {keys: "/"}, {keys: fx.AllocationIDs[0]}, {key: tea.KeyEnter, want: ": PASS"}}}, // the verdict's status line, sent after the screen is drawn
		{"transactions", []step{{keys: "4", want: "No transactions yet"}}},
		{"help", []step{{keys: "?", want: "or esc to close"}}},
	}
	for _, size := range []struct{ w, h int }{{60, 20}, {80, 24}, {120, 36}, {200, 60}} {
		for _, sc := range screens {
			t.Run(sc.name+"-"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				t.Parallel()
				golden(t, drive(t, shared.Session(t), size.w, size.h, sc.steps...))
			})
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRequestInspector checks the inspector's content rather than a golden:
// the contracts and pools requests run concurrently, so their order varies.
func TestRequestInspector(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{120, 36}, {80, 24}} {
		view := drive(t, shared.Session(t), size.w, size.h, step{want: "Team & Advisors"}, step{keys: "5", want: "staking/pools"}, step{keys: "G"})
		wants := []string{"POST", "contracts", "staking/pools", "200", "c copy as curl"}
		if size.h >= 36 { // below that the headers are under the detail pane's fold
			wants = append(wants, "Request headers", "REDACTED")
		}
		for _, want := range wants {
			if !strings.Contains(view, want) {
				t.Errorf("%dx%d: the inspector lacks %q:\n%s", size.w, size.h, want, view)
			}
		}
		if strings.Contains(view, shared.Session(t).Fixtures.APIKey) {
			t.Error("the API key is on screen")
		}
	}
}

func TestTooSmall(t *testing.T) {
	t.Parallel()
	view := drive(t, shared.Session(t), MinWidth-1, MinHeight, step{want: "too small"})
	if !strings.Contains(view, "too small") || !strings.Contains(view, "60x20") {
		t.Errorf("view:\n%s", view)
	}
}

func TestEscapeClearsFilterBeforeClosingPage(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	view := drive(t, s, 120, 36,
		step{keys: ":stakes " + s.Fixtures.BigPoolID}, step{key: tea.KeyEnter, want: "100,000 stakes ·"},
		step{keys: "/" + s.Fixtures.Wallets[1].Address, want: "asked the service"},
		step{key: tea.KeyEnter}, step{key: tea.KeyEsc, want: "100,000 stakes ·"})
	if !strings.Contains(view, "Pools › Whale pool") {
		t.Errorf("esc closed the page instead of clearing the filter:\n%s", view)
	}
}

// TestHostileServerStrings runs the dashboard against a service whose
// names carry terminal escape sequences: they must reach the screen inert.
func TestHostileServerStrings(t *testing.T) {
	t.Parallel()
	evil := "Evil\x1b]52;c;ZXZpbA==\x07pool\x1b[2J\x1b[31m"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/contracts"):
			io.WriteString(w, `{"isProcessed":true,"result":{"items":[{"id":"c1","name":"`+jsonEscape(evil)+`","type":"VESTING","address":"0x`+strings.Repeat("1", 40)+`","balance":"1","createdAt":"2026-01-01T00:00:00.000Z"}],"total":1}}`)
		default:
			io.WriteString(w, `{"isProcessed":true,"result":{"items":[],"total":0}}`)
		}
	}))
	defer srv.Close()
	client, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{Name: "hostile", API: client, TokenIDs: []string{"7c9e6679-7425-40de-944b-e07fc1f90ae7"},
		Requests: session.NewRequestLog(), StateDir: t.TempDir(), Now: func() time.Time { return clock }}
	view := drive(t, s, 120, 36, step{want: "Evil"})
	if strings.ContainsRune(view, 0x1b) || strings.ContainsRune(view, 0x07) {
		t.Errorf("an escape sequence reached the screen: %q", view)
	}
	if !strings.Contains(view, "Evil^[]52;c;ZXZpbA==^Gpool") {
		t.Errorf("the name is not shown inert:\n%s", view)
	}
}

func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 {
			b.WriteString(`\u00` + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&15]))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// BenchmarkFirstFrame measures start-up on the embedded sandbox as Run
// does it: to the first frame (the chrome, the sandbox starting) and to the
// first frame with data (the sandbox's chain and seed, the session, the
// contracts' request and its render). The other tabs' loads are left out.
// It reports the medians in ms; -v logs min/median/max.
func BenchmarkFirstFrame(b *testing.B) {
	var first, data []float64
	for b.Loop() {
		start := time.Now()
		st := startOpening(session.Opener{Name: session.SandboxProfile, Sandbox: true, Open: func() (*session.Session, error) {
			return embedded.Sandbox(sandbox.Options{KeystoreDir: b.TempDir()}, b.TempDir())
		}}, Options{Clipboard: widget.Clipboard{Out: io.Discard}})
		st.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
		if !strings.Contains(st.View(), "starting the embedded sandbox") {
			b.Fatal("no first frame")
		}
		first = append(first, ms(time.Since(start)))
		<-st.done
		root, _ := st.Update(openedMsg{})
		m, ok := root.(*Model)
		if !ok {
			b.Fatalf("the session did not open: %v", st.err)
		}
		msgs := []tea.Cmd{m.stacks[tabContracts][0].Init()}
		for len(msgs) > 0 {
			cmd := msgs[0]
			msgs = msgs[1:]
			if cmd == nil {
				continue
			}
			msg := cmd()
			if batch, ok := msg.(tea.BatchMsg); ok {
				msgs = append(msgs, batch...)
				continue
			}
			_, next := m.Update(msg)
			msgs = append(msgs, next)
			if strings.Contains(m.View(), "Team & Advisors Vesting") {
				break
			}
		}
		if !strings.Contains(m.View(), "Team & Advisors Vesting") {
			b.Fatal("no data in the first frame")
		}
		data = append(data, ms(time.Since(start)))
		st.close()
	}
	b.ReportMetric(spread(b, "first frame", first), "first-frame-ms")
	b.ReportMetric(spread(b, "contracts drawn", data), "data-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// spread logs the min, median and max of xs and returns the median.
func spread(b *testing.B, what string, xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	med := xs[len(xs)/2]
	b.Logf("%s: min %.1f ms, median %.1f ms, max %.1f ms over %d starts", what, xs[0], med, xs[len(xs)-1], len(xs))
	return med
}

// TestFooterKeepsKeysWhole: when a screen's keys do not all fit, the
// footer shows the first ones whole and an ellipsis, never half a binding.
func TestFooterKeepsKeysWhole(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	bindings := []key.Binding{
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "first")),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "second")),
		key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "third")),
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{40, "a first • b second • c third"},
		{28, "a first • b second • c third"},
		{27, "a first • b second …"},
		{20, "a first • b second …"},
		{19, "a first …"},
		{8, ""},
	} {
		line, _ := m.wholeKeys(bindings, c.width)
		got := ansi.Strip(line)
		if got != c.want || lipgloss.Width(got) > c.width {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

// TestErrorDetailsFollowTheLastError: the details shown with E are always
// those of the last error: a newer one replaces them, and a status that
// clears the error (after a key) closes them.
func TestErrorDetailsFollowTheLastError(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(views.ErrorMsg{Op: "load pools", Err: errors.New("first failure")})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("E")})
	if v := m.View(); !strings.Contains(v, "Error details") || !strings.Contains(v, "first failure") {
		t.Fatalf("E does not show the error:\n%s", v)
	}
	m.Update(views.ErrorMsg{Op: "load stakes", Err: errors.New("second failure")})
	if v := m.View(); !strings.Contains(v, "second failure") || strings.Contains(v, "first failure") {
		t.Fatalf("the details do not follow the newer error:\n%s", v)
	}
	// A key first (c, say): news alone leaves the error of the last key.
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	m.Update(widget.StatusMsg{Text: "copied"})
	if v := m.View(); strings.Contains(v, "Error details") {
		t.Fatalf("the details stay open with no error to show:\n%s", v)
	}
}
