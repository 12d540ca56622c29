package app

import (
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"allot/viewstest"
)

// TestRootKeysAreTheKeymaps: the screens' help checks leave out the keys
// the dashboard answers itself (viewstest.RootKeys, and RootKeysTaking
// while a screen takes every key); those lists are the dashboard's keymap,
// which viewstest cannot import.
func TestRootKeysAreTheKeymaps(t *testing.T) {
	t.Parallel()
	k := defaultKeys()
	keysOf := func(bs ...key.Binding) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.Keys()...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	idle := keysOf(append([]key.Binding{k.Help, k.Command, k.Back, k.Quit, k.NextTab, k.PrevTab, k.Token, k.Details, k.Unlock, k.Lock, k.Pause, k.AnyHelp, k.AnyQuit}, k.Tabs...)...)
	if got := sorted(viewstest.RootKeys); !slices.Equal(got, idle) {
		t.Errorf("viewstest.RootKeys = %q, the keymap's = %q", got, idle)
	}
	if got, want := sorted(viewstest.RootKeysTaking), keysOf(k.AnyHelp, k.AnyQuit); !slices.Equal(got, want) {
		t.Errorf("viewstest.RootKeysTaking = %q, the keymap's = %q", got, want)
	}
}
