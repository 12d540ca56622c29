package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"allot/internal/act"
	"allot/internal/journal"
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

// recorder journals this command's acts in the session's state directory,
// opened once. A journal that cannot be opened is a warning: the command
// goes on.
func (e *env) recorder() *act.Recorder {
	if e.rec != nil {
		return e.rec
	}
	r := &act.Recorder{Warn: func(err error) { fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err) }}
	if e.sess == nil {
		return r // no session yet: nothing to record, and nothing kept
	}
	e.rec = r
	r.Deployment, r.Ledger = e.sess.Deployment(), e.sess.Ledger()
	j, err := journal.Open(e.sess.StateDir)
	if err != nil {
		r.Warn(err)
		return r
	}
	for _, w := range j.Warnings() {
		fmt.Fprintf(e.Stderr, "allot: warning: %s\n", w)
	}
	r.Journal = j
	return r
}

// checkTimeout bounds the check of a write whose answer was lost.
const checkTimeout = 30 * time.Second

// checkUnknown asks, when the deployment can say (the embedded sandbox),
// whether a write whose answer was lost was applied, settles it in the
// journal and says what it found after err. The embedded sandbox ends with
// the command: this is the only time it can be asked.
func (e *env) checkUnknown(ctx context.Context, err error) error {
	var unknown *act.UnknownError
	if e.rec == nil || e.rec.Ledger == nil || !errors.As(err, &unknown) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	v, cerr := e.rec.Check(ctx, unknown.Sent())
	switch {
	case cerr != nil:
		return fmt.Errorf("%w (%v)", err, cerr)
	case v.Check == act.Applied:
		return fmt.Errorf("%w; checked: the service applied it, so do not send it again", err)
	case v.Check == act.NotApplied:
		return fmt.Errorf("%w; checked: the service did not apply it, so sending it again applies it once", err)
	}
	return err
}
