package journal

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// The index is derived from the journal and never trusted over it: a
// file beside it with one fixed-size record per line of the journal (what
// a query needs to pair and order entries without parsing them: the
// line's offset, length and checksum, its kind, time, deployment and key),
// so that a query reads 56 bytes a line instead of parsing each one, and
// re-reads the real lines it answers with. It is extended on append,
// extended by the lines another process appended, and rebuilt from the
// journal when it is missing, damaged, or no longer matches the file (the
// journal was truncated, replaced or edited in place: its last indexed
// line, size and modification time say so; every line re-read is checked
// against its record's checksum). Nothing in it is synced: a lost index
// is rebuilt.
const (
	// IndexName is the index's name inside the state directory.
	IndexName = "journal.index"

	indexMagic  = "allotix1"
	headerSize  = 32 // magic, the journal's size and mtime when last indexed, reserved
	recordSize  = 56
	indexBuffer = 64 << 10
)

// Kinds of lines, as records hold them.
const (
	lineBlank uint8 = iota
	lineDamaged
	lineRequest
	lineOutcome
	lineSignature
	lineTransaction
	lineLookup
	lineOther
)

// Record flags.
const (
	flagWriteID  uint8 = 1 << iota // a request or outcome with a Write id (key hashes it)
	flagUnknown                    // an outcome whose status is StatusUnknown
	flagSettling                   // an outcome a check or a resend settled
)

// record is one line of the journal in the index.
type record struct {
	off   int64  // where the line starts in the journal
	at    int64  // the entry's time, Unix nanoseconds
	dep   uint64 // the deployment it was written for (depKey)
	svc   uint64 // its service, in whichever world (svcKey)
	key   uint64 // what pairs it: the write id, or op and ref, or the ref
	n     uint32 // the line's length without its newline
	sum   uint32 // CRC-32 of the line without its newline
	op    uint32 // hash of the entry's Op
	kind  uint8
	flags uint8
}

func (r record) end() int64 { return r.off + int64(r.n) + 1 }

func (r record) put(b []byte) {
	le := binary.LittleEndian
	le.PutUint64(b[0:], uint64(r.off))
	le.PutUint64(b[8:], uint64(r.at))
	le.PutUint64(b[16:], r.dep)
	le.PutUint64(b[24:], r.svc)
	le.PutUint64(b[32:], r.key)
	le.PutUint32(b[40:], r.n)
	le.PutUint32(b[44:], r.sum)
	le.PutUint32(b[48:], r.op)
	b[52], b[53], b[54], b[55] = r.kind, r.flags, 0, 0
}

func getRecord(b []byte) record {
	le := binary.LittleEndian
	return record{off: int64(le.Uint64(b[0:])), at: int64(le.Uint64(b[8:])), dep: le.Uint64(b[16:]), svc: le.Uint64(b[24:]),
		key: le.Uint64(b[32:]), n: le.Uint32(b[40:]), sum: le.Uint32(b[44:]), op: le.Uint32(b[48:]), kind: b[52], flags: b[53]}
}

// fnv64 is FNV-1a over parts, each ended by a zero byte so that
// ("ab","c") and ("a","bc") differ. Stable across runs, unlike maphash.
func fnv64(parts ...string) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= 1099511628211
		}
		h *= 1099511628211
	}
	return h
}

// svcKey and depKey name what Deployment.SameService and Owns compare:
// the base URL and chain, or the profile's name for entries from before
// they were journaled.
func svcKey(baseURL string, chainID uint64, profile string) uint64 {
	if baseURL == "" {
		return fnv64("profile", profile)
	}
	return fnv64("service", normalURL(baseURL), strconv.FormatUint(chainID, 10))
}

func depKey(svc uint64, world string) uint64 { return fnv64(strconv.FormatUint(svc, 16), world) }

// owner matches records to a deployment as Deployment.Owns matches
// entries.
type owner struct{ dep, depOld uint64 }

func ownerOf(d Deployment) owner {
	svc, svcOld := svcKey(d.BaseURL, d.ChainID, ""), svcKey("", 0, d.Profile)
	return owner{dep: depKey(svc, d.World), depOld: depKey(svcOld, d.World)}
}

func (o owner) owns(r record) bool { return r.dep == o.dep || r.dep == o.depOld }

