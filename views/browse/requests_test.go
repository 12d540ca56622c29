package browse

import (
	"context"
	"strings"
	"testing"
	"time"

	"allot/views/viewstest"
	"allot/views/widget"
)

// The embedded sandbox's requests go over an in-memory network: copying one
// as curl says so and points to `allot sandbox`, instead of a command that
// reaches nothing.
func TestRequestsCurlOnTheEmbeddedSandbox(t *testing.T) {
	ctx := viewstest.Sandbox(t)
	if _, err := ctx.Session.API.Contracts(context.Background(), ctx.Token); err != nil {
		t.Fatal(err)
	}
	r := NewRequests(ctx).(*requests)
	viewstest.NewSyncDriver(t, r, 120, 30, viewstest.DropWaiting)
	if _, ok := r.Table.Selected(); !ok {
		t.Fatalf("no request listed:\n%s", r.View())
	}
	msg := r.Update(viewstest.Key("c"))()
	status, ok := msg.(widget.StatusMsg)
	if !ok || !status.Error || !strings.Contains(status.Text, "allot sandbox") {
		t.Errorf("copy as curl on the embedded sandbox: %#v", msg)
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
	for _, group := range r.FullHelp() {
		for _, b := range group {
			if b.Help().Key == "c" {
				return
			}
		}
	}
	t.Errorf("the Requests help lacks c: %v", r.FullHelp())
}
