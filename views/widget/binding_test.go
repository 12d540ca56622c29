package widget

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// TestDisabledBindingSaysWhy: a disabled key is listed in the help with
// its reason, left out of the footer, and pressing it says the reason
// without running its handler; once enabled, it runs.
func TestDisabledBindingSaysWhy(t *testing.T) {
	why, ran := "not while loading", 0
	bs := Bindings{
		{Key: key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "start")), Short: true,
			Run:      func() tea.Cmd { ran++; return nil },
			Disabled: func() string { return why }},
		{Key: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")), Short: true, Group: "list"},
	}
	var descs []string
	for _, col := range bs.FullHelp() {
		for _, k := range col {
			descs = append(descs, k.Help().Desc)
		}
	}
	if !slices.Contains(descs, "start (not while loading)") {
		t.Errorf("the help says %q, not the reason", descs)
	}
	if short := bs.ShortHelp(); len(short) != 1 || short[0].Help().Key != "r" {
		t.Errorf("the footer offers %v: a disabled key is not offered", short)
	}
	cmd, handled := bs.Dispatch(keyMsg("D"))
	if !handled || ran != 0 {
		t.Fatalf("pressed while disabled: handled %v, ran %d times", handled, ran)
	}
	if st, ok := cmd().(StatusMsg); !ok || st.Text != why || !st.Error {
		t.Errorf("pressing it says %#v, not why", cmd())
	}
	why = ""
	if _, handled := bs.Dispatch(keyMsg("D")); !handled || ran != 1 {
		t.Errorf("pressed once enabled: handled %v, ran %d times", handled, ran)
	}
	if _, handled := bs.Dispatch(keyMsg("x")); handled {
		t.Error("a key no binding has was handled")
	}
}

// TestFullHelpColumns: the help lists keys by Group, the columns in the
// order of their first key, and Long in place of the footer's words; a
// key an earlier binding takes is in the footer once.
func TestFullHelpColumns(t *testing.T) {
	b := func(k string, g string, long string) Binding {
		return Binding{Key: key.NewBinding(key.WithKeys(k), key.WithHelp(k, k+" short")), Group: g, Long: long}
	}
	cols := Bindings{b("a", "x", ""), b("b", "y", "b at length"), b("c", "x", ""), b("a", "y", "")}.FullHelp()
	var got []string
	for _, col := range cols {
		var keys []string
		for _, k := range col {
			keys = append(keys, k.Help().Key+"="+k.Help().Desc)
		}
		got = append(got, strings.Join(keys, ","))
	}
	want := []string{"a=a short,c=c short", "b=b at length,a=a short"}
	if !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
}

// TestNamesJoinInTheFooterOnly: a Names label stands for the keys it
// names in the footer, and is passed over by Dispatch; the full help
// lists each named key.
func TestNamesJoinInTheFooterOnly(t *testing.T) {
	moved := 0
	up := Binding{Key: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")), Short: true, Run: func() tea.Cmd { moved--; return nil }}
	down := Binding{Key: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")), Short: true, Run: func() tea.Cmd { moved++; return nil }}
	bs := Bindings{up, down, Names("↑/↓", "move", up, down)}
	if short := bs.ShortHelp(); len(short) != 1 || short[0].Help().Key != "↑/↓" {
		t.Errorf("the footer shows %v, not the label alone", short)
	}
	if full := bs.FullHelp(); len(full) != 1 || len(full[0]) != 2 || full[0][1].Help().Key != "↓" {
		t.Errorf("the help shows %v, not each key", full)
	}
	if _, handled := bs.Dispatch(keyMsg("down")); !handled || moved != 1 {
		t.Errorf("down moved %d: the label took it", moved)
	}
}
