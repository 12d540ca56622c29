package journal

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"allot/core/write"
)

// EachTransaction calls fn with what Transactions lists, newest first, a
// transaction at a time, until fn returns false. It reads the index, and
// of the journal only the lines of the transactions it gives: the first
// come as fast from a journal of millions of entries as from a new one.
// Lines the index says were damaged are named in the warnings.
func (j *Journal) EachTransaction(d Deployment, fn func(Transaction) bool) ([]string, error) {
	if j == nil {
		return nil, ErrNoJournal
	}
	warnings, err := j.eachTransaction(d, fn)
	if errors.Is(err, errStale) || errors.Is(err, errChanged) {
		// Changed since it was indexed (edited by hand, keeping its size
		// and time): the file is the truth, indexed anew.
		j.mu.Lock()
		rerr := j.rebuild()
		j.mu.Unlock()
		if rerr != nil {
			return warnings, rerr
		}
		if errors.Is(err, errStale) {
			warnings, err = j.eachTransaction(d, fn)
		}
	}
	return warnings, err
}

// A scan's rows before they are read: a write's request and outcome
// records, or a chain transaction's first and last, and its signature's.
type scanRow struct {
	at    int64
	seq   int64 // the order rows were made in, which breaks ties
	first int32 // a write's request (its outcome's when the request was lost)
	last  int32 // a write's outcome, -1 when none; a chain transaction's last entry
	sig   int32 // a chain transaction's signature, -1 when none
	chain bool
	owned bool  // of the deployment asked about
	flags uint8 // a write outcome's
}

// errChanged is the error of a scan that found the index not matching the
// journal after giving rows: another scan would repeat them, so the
// caller is told (the index is rebuilt for the next).
var errChanged = errors.New("journal: the journal changed while it was read: read it again")

func (j *Journal) eachTransaction(d Deployment, fn func(Transaction) bool) ([]string, error) {
	j.mu.Lock()
	st, err := j.current()
	j.mu.Unlock()
	if err != nil || st.records == 0 && !st.torn {
		return nil, err
	}
	xf, err := os.Open(j.indexPath())
	if err != nil {
		return nil, fmt.Errorf("journal index: %w", err)
	}
	defer xf.Close()
	jf, err := os.Open(j.path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer jf.Close()
	rows, warnings, err := scanRows(xf, st, ownerOf(d))
	if err != nil {
		return nil, err
	}
	r := rowReader{index: xf, journal: jf}
	for i, row := range rows {
		txs, err := r.transactions(row)
		if errors.Is(err, errStale) && i > 0 {
			err = errChanged
		}
		if err != nil {
			return warnings, err
		}
		for _, t := range slices.Backward(txs) {
			if !fn(t) {
				return warnings, nil
			}
		}
	}
	return warnings, nil
}

// scanRows pairs the index's records as Writes and Transactions pair
// entries, keeping d's rows, newest first.
func scanRows(xf io.ReaderAt, st indexState, d owner) ([]scanRow, []string, error) {
	var (
		warnings []string
		writes   = make([]scanRow, 0, st.records/2)     // grown by doubling, it held twice as much
		byID     = make(map[uint64]int32, st.records/2) // most lines are requests and outcomes
		waiting  = map[uint64][]int32{}
		signed   = map[uint32]bool{}
		chain    = map[uint64]int32{}
		sigs     = map[uint64]int32{}
		chains   []scanRow
	)
	br := bufio.NewReaderSize(io.NewSectionReader(xf, headerSize, st.records*recordSize), indexBuffer)
	var b [recordSize]byte
	var next int64
	for i := int32(0); int64(i) < st.records; i++ {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, nil, fmt.Errorf("journal index: %w", err)
		}
		r := getRecord(b[:])
		if r.off != next {
			return nil, nil, errStale
		}
		next = r.end()
		switch r.kind {
		case lineDamaged:
			warnings = append(warnings, fmt.Sprintf("journal line %d is damaged and was skipped", i+1))
		case lineSignature:
			signed[r.op] = true
			if d.owns(r) {
				sigs[r.key] = i
			}
		case lineRequest:
			if r.flags&flagWriteID != 0 {
				byID[r.key] = int32(len(writes))
			} else {
				waiting[r.key] = append(waiting[r.key], int32(len(writes)))
			}
			writes = append(writes, scanRow{at: r.at, first: i, last: -1, sig: -1, owned: d.owns(r)})
		case lineOutcome:
			w, ok := int32(0), false
			if r.flags&flagWriteID != 0 {
				w, ok = byID[r.key]
			} else if q := waiting[r.key]; len(q) > 0 {
				w, ok, waiting[r.key] = q[0], true, q[1:]
			}
			switch {
			case !ok && signed[r.op]:
			case !ok:
				writes = append(writes, scanRow{at: r.at, first: i, last: i, sig: -1, flags: r.flags, owned: d.owns(r)})
			case writes[w].last < 0 || writes[w].flags&flagUnknown != 0:
				writes[w].last, writes[w].flags, writes[w].at = i, r.flags, r.at
			}
		case lineTransaction:
			if !d.owns(r) {
				continue
			}
			c, ok := chain[r.key]
			if !ok {
				c = int32(len(chains))
				chain[r.key] = c
				chains = append(chains, scanRow{at: r.at, first: i, sig: -1, chain: true, seq: 1<<40 + int64(c)})
			}
			chains[c].last = i
		}
	}
	if st.torn {
		warnings = append(warnings, fmt.Sprintf("journal line %d is damaged and was skipped", st.records+1))
	}
	rows := writes[:0] // d's, in place
	for i, w := range writes {
		if w.owned {
			w.seq = int64(i)
			rows = append(rows, w)
		}
	}
	for k, c := range chain {
		if s, ok := sigs[k]; ok {
			chains[c].sig = s
		}
	}
	rows = append(rows, chains...)
	// Rows come mostly oldest first: reversed, they are mostly sorted
	// already, which is cheap to see.
	slices.Reverse(rows)
	newest := func(a, b scanRow) int { return cmp.Or(cmp.Compare(b.at, a.at), cmp.Compare(b.seq, a.seq)) }
	if !slices.IsSortedFunc(rows, newest) {
		slices.SortFunc(rows, newest)
	}
	return rows, warnings, nil
}

