package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSONEscapesWhatTerminalsActOn: encoding/json writes C1
// controls, bidirectional overrides and a RawMessage's invalid UTF-8 as
// they are; writeJSON escapes them, and the value decodes the same.
func TestWriteJSONEscapesWhatTerminalsActOn(t *testing.T) {
	v := map[string]any{
		"name": "pool \u009b2J \u202eevil é…",
		"raw":  json.RawMessage("\"\x9b\xc2\x85\""),
	}
	var out bytes.Buffer
	if err := writeJSON(&out, v); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u009b", "\u0085", "\u202e", "\x9b"} {
		if bytes.Contains(out.Bytes(), []byte(bad)) {
			t.Errorf("output holds %q:\n%q", bad, out.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if back["name"] != v["name"] || back["raw"] != "\ufffd\u0085" {
		t.Errorf("decoded %q", back)
	}
}
