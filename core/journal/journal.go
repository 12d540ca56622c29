// Package journal is allot's local record of what this machine sent and
// signed: every write request, every signature (what was signed, never the
// key) and every transaction hash, one JSON object per line in the XDG state
// directory. It is how allot answers "did I already send this?" after a
// crash, and what the Transactions screen and recent lookups read.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FileName is the journal's name inside the state directory.
const FileName = "journal.jsonl"

// MaxLine bounds one entry; a longer line is not an entry allot wrote.
const MaxLine = 1 << 20

// Kinds of entries.
const (
	KindRequest     = "request"     // a write request sent to the service
	KindOutcome     = "outcome"     // the answer to a write request, or its absence
	KindSignature   = "signature"   // a message or transaction signed
	KindTransaction = "transaction" // a transaction hash sent to a chain, or its status
	KindLookup      = "lookup"      // an allocation looked up (recent lookups)
	KindRefusal     = "refusal"     // a claim or stake the signing policy refused: nothing signed
)

// Entry is one line of the journal. Fields beyond the common ones live in
// Data so that old journals stay readable as entries grow.
type Entry struct {
	At      time.Time `json:"at"`
	Kind    string    `json:"kind"`
	Profile string    `json:"profile,omitempty"`
	// BaseURL and ChainID name the deployment the entry is about (see
	// Deployment); entries written before they existed have neither.
	BaseURL string `json:"baseUrl,omitempty"`
	ChainID uint64 `json:"chainId,omitempty"`
	// World is the run of a deployment that starts anew each time (the
	// embedded sandbox); "" elsewhere, and in entries written before.
	World string `json:"world,omitempty"`
	// Write ties a write's request to its outcome: the same random id on
	// both. Older entries have none and pair by Op and Ref.
	Write  string          `json:"write,omitempty"`
	Op     string          `json:"op,omitempty"`     // e.g. "transactions/create"
	Ref    string          `json:"ref,omitempty"`    // what the entry is about: a request id, a tx hash, an allocation id
	Status string          `json:"status,omitempty"` // e.g. PENDING, unknown, success
	Data   json.RawMessage `json:"data,omitempty"`
}

// Journal appends entries to one file. It is safe for concurrent use.
type Journal struct {
	mu       sync.Mutex
	path     string
	now      func() time.Time
	warnings []string
}

// Open returns the journal in dir, creating dir (0700) when needed. The
// file is created on the first Append with mode 0600: it names wallets and
// amounts, which are nobody else's business. A folder or journal that
// others can read (made by an older allot, or by hand) is made private;
// when that fails, Warnings says so.
func Open(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: filepath.Join(dir, FileName), now: time.Now}
	j.private(dir, 0o700)
	j.private(j.path, 0o600)
	return j, nil
}

// Look returns the journal in dir for reading, changing nothing: no
// folder is made and no mode mended, as Open does. Only the queries that
// read the files as they are (ReadTail, RecentLookups, Followed) are for
// it: shell completion reads the record so, and must leave no trace.
func Look(dir string) *Journal {
	return &Journal{path: filepath.Join(dir, FileName), now: time.Now}
}

// private takes away the group's and others' access to path, when it
// exists and is ours to change.
func (j *Journal) private(path string, mode os.FileMode) {
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o077 == 0 {
		return
	}
	if err := os.Chmod(path, mode); err != nil {
		j.warnings = append(j.warnings, fmt.Sprintf("%s is readable by others (%s) and could not be made private: %v", path, info.Mode().Perm(), err))
	}
}

// Warnings are the problems Open found and could not mend.
func (j *Journal) Warnings() []string { return j.warnings }

// Path returns the journal file's path.
func (j *Journal) Path() string { return j.path }

// Append writes e as one line and syncs it to disk before returning, so an
// entry that Append reported is there after a crash. A zero At is set to now.
func (j *Journal) Append(e Entry) error {
	if e.At.IsZero() {
		e.At = j.now()
	}
	e.At = e.At.UTC()
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: encode entry: %w", err)
	}
	if len(line) >= MaxLine {
		return fmt.Errorf("journal: entry of %d bytes is too large", len(line))
	}
	line = append(line, '\n')

	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := ensureNewline(f, j.path); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("journal: write: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("journal: sync: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// The index follows, unsynced: one that is missing or behind is
	// mended by the next query, which never trusts it over the file.
	_, _ = j.extend()
	return nil
}

// ensureNewline ends a torn last line (a crash mid-write) before appending,
// so that the new entry is not glued to it.
func ensureNewline(f *os.File, path string) error {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	r, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer r.Close()
	last := make([]byte, 1)
	if _, err := r.ReadAt(last, info.Size()-1); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if last[0] != '\n' {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	return nil
}

// ReadResult is the content of a journal.
type ReadResult struct {
	Entries []Entry
	// Warnings name lines that could not be read, such as a torn last line
	// after a crash. Every entry before and after them is kept.
	Warnings []string
}

// Read returns every entry of the journal in order. A missing file is an
// empty journal.
func (j *Journal) Read() (ReadResult, error) { return j.ReadTail(-1) }

// ReadTail reads the entries of the journal's last size bytes (all of it
// when size is negative): the recent ones, at a bounded cost however long
// the journal has grown. A line cut by the start of the tail is left out;
// warnings count lines from there.
func (j *Journal) ReadTail(size int64) (ReadResult, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := os.Open(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return ReadResult{}, nil
	}
	if err != nil {
		return ReadResult{}, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	if size < 0 {
		return read(f)
	}
	info, err := f.Stat()
	if err != nil {
		return ReadResult{}, fmt.Errorf("journal: %w", err)
	}
	start := max(info.Size()-size, 0)
	if start == 0 {
		return read(f)
	}
	// Start one byte early: when that byte ends a line, the tail starts on
	// a whole line, which must not be dropped.
	if _, err := f.Seek(start-1, io.SeekStart); err != nil {
		return ReadResult{}, fmt.Errorf("journal: %w", err)
	}
	br := bufio.NewReader(f)
	for {
		_, err := br.ReadSlice('\n')
		if err == nil {
			return read(br)
		}
		if errors.Is(err, io.EOF) {
			return ReadResult{}, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return ReadResult{}, fmt.Errorf("journal: read: %w", err)
		}
	}
}

func read(r io.Reader) (ReadResult, error) {
	var out ReadResult
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			var e Entry
			if jerr := json.Unmarshal(line, &e); jerr != nil || e.Kind == "" {
				out.Warnings = append(out.Warnings, fmt.Sprintf("journal line %d is damaged and was skipped", n))
			} else {
				out.Entries = append(out.Entries, e)
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("journal: read: %w", err)
		}
	}
}

// readLine reads one line, discarding the rest of a line longer than
// MaxLine (it is then reported as damaged).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= MaxLine {
			line = append(line, chunk...)
		} else {
			line = []byte("{") // unreadable on purpose: too long
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}
