package views

import (
	"bytes"
	"encoding/json"
	"strings"

	"allot/sanitize"
)

// prettyBody indents a request body for its review: the same tokens, byte
// for byte, on lines, sanitized for the terminal (a body carries what was
// typed or pasted). A body that is not JSON is shown as it is.
func prettyBody(body []byte) []string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		buf.Reset()
		buf.Write(body)
	}
	return strings.Split(sanitize.Block(buf.String()), "\n")
}
