package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBodyErrorsInServiceTerms: a bad --body names the value at fault by
// its path in the body and says what it must be, never Go's type names.
func TestBodyErrorsInServiceTerms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, cmd, body, want string
	}{
		{"a portion as a string of letters", "schedule create",
			`{"name":"s","pieces":[{"name":"a","portion":0.5},{"name":"b","portion":"half"}]}`,
			`pieces[1].portion: "half" is not a decimal amount`},
		{"a portion as an object", "schedule create",
			`{"name":"s","pieces":[{"name":"a","portion":{"v":1}}]}`,
			"pieces[0].portion: must be a number"},
		{"a name as a number", "schedule create", `{"name":5}`, "name: must be a string"},
		{"pieces as an object", "schedule create", `{"pieces":{}}`, "pieces: must be a list"},
		{"a misspelt field", "schedule create", `{"pieces":[{"portoin":1}]}`, "pieces[0].portoin: is not a field of this request"},
		{"a fund amount as true", "tx fund", `{"tokenId":"x","data":[{"allocationId":"a","amount":true}]}`, "data[0].amount: must be a number"},
		{"not JSON", "schedule create", "{\n\"name\": nope}", "not JSON (line 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "body.json")
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append(strings.Fields(tc.cmd), "--sandbox", "--body", path)
			r := runCLI(t, nil, nil, args...)
			all := r.stdout + r.stderr
			if r.code == ExitOK || !strings.Contains(all, tc.want) {
				t.Errorf("exit %d, want an error saying %q:\n%s", r.code, tc.want, all)
			}
			for _, goWords := range []string{"Go struct", "unmarshal", "api."} {
				if strings.Contains(all, goWords) {
					t.Errorf("the error speaks Go (%q):\n%s", goWords, all)
				}
			}
		})
	}
}
