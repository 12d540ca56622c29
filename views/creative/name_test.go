package creative

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
	"allot/viewstest"
)

// TestCreativeFileNamedFreely: a file named with a space, an accent and
// an emoji is no longer refused: it is stored under a name made from its
// own, which the details say, and uploaded and registered.
func TestCreativeFileNamedFreely(t *testing.T) {
	const name = "été 2026 🎉.png"
	d, c := detailsOf(t, name, 100, 30)
	if c.state != stageDetails {
		t.Fatalf("refused: %s\n%s", c.pickErr, c.View())
	}
	if c.file.Stored != "ete-2026.png" || !strings.HasPrefix(c.file.Unique, "ete-2026-") || c.nameF.Value() != name {
		t.Fatalf("stored as %q (unique %q), named %q", c.file.Stored, c.file.Unique, c.nameF.Value())
	}
	if v := strings.Join(strings.Fields(c.View()), " "); !strings.Contains(v, "Stored as ete-2026.png: the service stores names of letters, digits") {
		t.Errorf("the details do not say what it is stored as:\n%s", c.View())
	}
	d.Keys("ctrl+s", "y")
	d.Until("the public URL", func() bool { return c.state == stageDone || c.state == stageFailed })
	if c.state != stageDone || !strings.Contains(c.result.PublicURL, "/ete-2026-") {
		t.Fatalf("state %d, %v, url %q", c.state, c.err, c.result.PublicURL)
	}
}

// TestCreativeDetailsWholeAt60: at 60 columns the details of a file
// stored under another name cut nothing: the head, and the choice of the
// stored name, whose second option goes under the first.
func TestCreativeDetailsWholeAt60(t *testing.T) {
	_, c := detailsOf(t, "my banner é.png", 60, 20)
	if v := ansi.Strip(c.View()); strings.Contains(v, "…") || !strings.Contains(v, "( ) my-banner-e.png (replace)") {
		t.Errorf("at 60 columns:\n%s", v)
	}
}

// TestCreativeDoneWrapsUnderItself: at 80 columns the public URL, longer
// than a line, wraps under itself, not under the labels.
func TestCreativeDoneWrapsUnderItself(t *testing.T) {
	d, c := detailsOf(t, "a-banner-with-a-long-name-for-its-url.png", 80, 24)
	d.Keys("ctrl+s", "y")
	d.Until("the public URL", func() bool { return c.state == stageDone || c.state == stageFailed })
	lines := strings.Split(ansi.Strip(c.View()), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "Public URL") {
			if len(l) < 70 || i+1 == len(lines) || !strings.HasPrefix(lines[i+1], strings.Repeat(" ", 13)) {
				t.Errorf("the URL does not wrap under itself:\n%s", strings.Join(lines, "\n"))
			}
			return
		}
	}
	t.Fatalf("no public URL:\n%s", strings.Join(lines, "\n"))
}

// detailsOf opens the creative form on a folder holding one PNG named
// name, at width x height, and chooses it, up to its details (or its
// refusal).
func detailsOf(t *testing.T, name string, width, height int) (*viewstest.Driver, *creative) {
	t.Helper()
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	writePNG(t, dir, name)
	d := viewstest.NewDriver(t, newCreative(ctx, dir), width, height)
	c := d.S.(*creative)
	choose(d, name)
	d.Until("the details", func() bool { return c.state == stageDetails || c.pickErr != "" })
	return d, c
}
