package operator

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// TestStartFormWholeAt60: at 60 columns the start form's hints are whole:
// the allocation ids' placeholder was cut ("(c…").
func TestStartFormWholeAt60(t *testing.T) {
	s := newSandbox(t, sandbox.Options{})
	ctx := &views.Context{Session: s, Now: time.Now, Styles: widget.DefaultStyles(), Clipboard: widget.Clipboard{Out: io.Discard}, Token: s.TokenIDs[0]}
	o := New(ctx, api.Contract{ID: s.Fixtures.ContractIDs[0], Name: "Meridian vesting"}, api.ActionStartDistribution).(*operator)
	o.form.SetCursorMode(cursor.CursorStatic)
	viewstest.NewSyncDriver(t, o, 60, 20)
	if v := ansi.Strip(o.View()); strings.Contains(v, "…") {
		t.Errorf("at 60 columns:\n%s", v)
	}
}
