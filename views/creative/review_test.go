package creative

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api/sandbox"
)

// TestCreativeReviewBodiesWhole: at 80 columns the review shows each
// request's body a field a line, none broken mid-key.
func TestCreativeReviewBodiesWhole(t *testing.T) {
	_, d, c := onLogo(t, sandbox.Options{}, 80, 40)
	d.Keys("ctrl+s")
	if c.state != stageReview {
		t.Fatalf("not reviewing: %q\n%s", c.message, c.View())
	}
	v := ansi.Strip(c.View())
	for _, key := range []string{`"fileName": "`, `"contentType": "image/png"`, `"portalSlug": "`, `"storageKey": "(from the upload URL answer)"`, `"name": "logo.png"`} {
		if !strings.Contains(v, key) {
			t.Errorf("the review breaks %s:\n%s", key, v)
		}
	}
}
