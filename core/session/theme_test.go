package session

import (
	"os"
	"strings"
	"testing"
)

// TestTheme: the configuration's theme, ALLOT_THEME over it, and either
// refused when it is not auto, light or dark.
func TestTheme(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	env := map[string]string{"TEST_KEY": "k-123"}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
	prepare := func(theme string) (Opener, error) {
		return Prepare(Options{ConfigPath: writeConfig(t, "theme = \""+theme+"\"\n"+twoProfiles), Getenv: getenv})
	}
	if o, err := prepare("light"); err != nil || o.Theme != "light" {
		t.Errorf("theme light: %q, %v", o.Theme, err)
	}
	env["ALLOT_THEME"] = "dark"
	if o, err := prepare("light"); err != nil || o.Theme != "dark" {
		t.Errorf("ALLOT_THEME over the file: %q, %v", o.Theme, err)
	}
	if _, err := prepare("blue"); err == nil || !strings.Contains(err.Error(), `theme: "blue" is not a theme: want auto, light, dark`) {
		t.Errorf("theme blue: %v", err)
	}
	env["ALLOT_THEME"] = "sepia"
	if _, err := prepare("light"); err == nil || !strings.Contains(err.Error(), "ALLOT_THEME") {
		t.Errorf("ALLOT_THEME sepia: %v", err)
	}
}
