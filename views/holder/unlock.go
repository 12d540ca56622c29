package holder

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
	"allot/wallet/keystore"
)

// unlock chooses an account of the keystore and unlocks it with its
// passphrase, typed masked; the decryption (scrypt) runs off the UI
// goroutine.
type unlock struct {
	ctx      *views.Context
	accounts []keystore.Account
	problems []keystore.FileError
	dir      string
	cursor   int
	pass     textinput.Model
	reqs     views.Requests
	seq      int
	busy     bool
	loaded   bool
	err      error
	keys     unlockKeys
	// safes are the profile's Safes, listed under the keystore's
	// accounts (safes.go).
	safes *safesPane

	width, height int
}

type unlockKeys struct {
	Up, Down, Choose, Lock key.Binding
	// ClaimAll opens the claim-all page of the wallet or Safe selected.
	ClaimAll key.Binding
	// Submit and Cancel answer while the passphrase is typed.
	Submit, Cancel key.Binding
}

// NewUnlock is the screen that unlocks a keystore account.
func NewUnlock(ctx *views.Context) views.Screen {
	in := textinput.New()
	in.Prompt = "Passphrase: "
	in.EchoMode = textinput.EchoPassword
	in.EchoCharacter = '•'
	in.CharLimit = 1024
	return &unlock{ctx: ctx, pass: in, safes: newSafesPane(ctx), keys: unlockKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "unlock")),
		Lock:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "lock the unlocked account")),
		ClaimAll: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "claim all of this wallet")),
		Submit:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "unlock")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
}

type keystoreListing struct {
	dir      string
	accounts []keystore.Account
	problems []keystore.FileError
}

func (u *unlock) Title() string { return "Unlock" }
func (u *unlock) Mode() views.Mode {
	return views.Mode{Busy: u.busy, TakesKeys: u.pass.Focused()}
}

func (u *unlock) SetSize(width, height int) {
	u.width, u.height = width, height
	u.pass.Width = max(min(width-16, 60), 8)
}

func (u *unlock) Init() tea.Cmd {
	u.seq = u.reqs.Next()
	u.busy = true
	ctx := u.ctx
	return tea.Batch(views.Load(u.ctx, u.seq, func(context.Context) (keystoreListing, error) {
		store, err := ctx.Wallet.Store(ctx.Session)
		if err != nil {
			return keystoreListing{}, err
		}
		if err := store.Refresh(); err != nil {
			return keystoreListing{}, fmt.Errorf("read the keystore: %w", err)
		}
		return keystoreListing{dir: store.Dir(), accounts: store.Accounts(), problems: store.Problems()}, nil
	}), u.safes.read(false))
}

// Freshness is how old the profile's Safes on show are.
func (u *unlock) Freshness() views.Freshness { return u.safes.Freshness() }

func (u *unlock) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := u.safes.Update(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case views.Loaded[keystoreListing]:
		if msg.Seq != u.seq {
			return nil
		}
		u.busy, u.loaded = false, true
		if msg.Err != nil {
			u.err = msg.Err
			return nil
		}
		u.dir, u.accounts, u.problems = msg.Value.dir, msg.Value.accounts, msg.Value.problems
		u.cursor = min(u.cursor, max(u.rows()-1, 0))
	case views.Loaded[common.Address]:
		if msg.Seq != u.seq {
			return nil
		}
		u.busy = false
		if msg.Err != nil {
			u.err = msg.Err
			if errors.Is(msg.Err, keystore.ErrWrongPassphrase) {
				return u.pass.Focus()
			}
			return nil
		}
		u.ctx.Wallet.Unlocked(msg.Value)
		text := "unlocked " + msg.Value.Hex() + u.ownedSafesNote(msg.Value)
		return tea.Batch(func() tea.Msg { return views.StatusMsg{Text: text} }, views.ClosePage(u))
	case tea.KeyMsg:
		return u.key(msg)
	}
	if u.pass.Focused() {
		var cmd tea.Cmd
		u.pass, cmd = u.pass.Update(msg)
		return cmd
	}
	return nil
}