// rowReader reads a row's lines back from the journal, each checked
// against its record.
type rowReader struct{ index, journal io.ReaderAt }

func (r rowReader) entry(i int32) (Entry, error) {
	var b [recordSize]byte
	if _, err := r.index.ReadAt(b[:], headerSize+int64(i)*recordSize); err != nil {
		return Entry{}, fmt.Errorf("journal index: %w", err)
	}
	return r.entryOf(getRecord(b[:]))
}

// entryOf reads rec's entry from the journal, checked against it.
func (r rowReader) entryOf(rec record) (Entry, error) {
	line, err := lineAt(r.journal, rec)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if json.Unmarshal(line, &e) != nil {
		return Entry{}, errStale
	}
	return e, nil
}

// transactions are what row lists, in the order the journal made them.
func (r rowReader) transactions(row scanRow) ([]Transaction, error) {
	first, err := r.entry(row.first)
	if err != nil {
		return nil, err
	}
	if row.chain {
		return r.chainTransaction(row, first)
	}
	var outcome *Entry
	if row.last >= 0 {
		o, err := r.entry(row.last)
		if err != nil {
			return nil, err
		}
		outcome = &o
		if row.first == row.last { // its request's line was lost
			first.Kind, first.Status, first.Data = KindRequest, "", nil
		}
	}
	return writeTransactions(Write{Request: first, Outcome: outcome}), nil
}

func (r rowReader) chainTransaction(row scanRow, first Entry) ([]Transaction, error) {
	last, err := r.entry(row.last)
	if err != nil {
		return nil, err
	}
	t := Transaction{Kind: TxChain, ID: first.Ref, Op: first.Op, Ref: first.Ref, At: first.At, Profile: first.Profile, Status: last.Status}
	if row.sig >= 0 {
		sig, err := r.entry(row.sig)
		if err != nil {
			return nil, err
		}
		t.Signed = sig.Data
	}
	var st chainStatus
	_ = json.Unmarshal(last.Data, &st) // sending and pending entries hold no status: zero
	t.Block, t.Confirmations, t.GasUsed, t.RevertReason = st.Block, st.Confirmations, st.GasUsed, st.RevertReason
	return []Transaction{t}, nil
}

