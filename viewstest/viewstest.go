// Package viewstest drives the screens in tests: contexts on the embedded
// sandbox, keys by name, and a driver that runs what a screen returns.
package viewstest

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	"allot/core/embedded"
	"allot/core/embedded/embeddedtest"
	"allot/core/journal"
	"allot/core/session"
	"allot/views"
	"allot/views/widget"
)

// namedKeys are the keys tests press by name; any other name is typed.
var namedKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "backspace": tea.KeyBackspace,
	"ctrl+s": tea.KeyCtrlS, "ctrl+n": tea.KeyCtrlN, "ctrl+d": tea.KeyCtrlD, "ctrl+r": tea.KeyCtrlR,
	"ctrl+u": tea.KeyCtrlU, "ctrl+e": tea.KeyCtrlE,
}

// Key is the key called name ("enter", "ctrl+s"), or name typed.
func Key(name string) tea.KeyMsg {
	if t, ok := namedKeys[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// Sandbox is a context, without a journal, on the embedded sandbox the
// package's tests share, for a test that only reads: it fails if it
// writes (embeddedtest.ReadOnly). A package whose tests use it runs them
// with Main.
func Sandbox(t *testing.T) *views.Context {
	t.Helper()
	s := shared.Session(t)
	return &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0]}
}

// shared is the sandbox Sandbox's contexts share, one per test binary.
var shared = embeddedtest.NewShared(sandbox.Options{})

// Main runs a package's tests, then stops the sandbox they shared: the
// package's TestMain.
func Main(m *testing.M) {
	code := m.Run()
	shared.Close()
	os.Exit(code)
}

// Unlock unlocks demo wallet n of ctx's sandbox in its wallet (a new one
// when it has none), as u and the passphrase do, and returns its address.
func Unlock(t *testing.T, ctx *views.Context, n int) common.Address {
	t.Helper()
	if ctx.Wallet == nil {
		ctx.Wallet = &session.Wallet{}
	}
	w := ctx.Session.Fixtures.Wallets[n]
	store, err := ctx.Wallet.Store(ctx.Session)
	if err != nil {
		t.Fatal(err)
	}
	addr := common.HexToAddress(w.Address)
	if err := store.Unlock(addr, w.Passphrase); err != nil {
		t.Fatal(err)
	}
	ctx.Wallet.Unlocked(addr)
	return addr
}

// Now is the pinned clock of the screen tests.
var Now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Journaled opens the embedded sandbox and a journal for a screen test.
func Journaled(t *testing.T, opts sandbox.Options) *views.Context {
	t.Helper()
	s, err := embedded.Sandbox(opts, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &views.Context{
		Session: s, Now: func() time.Time { return Now }, Styles: widget.DefaultStyles(),
		Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0],
		Journal: j, Recorder: s.Recorder(j),
	}
}

// Driver feeds a screen keys and runs the commands it returns: their
// answers (a request's, a cursor blink) are fed back when Until waits for
// them, never sooner. Cursor blinks are dropped;
// what the app would handle (back, status, errors) is kept in Got.
//
// A driver made by NewSyncDriver waits instead for every command to end
// before Run returns, so a test reads the screen right after a key.
type Driver struct {
	T     *testing.T
	S     views.Screen
	async chan tea.Msg
	Got   []tea.Msg
	// sync: Run waits for every command; spinner ticks are dropped (each
	// asks for the next, so waiting for them would never end).
	sync bool
	// patience, if set, is how long a sync driver waits for a command
	// before dropping it (DropWaiting).
	patience time.Duration
	noInit   bool
}

// An Option changes how a driver runs its screen.
type Option func(*Driver)

// DropWaiting makes a sync driver drop a command that waits for more than
// half a second instead of failing the test: one that answers only when
// something changes (the request log's change feed) or after a while (a
// poll's timer), which a test that reloads the screen itself never needs.
func DropWaiting(d *Driver) { d.patience = 500 * time.Millisecond }

// NoInit leaves the screen's Init to the test (d.Run(s.Init())), for one
// that sends the screen something before its first rows arrive.
func NoInit(d *Driver) { d.noInit = true }

// NewDriver sizes s to w x h and runs its Init.
func NewDriver(t *testing.T, s views.Screen, w, h int, opts ...Option) *Driver {
	return start(&Driver{T: t, S: s, async: make(chan tea.Msg, 4096)}, w, h, opts)
}

// NewSyncDriver is NewDriver for a screen whose commands all end (none
// follows a feed, unless DropWaiting): Run waits for each, its answers and
// theirs. A form's cursor must not blink (widget.Form.SetCursorMode), or
// every focus change waits out a blink.
func NewSyncDriver(t *testing.T, s views.Screen, w, h int, opts ...Option) *Driver {
	return start(&Driver{T: t, S: s, async: make(chan tea.Msg, 4096), sync: true}, w, h, opts)
}

