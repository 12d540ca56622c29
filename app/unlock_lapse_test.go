package app

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"allot/views/widget"
)

// TestUnlockWarnsBeforeItLapses: in its last minute the header's unlock
// says it is about to lock, in words and the error colour ("locks in
// 0:42"); before, it read "unlocked 0:42" as calmly as at 4:55, and the
// unlock ran out in the middle of a claim-and-stake walk.
func TestUnlockWarnsBeforeItLapses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		left     time.Duration
		unlocked bool
		want     string
	}{
		{295 * time.Second, true, "unlocked 4:55"},
		{60 * time.Second, true, "unlocked 1:00"},
		{42 * time.Second, true, "locks in 0:42"},
		{0, false, "locked (u)"},
	} {
		if got := ansi.Strip(unlockState(widget.DefaultStyles(), c.left, c.unlocked)); got != c.want {
			t.Errorf("%v left: %q, want %q", c.left, got, c.want)
		}
	}
}

// TestLapseSaidOnce: the status line says the unlock is in its last
// minute once, not at every tick, and again after a new unlock.
func TestLapseSaidOnce(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	if m.warnLapse(200*time.Second, true) != nil || m.status != "" {
		t.Fatalf("said with minutes left: %q", m.status)
	}
	if m.warnLapse(59*time.Second, true) == nil || !strings.Contains(m.status, "locks in under a minute") {
		t.Fatalf("not said in the last minute: %q", m.status)
	}
	m.status = ""
	if m.warnLapse(58*time.Second, true) != nil || m.status != "" {
		t.Errorf("said again at the next tick: %q", m.status)
	}
	m.warnLapse(300*time.Second, true) // unlocked again
	if m.warnLapse(30*time.Second, true) == nil {
		t.Error("not said in the last minute of the next unlock")
	}
}
