package session

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"allot/api"
)

// TestReadOnlyProfiles: read_only = true in a profile, or --read-only for
// any profile (the other profiles :profile opens too), makes the session
// refuse every act with one line that says why, and its client refuses
// every write before sending.
func TestReadOnlyProfiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	config := writeConfig(t, strings.Replace(twoProfiles, "[profiles.beta]\n", "[profiles.beta]\nread_only = true\n", 1))
	getenv := func(k string) string {
		if k == "TEST_KEY" {
			return "k-123"
		}
		return os.Getenv(k)
	}
	for _, tc := range []struct {
		profile  string
		flag     bool
		why      string // "" when it may act
		readOnly bool
	}{
		{"alpha", false, "", false},
		{"beta", false, "read_only = true in its profile", true},
		{"alpha", true, "--read-only", true},
		{"beta", true, "--read-only", true},
	} {
		opts := Options{ConfigPath: config, Profile: tc.profile, ReadOnly: tc.flag, Getenv: getenv}
		open, err := Prepare(opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := open.Open()
		if err != nil {
			t.Fatal(err)
		}
		err = s.Writable()
		if open.ReadOnly != tc.readOnly || (err != nil) != tc.readOnly {
			t.Errorf("%s (flag %v): opener read-only %v, %v", tc.profile, tc.flag, open.ReadOnly, err)
		}
		if !tc.readOnly {
			continue
		}
		want := "profile " + tc.profile + " is read-only (" + tc.why + "): nothing is signed, sent or written"
		if err.Error() != want || !errors.Is(err, api.ErrReadOnly) {
			t.Errorf("refusal %q, want %q", err, want)
		}
		if _, err := s.API.CreateSchedule(context.Background(), api.ScheduleRequest{}); !errors.Is(err, api.ErrReadOnly) {
			t.Errorf("%s: the client wrote: %v", tc.profile, err)
		}
		if s.Recorder(nil).ReadOnly == nil {
			t.Errorf("%s: the recorder acts", tc.profile)
		}
		sw := NewSwitch(opts)
		other, err := sw.Open("alpha")
		if err != nil {
			t.Fatal(err)
		}
		if tc.flag && other.Writable() == nil {
			t.Error("--read-only did not hold for the profile switched to")
		}
	}
}
