package browse

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
	"allot/viewstest"
)

// The embedded sandbox's requests go over an in-memory network: copying one
// as curl, from the list or from its details page, is an error whose line
// fits 80 columns and whose details (E) say why and point to `allot
// sandbox`; y copies the request's line, not the curl command c refuses.
func TestRequestsCurlOnTheEmbeddedSandbox(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	if _, err := ctx.Session.API.Contracts(context.Background(), ctx.Token); err != nil {
		t.Fatal(err)
	}
	var copied bytes.Buffer
	ctx.Clipboard = widget.Clipboard{Out: &copied}
	r := NewRequests(ctx).(*requests)
	d := viewstest.NewSyncDriver(t, r, 120, 30, viewstest.DropWaiting)
	row, ok := r.Table.Selected()
	if !ok {
		t.Fatalf("no request listed:\n%s", r.View())
	}
	refused := func(where string, msg tea.Msg) {
		t.Helper()
		e, ok := msg.(views.ErrorMsg)
		if !ok {
			t.Fatalf("copy as curl %s on the embedded sandbox: %#v", where, msg)
		}
		first, details, _ := strings.Cut(e.Err.Error(), "\n")
		if line := "✗ " + e.Op + ": " + first + "  (E: details)"; len([]rune(line)) > 80 || !strings.Contains(details, "allot sandbox") {
			t.Errorf("%s: the line %q is over 80 columns, or its details do not point to allot sandbox: %q", where, line, details)
		}
	}
	refused("from the list", r.Update(viewstest.Key("c"))())
	d.Keys("enter")
	nav, ok := d.Got[len(d.Got)-1].(views.NavigateMsg)
	if !ok {
		t.Fatalf("enter opened no details page: %#v", d.Got)
	}
	cmd := nav.Screen.Update(viewstest.Key("c"))
	if cmd == nil {
		t.Fatal("c on the details page did nothing")
	}
	refused("from the details page", cmd())
	d.Run(r.Update(viewstest.Key("y")))
	if want := row.X.Method + " " + row.X.URL; !strings.Contains(copied.String(), base64.StdEncoding.EncodeToString([]byte(want))) {
		t.Errorf("y copied %q, want the request's line %q", copied.String(), want)
	}
}

func TestRequestBodiesAndDurationsForPeople(t *testing.T) {
	if got := clip([]byte(`{"isProcessed":true,"result":{"items":[],"total":0}}`)); got != "{\n  \"isProcessed\": true,\n  \"result\": {\n    \"items\": [],\n    \"total\": 0\n  }\n}" {
		t.Errorf("JSON body not indented:\n%s", got)
	}
	if got := clip([]byte("<html>bad gateway</html>")); got != "<html>bad gateway</html>" {
		t.Errorf("a body that is not JSON must come as it is: %q", got)
	}
	if got := clip([]byte(strings.Repeat("a", maxShownBody+10))); !strings.HasSuffix(got, "… (10 B more)") {
		t.Errorf("long body not cut: …%q", got[len(got)-20:])
	}
	for d, want := range map[time.Duration]string{
		300 * time.Microsecond: "<1 ms", 4 * time.Millisecond: "4 ms", 999 * time.Millisecond: "999 ms", 1234 * time.Millisecond: "1.23s",
	} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// Help lists every key the screen handles: c copies a request as curl.
func TestRequestsHelpNamesCurl(t *testing.T) {
	r := NewRequests(viewstest.Sandbox(t))
	for _, group := range r.Keys().FullHelp() {
		for _, b := range group {
			if b.Help().Key == "c" {
				return
			}
		}
	}
	t.Errorf("the Requests help lacks c: %v", r.Keys().FullHelp())
}