// indexLine makes the record of one line (without its newline) at off,
// judged as read judges entries.
func indexLine(line []byte, off int64) record {
	r := record{off: off, n: uint32(len(line)), sum: crc32.ChecksumIEEE(line)}
	if len(bytes.TrimSpace(line)) == 0 {
		return r
	}
	var e struct {
		At                            time.Time
		Kind, Profile, BaseURL, World string
		ChainID                       uint64
		Write, Op, Ref, Status        string
	}
	if len(line) >= MaxLine || json.Unmarshal(line, &e) != nil || e.Kind == "" {
		r.kind = lineDamaged
		return r
	}
	r.at, r.op = e.At.UnixNano(), uint32(fnv64(e.Op))
	r.svc = svcKey(e.BaseURL, e.ChainID, e.Profile)
	r.dep = depKey(r.svc, e.World)
	r.key = fnv64(e.Ref)
	switch e.Kind {
	case KindRequest, KindOutcome:
		r.kind = lineRequest
		if e.Kind == KindOutcome {
			r.kind = lineOutcome
		}
		r.key = fnv64(e.Op, e.Ref)
		if e.Write != "" {
			r.key, r.flags = fnv64("write", e.Write), flagWriteID
		}
		switch e.Status {
		case StatusUnknown:
			r.flags |= flagUnknown
		case StatusApplied, StatusNotApplied, StatusResent:
			r.flags |= flagSettling
		}
	case KindSignature:
		r.kind = lineSignature
	case KindTransaction:
		r.kind = lineTransaction
	case KindLookup:
		r.kind = lineLookup
	default:
		r.kind = lineOther
	}
	return r
}

func (j *Journal) indexPath() string { return filepath.Join(filepath.Dir(j.path), IndexName) }

// indexState is what a query reads: the records of the journal's first
// lines, and the warning of a torn last line the index leaves out.
type indexState struct {
	records int64
	torn    bool // a last line without its newline
	// tornEntry: that line is a whole entry (a journal edited by hand):
	// extend ends it, as Append would.
	tornEntry bool
}

// errStale: the journal's bytes no longer match the index.
var errStale = errors.New("journal: the index does not match the journal")

// current brings the index up to the journal, rebuilding it when it
// cannot be trusted. The caller holds j.mu.
func (j *Journal) current() (indexState, error) {
	st, err := j.extend()
	if errors.Is(err, errStale) {
		if err := j.rebuild(); err != nil {
			return indexState{}, err
		}
		st, err = j.extend()
	}
	return st, err
}

// extend appends the records of the lines the index lacks. errStale when
// the index must be rebuilt.
func (j *Journal) extend() (indexState, error) {
	jf, err := os.Open(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return indexState{}, nil
	}
	if err != nil {
		return indexState{}, fmt.Errorf("journal: %w", err)
	}
	defer jf.Close()
	ji, err := jf.Stat()
	if err != nil {
		return indexState{}, fmt.Errorf("journal: %w", err)
	}
	xf, err := os.OpenFile(j.indexPath(), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return indexState{}, errStale
	}
	if err != nil {
		return indexState{}, fmt.Errorf("journal index: %w", err)
	}
	defer xf.Close()
	n, covered, err := checkIndex(xf, jf, ji)
	if err != nil {
		return indexState{}, err
	}
	st := indexState{records: n}
	if covered < ji.Size() {
		if st, err = j.indexTail(jf, xf, n, covered, ji.Size()); err != nil {
			return st, err
		}
		if st.tornEntry {
			if err := j.endLastLine(); err != nil {
				return st, err
			}
			return j.extend()
		}
		if ji, err = jf.Stat(); err != nil {
			return st, fmt.Errorf("journal: %w", err)
		}
	}
	var h [headerSize]byte
	copy(h[:], indexMagic)
	binary.LittleEndian.PutUint64(h[8:], uint64(ji.Size()))
	binary.LittleEndian.PutUint64(h[16:], uint64(ji.ModTime().UnixNano()))
	if _, err := xf.WriteAt(h[:], 0); err != nil {
		return st, fmt.Errorf("journal index: %w", err)
	}
	return st, nil
}

// checkIndex says how many whole records the index holds and how much of
// the journal they cover; errStale when they do not describe it.
func checkIndex(xf, jf *os.File, ji os.FileInfo) (n, covered int64, err error) {
	xi, err := xf.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("journal index: %w", err)
	}
	var h [headerSize]byte
	if _, err := xf.ReadAt(h[:], 0); err != nil || string(h[:8]) != indexMagic {
		return 0, 0, errStale
	}
	n = (xi.Size() - headerSize) / recordSize // a record cut by a crash is overwritten
	size, mtime := int64(binary.LittleEndian.Uint64(h[8:])), int64(binary.LittleEndian.Uint64(h[16:]))
	if n == 0 {
		return 0, 0, nil
	}
	var b [recordSize]byte
	if _, err := xf.ReadAt(b[:], headerSize+(n-1)*recordSize); err != nil {
		return 0, 0, errStale
	}
	last := getRecord(b[:])
	covered = last.end()
	switch {
	case covered > ji.Size():
		return 0, 0, errStale // truncated or replaced
	case size == ji.Size() && mtime == ji.ModTime().UnixNano():
		return n, covered, nil // as the index left it
	case size == ji.Size():
		return 0, 0, errStale // changed in place
	}
	if _, err := lineAt(jf, last); err != nil {
		return 0, 0, err
	}
	return n, covered, nil
}

