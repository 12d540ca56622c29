package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// listFlag is a flag that may be repeated, and whose values may also be
// comma-separated: --allocation A --allocation B, or --allocation A,B.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// maxBodyFile bounds --body files: request bodies are small.
const maxBodyFile = 1 << 20

// readBody decodes the JSON file at path into v, refusing unknown fields so
// that a misspelt field is not silently dropped from a write.
func readBody(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	if info.Size() > maxBodyFile {
		return fmt.Errorf("--body: %s is %d bytes, more than a request body can be", path, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBodyFile+1))
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	if len(data) > maxBodyFile {
		return fmt.Errorf("--body: %s is more than %d bytes, more than a request body can be", path, maxBodyFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("--body %s: %w", path, describeBodyError(data, v, err))
	}
	return nil
}
