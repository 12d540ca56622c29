package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"allot/api"
	"allot/app/journal"
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
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("--body %s: %w", path, err)
	}
	return nil
}

// sendWrite journals a write request, sends it, and journals the outcome:
// the answer, a refusal, or that the answer never came. An unknown outcome
// is never retried here: the user decides, knowing it may have applied.
// ref says what the write is about (an action, an allocation id).
func (e *env) sendWrite(ctx context.Context, op, ref string, body any, send func() (status string, result any, err error)) error {
	j := e.journal()
	data, _ := json.Marshal(body)
	if j != nil {
		if err := j.Append(journal.Entry{Kind: journal.KindRequest, Profile: e.profileName(), Op: op, Ref: ref, Data: data}); err != nil {
			return fmt.Errorf("%s: not sent, the journal cannot be written: %w", op, err)
		}
	}
	status, result, err := send()
	outcome := journal.Entry{Kind: journal.KindOutcome, Profile: e.profileName(), Op: op, Ref: ref, Status: status}
	if err == nil && result != nil {
		outcome.Data, _ = json.Marshal(result)
	}
	var unknown *api.OutcomeUnknownError
	switch {
	case errors.As(err, &unknown):
		outcome.Status = "unknown"
		err = fmt.Errorf("%w; check before sending it again (the journal records it)", err)
	case err != nil:
		outcome.Status = "failed"
	}
	if j != nil {
		if jerr := j.Append(outcome); jerr != nil {
			fmt.Fprintf(e.Stderr, "allot: warning: the journal could not record the outcome: %v\n", jerr)
		}
	}
	return err
}

func (e *env) journal() *journal.Journal {
	if e.sess == nil {
		return nil
	}
	j, err := journal.Open(e.sess.StateDir)
	if err != nil {
		fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err)
		return nil
	}
	return j
}

func (e *env) profileName() string {
	if e.sess == nil {
		return ""
	}
	return e.sess.Name
}
