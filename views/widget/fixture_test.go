package widget

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	// Golden-ish expectations assume no color and a fixed profile.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// stake is shaped like a staking-pool stake from the service.
type stake struct {
	ID        string
	Wallet    string
	Amount    string // decimal string, token units
	units     int64  // Amount in millionths, for sorting
	Status    string
	CreatedAt time.Time
}

var stakeStatuses = [...]string{"ACTIVE", "UNSTAKED", "PENDING", "WITHDRAWN"}

var fixtureEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// makeStakes builds n deterministic stakes: ids "00000000-…-<i>", wallets
// from a seeded generator, amounts spread over several decades.
func makeStakes(n int) []stake {
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]stake, n)
	for i := range out {
		units := int64(rng.ExpFloat64() * 5e9)
		out[i] = stake{
			ID:        fmt.Sprintf("%08x-0000-4000-8000-%012x", i, rng.Uint64()&0xffffffffffff),
			Wallet:    fmt.Sprintf("0x%016x%016x%08x", rng.Uint64(), rng.Uint64(), rng.Uint32()),
			Amount:    strconv.FormatInt(units/1e6, 10) + "." + fmt.Sprintf("%06d", units%1e6),
			units:     units,
			Status:    stakeStatuses[rng.IntN(len(stakeStatuses))],
			CreatedAt: fixtureEpoch.Add(time.Duration(i) * time.Minute),
		}
	}
	return out
}

func stakeColumns() []Column[stake] {
	return []Column[stake]{
		{Title: "ID", Cell: func(s stake) string { return s.ID }, MinWidth: 10, MaxWidth: 36, Flex: 1, Priority: 2},
		{Title: "Wallet", Cell: func(s stake) string { return s.Wallet }, MinWidth: 14, MaxWidth: 42, Flex: 2},
		{
			Title: "Amount", Cell: func(s stake) string { return FormatAmount(s.Amount) },
			Align: AlignRight, MinWidth: 14,
			Sort: func(a, b stake) int { return cmp.Compare(a.units, b.units) },
		},
		{Title: "Status", Cell: func(s stake) string { return s.Status }, MinWidth: 9, Priority: 1},
		{
			Title: "Created", Cell: func(s stake) string { return s.CreatedAt.UTC().Format("2006-01-02 15:04") },
			MinWidth: 16, Priority: 3,
			Sort: func(a, b stake) int { return a.CreatedAt.Compare(b.CreatedAt) },
		},
	}
}

// newStakeTable builds a table of stakes at the given size. The clipboard
// writes into clip when it is not nil.
func newStakeTable(rows []stake, width, height int, cfg TableConfig[stake]) *Table[stake] {
	cfg.Columns = stakeColumns()
	cfg.ID = func(s stake) string { return s.ID }
	if cfg.Clipboard.Out == nil {
		cfg.Clipboard = Clipboard{Out: discard{}}
	}
	t := NewTable(cfg)
	t.SetSize(width, height)
	if cmd := t.SetRows(rows); cmd != nil {
		panic("SetRows without sort or filter returned a command")
	}
	return t
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// keyMsg builds the tea.KeyMsg for a key name as bubbletea spells it.
func keyMsg(name string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "enter": tea.KeyEnter, "esc": tea.KeyEsc,
		"ctrl+d": tea.KeyCtrlD, "ctrl+u": tea.KeyCtrlU, "backspace": tea.KeyBackspace,
	}
	if k, ok := named[name]; ok {
		return tea.KeyMsg{Type: k}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}
