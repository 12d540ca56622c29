package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestFooterFollowsItsKeys: the footer drawn once is drawn again when a
// key changes, is switched off or the width changes, not kept from the
// frame before.
func TestFooterFollowsItsKeys(t *testing.T) {
	m := &Model{help: newHelp(), width: 120}
	local := []key.Binding{key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export"))}
	global := []key.Binding{key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")), key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))}
	before := footerOf(m.width, local, global)
	if got := m.drawKeys(local, global); !strings.Contains(got, "export") || !strings.Contains(got, "quit") {
		t.Fatalf("footer %q lacks its keys", got)
	}
	global[1].SetEnabled(false)
	if footerOf(m.width, local, global) == before {
		t.Error("a global key switched off draws the same footer")
	}
	global[1].SetEnabled(true)
	local[0].SetHelp("x", "export the list")
	if footerOf(m.width, local, global) == before {
		t.Error("a key's new description draws the same footer")
	}
	if footerOf(80, local, global) == footerOf(120, local, global) {
		t.Error("another width draws the same footer")
	}
}