// endLastLine ends the journal's last line, a whole entry without its
// newline. A line cut by a crash, or still being written, is never a
// whole JSON object, so this never splits one.
func (j *Journal) endLastLine() error {
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := ensureNewline(f, j.path); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// nextRecord reads the line at off and makes its record; ended is false
// at the end of the input, r then being what was read of a last line
// without its newline. A line longer than MaxLine is damaged, its length
// and checksum those of the whole line.
func nextRecord(br *bufio.Reader, off int64) (r record, ended bool, err error) {
	var line []byte
	var n int64
	sum := uint32(0)
	for {
		chunk, err := br.ReadSlice('\n')
		body := bytes.TrimSuffix(chunk, []byte("\n"))
		sum = crc32.Update(sum, crc32.IEEETable, body)
		n += int64(len(body))
		if n < MaxLine {
			line = append(line, body...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			r = indexLine(line, off)
			return r, false, nil
		case err != nil:
			return record{}, false, err
		}
		if n >= MaxLine || n > int64(^uint32(0)) {
			return record{off: off, n: uint32(min(n, int64(^uint32(0)))), sum: sum, kind: lineDamaged}, true, nil
		}
		return indexLine(line, off), true, nil
	}
}

// lineAt re-reads r's line from the journal; errStale when it is not the
// line indexed.
func lineAt(jf io.ReaderAt, r record) ([]byte, error) {
	if r.n >= MaxLine {
		sum := crc32.NewIEEE()
		end := make([]byte, 1)
		if _, err := io.Copy(sum, io.NewSectionReader(jf, r.off, int64(r.n))); err != nil || sum.Sum32() != r.sum {
			return nil, errStale
		}
		if _, err := jf.ReadAt(end, r.end()-1); err != nil || end[0] != '\n' {
			return nil, errStale
		}
		return nil, nil
	}
	line := make([]byte, int(r.n)+1)
	if _, err := jf.ReadAt(line, r.off); err != nil || line[r.n] != '\n' || crc32.ChecksumIEEE(line[:r.n]) != r.sum {
		return nil, errStale
	}
	return line[:r.n], nil
}

// indexTail appends the records of the journal's lines from covered to
// size, n records being there already.
func (j *Journal) indexTail(jf *os.File, xf *os.File, n, covered, size int64) (indexState, error) {
	st := indexState{records: n}
	w := bufio.NewWriterSize(&offsetWriter{f: xf, off: headerSize + n*recordSize}, indexBuffer)
	br := bufio.NewReaderSize(io.NewSectionReader(jf, covered, size-covered), indexBuffer)
	var b [recordSize]byte
	off := covered
	for {
		r, ended, err := nextRecord(br, off)
		if err != nil {
			return st, fmt.Errorf("journal: read: %w", err)
		}
		if !ended {
			// The last line has no newline yet: a crash cut it, or its
			// writer is not done. It is left for the next look.
			st.torn = r.kind != lineBlank
			st.tornEntry = r.kind != lineDamaged && r.kind != lineBlank
			break
		}
		r.put(b[:])
		if _, err := w.Write(b[:]); err != nil {
			return st, fmt.Errorf("journal index: %w", err)
		}
		off, st.records = r.end(), st.records+1
	}
	if err := w.Flush(); err != nil {
		return st, fmt.Errorf("journal index: %w", err)
	}
	return st, nil
}

// offsetWriter writes a file from an offset on.
type offsetWriter struct {
	f   *os.File
	off int64
}

func (w *offsetWriter) Write(p []byte) (int, error) {
	n, err := w.f.WriteAt(p, w.off)
	w.off += int64(n)
	return n, err
}

// rebuild writes a new index of the whole journal beside the old one and
// puts it in its place.
func (j *Journal) rebuild() error {
	tmp, err := os.CreateTemp(filepath.Dir(j.path), "."+IndexName+".*")
	if err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	defer os.Remove(tmp.Name())
	var h [headerSize]byte
	copy(h[:], indexMagic) // size 0: extend indexes the journal and sets it
	_, werr := tmp.Write(h[:])
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return fmt.Errorf("journal index: %w", errors.Join(werr, cerr))
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	if err := os.Rename(tmp.Name(), j.indexPath()); err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	return nil
}
