package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"allot/internal/sanitize"
	"allot/views/widget"
)

// PrettyBody indents a request body for its review: the same tokens, byte
// for byte, on lines, sanitized for the terminal (a body carries what was
// typed or pasted). A body that is not JSON is shown as it is.
func PrettyBody(body []byte) []string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		buf.Reset()
		buf.Write(body)
	}
	return strings.Split(sanitize.Block(buf.String()), "\n")
}

// LinesAt counts the lines text takes when drawn at width: a line wider
// than the screen wraps onto more. A final newline ends the last line.
func LinesAt(text string, width int) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n += strings.Count(widget.Page(l, max(width, 1), 0), "\n") + 1
	}
	return n
}

// ByteSize writes a byte count for people.
func ByteSize[N int | int64](n N) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