func (u *unlock) key(msg tea.KeyMsg) tea.Cmd {
	cmd, handled := u.bindings().Dispatch(msg)
	if !handled && u.pass.Focused() {
		u.pass, cmd = u.pass.Update(msg)
	}
	return cmd
}

// bindings are the screen's keys as it stands, which its dispatch, the
// footer and the help read: the passphrase's while it is typed, the
// accounts' otherwise (none while an unlock runs).
func (u *unlock) bindings() widget.Bindings {
	if u.pass.Focused() {
		return widget.Bindings{
			{Key: u.keys.Submit, Short: true, Run: u.start},
			{Key: u.keys.Cancel, Short: true, Run: func() tea.Cmd { u.pass.Reset(); u.pass.Blur(); return nil }},
		}
	}
	idle := func(run func() tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if u.busy {
				return nil
			}
			return run()
		}
	}
	return append(widget.Bindings{
		{Key: u.keys.Up, Short: true, Run: idle(func() tea.Cmd { u.cursor = max(u.cursor-1, 0); return nil })},
		{Key: u.keys.Down, Short: true, Run: idle(func() tea.Cmd { u.cursor = min(u.cursor+1, max(u.rows()-1, 0)); return nil })},
		{Key: u.keys.Choose, Short: true, Disabled: u.whyNotChoose, Run: idle(func() tea.Cmd {
			if u.cursor >= len(u.accounts) {
				return nil
			}
			u.err = nil
			return u.pass.Focus()
		})},
		{Key: u.keys.ClaimAll, Short: true, Run: idle(func() tea.Cmd {
			addr, ok := u.selected()
			if !ok {
				return nil
			}
			return views.Navigate(NewClaimAllOf(u.ctx, addr))
		}), Disabled: u.claimAllRefused},
		{Key: u.keys.Lock, Short: true, Run: idle(func() tea.Cmd {
			if _, _, ok := u.ctx.Wallet.Account(); !ok {
				return nil
			}
			u.ctx.Wallet.Lock()
			return func() tea.Msg {
				return views.StatusMsg{Text: "locked: the key is forgotten and the portal session closed"}
			}
		})},
	}, u.safeKeys()...)
}

// whyNotChoose says why enter unlocks nothing on the row selected.
func (u *unlock) whyNotChoose() string {
	if _, ok := u.selectedSafe(); ok {
		return "a Safe has no key: s, c or b propose as it"
	}
	return ""
}

// start decrypts the chosen account's key in the background. The
// passphrase leaves the input at once: the input is emptied, so it is not
// drawn or kept.
func (u *unlock) start() tea.Cmd {
	pass := u.pass.Value()
	u.pass.Reset()
	u.pass.Blur()
	if u.cursor >= len(u.accounts) {
		return nil
	}
	if pass == "" {
		u.err = errors.New("type the account's passphrase")
		return u.pass.Focus()
	}
	// By file: a file made by foundry names no address, and the
	// decryption proves which one it holds.
	account := u.accounts[u.cursor]
	u.seq = u.reqs.Next()
	u.busy = true
	u.err = nil
	ctx := u.ctx
	return views.Load(u.ctx, u.seq, func(context.Context) (common.Address, error) {
		store, err := ctx.Wallet.Store(ctx.Session)
		if err != nil {
			return common.Address{}, err
		}
		addr, err := store.UnlockFile(account.Path, pass)
		if err != nil {
			return addr, fmt.Errorf("unlock %s: %w", account.Label(), err)
		}
		return addr, nil
	})
}

