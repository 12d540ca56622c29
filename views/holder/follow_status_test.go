package holder

import (
	"strings"
	"testing"

	"allot/views"
)

// TestFollowStatusFitsAt80: following an allocation says so in one status
// line whole at 80 columns, the id and where its unlocks are (was cut to
// "its unlocks are on :upcoming, i…").
func TestFollowStatusFitsAt80(t *testing.T) {
	msg := followStatus(nil, followedMsg{id: "3f1a2b4c-0000-4000-8000-000000000001", on: true})()
	text := msg.(views.StatusMsg).Text
	if len(text) > 80 || !strings.Contains(text, "3f1a2b4c-0000-4000-8000-000000000001") || !strings.Contains(text, ":upcoming") {
		t.Errorf("the status line, %d columns: %q", len(text), text)
	}
}