// writeTransactions are what a write lists: the transactions the service
// created, a write settled since, or one whose answer was lost.
func writeTransactions(w Write) []Transaction {
	e := w.Request
	t := Transaction{Op: e.Op, Ref: e.Ref, Write: e.Write, At: e.At, Profile: e.Profile}
	k, _ := write.Of(e.Op)
	if w.Outcome != nil {
		t.At = w.Outcome.At
	}
	switch {
	case w.Settled() && len(w.Outcome.Data) > 0 && k.Listed():
		// What the answer lists, as the write's kind reads it: nothing
		// when it cannot be read.
		created := k.Lists(w.Outcome.Data)
		out := make([]Transaction, 0, len(created))
		for _, c := range created {
			tx := t
			tx.Kind, tx.ID, tx.Status, tx.Request = TxCreated, c.ID, c.Status, e.Data
			out = append(out, tx)
		}
		return out
	case w.Outcome != nil && (w.Outcome.Status == StatusApplied || w.Outcome.Status == StatusNotApplied || w.Outcome.Status == StatusResent):
		t.Kind, t.Status = TxSettled, w.Outcome.Status
	case !w.Settled():
		t.Kind, t.Status, t.NoOutcome, t.Request = TxUnknown, StatusUnknown, w.Outcome == nil, e.Data
	default:
		return nil
	}
	return []Transaction{t}
}

// Match says which entries EachEntry gives: those of Kind, and of Op
// unless it is "".
type Match struct{ Kind, Op string }

// lineKinds are the kinds records tell apart.
var lineKinds = map[string]uint8{KindRequest: lineRequest, KindOutcome: lineOutcome, KindSignature: lineSignature, KindTransaction: lineTransaction, KindLookup: lineLookup}

// EachEntry calls fn with the entries m matches, newest first (the
// journal's order), until fn returns false: the index finds them, and
// only their lines are read.
func (j *Journal) EachEntry(m Match, fn func(Entry) bool) error {
	if j == nil {
		return ErrNoJournal
	}
	kind, ok := lineKinds[m.Kind]
	if !ok {
		return fmt.Errorf("journal: entries of kind %q are not indexed", m.Kind)
	}
	match := func(r record) bool { return r.kind == kind && (m.Op == "" || r.op == uint32(fnv64(m.Op))) }
	given := 0
	err := j.eachRecord(match, func(e Entry) bool { given++; return fn(e) })
	if errors.Is(err, errStale) {
		j.mu.Lock()
		err = j.rebuild()
		j.mu.Unlock()
		if err == nil && given == 0 {
			err = j.eachRecord(match, fn)
		} else if err == nil {
			err = errChanged
		}
	}
	return err
}

// Entries are the entries m matches, newest first, as EachEntry gives
// them; read again, whole, when the journal changed under the reading.
func (j *Journal) Entries(m Match) ([]Entry, error) {
	var out []Entry
	collect := func(e Entry) bool {
		out = append(out, e)
		return true
	}
	err := j.EachEntry(m, collect)
	if errors.Is(err, errChanged) {
		out = nil
		err = j.EachEntry(m, collect)
	}
	return out, err
}

// eachRecord reads the index from its end, a chunk at a time, and gives
// the entries of the records match keeps.
func (j *Journal) eachRecord(match func(record) bool, fn func(Entry) bool) error {
	j.mu.Lock()
	st, err := j.current()
	j.mu.Unlock()
	if err != nil || st.records == 0 {
		return err
	}
	xf, err := os.Open(j.indexPath())
	if err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	defer xf.Close()
	jf, err := os.Open(j.path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer jf.Close()
	r := rowReader{index: xf, journal: jf}
	const chunk = 1024
	buf := make([]byte, chunk*recordSize)
	for end := st.records; end > 0; end -= chunk {
		start := max(end-chunk, 0)
		b := buf[:(end-start)*recordSize]
		if _, err := xf.ReadAt(b, headerSize+start*recordSize); err != nil {
			return fmt.Errorf("journal index: %w", err)
		}
		for i := end - start - 1; i >= 0; i-- {
			rec := getRecord(b[i*recordSize:])
			if !match(rec) {
				continue
			}
			e, err := r.entryOf(rec)
			if err != nil {
				return err
			}
			if !fn(e) {
				return nil
			}
		}
	}
	return nil
}
