package app

import (
	"slices"
	"testing"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestRootKeysAreTheKeymaps: the screens' help checks leave out the keys
// the dashboard answers itself (viewstest.RootKeys, and RootKeysTaking
// while a screen takes every key); those lists are the dashboard's keymap,
// which viewstest cannot import.
func TestRootKeysAreTheKeymaps(t *testing.T) {
	t.Parallel()
	m := &Model{keys: defaultKeys()}
	keysOf := func(bs widget.Bindings) []string {
		var out []string
		for _, b := range bs {
			if b.Key.Enabled() {
				out = append(out, b.Key.Keys()...)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	if got, want := sorted(viewstest.RootKeys), keysOf(m.globalKeys(views.Mode{})); !slices.Equal(got, want) {
		t.Errorf("viewstest.RootKeys = %q, the dashboard's = %q", got, want)
	}
	if got, want := sorted(viewstest.RootKeysTaking), keysOf(m.globalKeys(views.Mode{TakesKeys: true})); !slices.Equal(got, want) {
		t.Errorf("viewstest.RootKeysTaking = %q, the dashboard's = %q", got, want)
	}
}