func (u *unlock) View() string {
	st := u.ctx.Styles
	var b strings.Builder
	title := "Unlock an account of the keystore"
	if len(u.safes.list) > 0 {
		// The page is the profile's accounts: its keys and its Safes.
		title = "Accounts: unlock a key of the keystore, or act as a Safe of the profile"
	}
	for _, l := range widget.WrapWords(title, max(u.width, 20)) {
		b.WriteString(st.Title.Render(l) + "\n")
	}
	if u.dir != "" {
		b.WriteString(st.Muted.Render(widget.Truncate("Keystore: "+sanitize.Line(u.dir), u.width)) + "\n")
	}
	if addr, left, ok := u.ctx.Wallet.Account(); ok {
		b.WriteString(fmt.Sprintf("Unlocked now: %s (locks again in %s; L locks it now)\n", addr.Hex(), left.Round(1e9)))
	}
	b.WriteString("\n")
	switch {
	case !u.loaded:
		b.WriteString("Reading the keystore…\n")
	case len(u.accounts) == 0 && u.err == nil:
		b.WriteString("The keystore has no accounts. Create one with `allot account new`, or import a key with `allot account import FILE`.\n")
	}
	// An address read from its file is said so; where the note does not
	// fit whole, a shorter one, explained once under the list.
	const note, short = "  (per its file; proved on unlock)", "  (per its file)"
	shortened := false
	unlocked, _, _ := u.ctx.Wallet.Account()
	for i, a := range u.accounts {
		line := "  " + sanitize.Line(a.Label())
		if i == u.cursor {
			line = "▶ " + sanitize.Line(a.Label())
		}
		if !a.Unnamed && a.Address == unlocked {
			line += st.Muted.Render("  unlocked")
		}
		if !a.Verified && !a.Unnamed {
			if lipgloss.Width(line+note) <= u.width {
				line += st.Muted.Render(note)
			} else {
				line += st.Muted.Render(short)
				shortened = true
			}
		}
		if i == u.cursor {
			line = st.Selected.Render(line)
		}
		b.WriteString(widget.Truncate(line, u.width) + "\n")
	}
	if shortened {
		b.WriteString(widget.Page(st.Muted.Render("(per its file): the address its file states, proved when the account is unlocked."), u.width, 0) + "\n")
	}
	for _, p := range u.problems {
		b.WriteString(widget.Truncate("  ✗ "+sanitize.Line(p.Error()), u.width) + "\n")
	}
	b.WriteString("\n")
	switch {
	case u.busy && u.loaded:
		b.WriteString("Decrypting the key (scrypt takes a moment)…\n")
	case u.pass.Focused():
		b.WriteString(u.pass.View() + "\n")
		b.WriteString(st.Muted.Render("enter unlocks · esc cancels · the passphrase is never shown or kept") + "\n")
	case !u.loaded:
	case u.cursor >= len(u.accounts) && u.cursor < u.rows():
		b.WriteString(st.Muted.Render(widget.Truncate("C: claim all that is claimable of the selected Safe, sent by the unlocked key", u.width)) + "\n")
	case len(u.accounts) > 0:
		hint := "enter: type the passphrase of the selected account"
		if _, _, ok := u.ctx.Wallet.Account(); ok {
			hint += " · C: claim all that is claimable of it, sent by the unlocked key"
		}
		b.WriteString(widget.Page(st.Muted.Render(hint), u.width, 0) + "\n")
	}
	if u.ctx.Session.Sandbox {
		// Wrapped at spaces only: a passphrase split at its hyphens
		// (allot- / demo-N) reads as two words.
		for _, l := range wordWrap("Sandbox demo accounts: the passphrase of account N is allot-demo-N (0 is the first).", u.width) {
			b.WriteString(st.Muted.Render(l) + "\n")
		}
	}
	if u.err != nil {
		// At spaces only, as above: a key file's name broken at its "--"
		// reads as two.
		b.WriteString("\n" + strings.Join(wordWrap("✗ "+sanitize.Line(u.err.Error()), u.width), "\n") + "\n")
	}
	selected := -1 // none until the keystore's rows are known
	if u.loaded {
		selected = u.cursor - len(u.accounts)
	}
	if safes := u.safes.View(u.width, heldKeys(u.accounts), unlocked, selected, u.safeHint(u.width)); len(safes) > 0 {
		b.WriteString("\n" + strings.Join(safes, "\n") + "\n")
	}
	return widget.Page(b.String(), u.width, u.height)
}

func (u *unlock) Keys() widget.Bindings { return u.bindings() }

// wordWrap breaks s into lines of at most width columns at its spaces
// alone; a word wider than width is a line of its own.
func wordWrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case lipgloss.Width(line)+1+lipgloss.Width(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