func start(d *Driver, w, h int, opts []Option) *Driver {
	for _, o := range opts {
		o(d)
	}
	d.S.SetSize(w, h)
	if !d.noInit {
		d.Run(d.S.Init())
	}
	return d
}

// Run runs cmd; its answer is fed back by Until, however soon it comes,
// so what a test sees never depends on the machine's speed. A sync driver
// waits for it.
func (d *Driver) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if !d.sync {
		go func() { d.async <- cmd() }()
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	d.handle(d.wait(ch))
}

// wait is the answer on ch; a command that runs for a minute fails the
// test, or, with DropWaiting, one that waits longer than that is dropped.
func (d *Driver) wait(ch <-chan tea.Msg) tea.Msg {
	d.T.Helper()
	limit := time.Minute
	if d.patience > 0 {
		limit = d.patience
	}
	select {
	case msg := <-ch:
		return msg
	case <-time.After(limit):
		if d.patience > 0 {
			return nil
		}
		d.T.Fatalf("a command ran for a minute; view:\n%s", d.S.View())
		return nil
	}
}

// runBatch runs a batch's commands; a sync driver runs them at once, as
// the program would, and feeds their answers back in the batch's order.
func (d *Driver) runBatch(cmds tea.BatchMsg) {
	if !d.sync {
		for _, c := range cmds {
			d.Run(c)
		}
		return
	}
	answers := make([]chan tea.Msg, len(cmds))
	for i, c := range cmds {
		if c != nil {
			answers[i] = make(chan tea.Msg, 1)
			go func() { answers[i] <- c() }()
		}
	}
	for _, ch := range answers {
		if ch != nil {
			d.handle(d.wait(ch))
		}
	}
}

func (d *Driver) handle(msg tea.Msg) {
	if cmds, ok := sequenced(msg); ok {
		// In order, each answer handled before the next runs, as the
		// program does.
		for _, c := range cmds {
			if c != nil {
				ch := make(chan tea.Msg, 1)
				go func() { ch <- c() }()
				d.handle(d.wait(ch))
			}
		}
		return
	}
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		d.runBatch(m)
	case views.Addressed:
		// As the dashboard does: the screen's own, opened; another's (a
		// page the screen opened) reaches no one here.
		if m.To == d.S {
			d.handle(m.Msg)
		}
	case views.BackMsg, views.StatusMsg, views.ErrorMsg, views.NavigateMsg:
		d.Got = append(d.Got, msg)
	case spinner.TickMsg:
		if !d.sync {
			d.Run(d.S.Update(msg))
		}
	default:
		if strings.HasPrefix(fmt.Sprintf("%T", msg), "cursor.") {
			return
		}
		d.Run(d.S.Update(msg))
	}
}

// Until feeds slow answers back until cond holds.
func (d *Driver) Until(what string, cond func() bool) {
	d.T.Helper()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case msg := <-d.async:
			d.handle(msg)
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			d.T.Fatalf("timed out waiting for %s; view:\n%s", what, d.S.View())
		}
	}
}

// Key sends the screen k and runs what it returns.
func (d *Driver) Key(k tea.KeyMsg) { d.Run(d.S.Update(k)) }

// Keys sends the keys called names, one by one.
func (d *Driver) Keys(names ...string) {
	for _, n := range names {
		d.Key(Key(n))
	}
}

// Paste sends s as one key of many runes, as a terminal delivers pasted
// text: a field takes it whole, and no key binding matches it.
func (d *Driver) Paste(s string) {
	d.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true})
}

// Type types s, a key a rune.
func (d *Driver) Type(s string) {
	for _, r := range s {
		d.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// ErrUnder is the error line drawn under the field labelled label, or "".
func ErrUnder(view, label string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		if strings.Contains(l, label) && i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "✗") {
			return strings.TrimSpace(lines[i+1])
		}
	}
	return ""
}

// Writes are the journal's request entries.
func Writes(t *testing.T, j *journal.Journal) []journal.Entry {
	t.Helper()
	res, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	var out []journal.Entry
	for _, e := range res.Entries {
		if e.Kind == journal.KindRequest {
			out = append(out, e)
		}
	}
	return out
}

// sequenced is the commands of a tea.Sequence's message, whose type
// bubbletea does not export: a list of commands that is not a batch.
func sequenced(msg tea.Msg) ([]tea.Cmd, bool) {
	if _, batch := msg.(tea.BatchMsg); batch || msg == nil {
		return nil, false
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}
