package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A map of a TOML text for editing it in place: where each table header,
// each key/value pair, each array and its elements and each inline table
// start and end. BurntSushi/toml decodes but cannot write a file back with
// its comments and layout; the pin editor (pinedit.go) changes a few
// values at these offsets and leaves every other byte as it was. The
// scanner only locates: the text was parsed already, and the edited text
// is parsed again before it replaces anything.

// tomlDoc is a scanned TOML text.
type tomlDoc struct {
	src     string
	headers []*tomlHeader
	entries []*tomlEntry // every key/value pair, those of inline tables too, in order
}

// tomlHeader is a [table] or [[array of tables]] line.
type tomlHeader struct {
	path       []string
	arrayTable bool
	start      int // the '['
	lineEnd    int // after the header's line (its newline included)
	// bodyEnd is after the line of the section's last key/value pair, or
	// lineEnd when it has none: where a new pair of the section goes.
	bodyEnd int
}

// tomlEntry is one key/value pair.
type tomlEntry struct {
	path     []string // the full path: the table's, then the dotted key
	relKey   []string // the key as written, relative to its container
	start    int      // the key's first byte
	valStart int
	valEnd   int
	lineEnd  int // after the pair's line, its comment and newline included (section pairs)
	// header is the section the pair is in (nil: before any header);
	// inline the inline table it is in (nil: a section's own pair).
	header *tomlHeader
	inline *tomlInline
	array  *tomlArray  // the value, when an array
	table  *tomlInline // the value, when an inline table
}

// tomlArray is an array value: its brackets and elements.
type tomlArray struct {
	open, close int // the '[' and the ']'
	elems       []tomlSpan
}

// tomlInline is an inline table value.
type tomlInline struct {
	path        []string
	open, close int // the '{' and the '}'
	entries     []*tomlEntry
}

type tomlSpan struct{ start, end int }

// scanTOML maps src.
func scanTOML(src string) (*tomlDoc, error) {
	s := &tomlScanner{doc: &tomlDoc{src: src}, src: src}
	if err := s.top(); err != nil {
		return nil, fmt.Errorf("at byte %d: %w", s.pos, err)
	}
	return s.doc, nil
}

type tomlScanner struct {
	doc *tomlDoc
	src string
	pos int
	cur *tomlHeader
}

var errScan = errors.New("not TOML this editor reads")

func (s *tomlScanner) top() error {
	for {
		s.skipBlank(true)
		if s.pos >= len(s.src) {
			return nil
		}
		if s.src[s.pos] == '[' {
			if err := s.header(); err != nil {
				return err
			}
			continue
		}
		e, err := s.entry(nil, nil)
		if err != nil {
			return err
		}
		s.skipBlank(false)
		if s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
			return fmt.Errorf("%w: more after a value on its line", errScan)
		}
		s.pos = lineEnd(s.src, s.pos)
		e.lineEnd = s.pos
		if s.cur != nil {
			s.cur.bodyEnd = s.pos
		}
	}
}

func (s *tomlScanner) header() error {
	h := &tomlHeader{start: s.pos}
	s.pos++
	if s.peek() == '[' {
		h.arrayTable = true
		s.pos++
	}
	keys, err := s.key()
	if err != nil {
		return err
	}
	h.path = keys
	s.skipSpaces()
	closing := "]"
	if h.arrayTable {
		closing = "]]"
	}
	if !strings.HasPrefix(s.src[s.pos:], closing) {
		return fmt.Errorf("%w: a header that does not close", errScan)
	}
	s.pos += len(closing)
	s.skipBlank(false)
	s.pos = lineEnd(s.src, s.pos)
	h.lineEnd, h.bodyEnd = s.pos, s.pos
	s.doc.headers = append(s.doc.headers, h)
	s.cur = h
	return nil
}

// entry scans key = value; in is the inline table it is in, if any.
func (s *tomlScanner) entry(in *tomlInline, base []string) (*tomlEntry, error) {
	e := &tomlEntry{start: s.pos, header: s.cur, inline: in}
	keys, err := s.key()
	if err != nil {
		return nil, err
	}
	if in == nil && s.cur != nil {
		base = s.cur.path
	}
	e.relKey = keys
	e.path = append(append([]string{}, base...), keys...)
	s.skipSpaces()
	if s.peek() != '=' {
		return nil, fmt.Errorf("%w: a key without '='", errScan)
	}
	s.pos++
	s.skipSpaces()
	s.doc.entries = append(s.doc.entries, e)
	e.valStart = s.pos
	if err := s.value(e); err != nil {
		return nil, err
	}
	e.valEnd = s.pos
	return e, nil
}

// key scans a dotted key: bare, "basic" or 'literal' parts.
func (s *tomlScanner) key() ([]string, error) {
	var keys []string
	for {
		s.skipSpaces()
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			start := s.pos
			s.pos = skipString([]byte(s.src), s.pos) + 1
			k, err := unquoteKey(s.src[start:s.pos])
			if err != nil {
				return nil, err
			}
			keys = append(keys, k)
		case isBare(c):
			start := s.pos
			for s.pos < len(s.src) && isBare(s.src[s.pos]) {
				s.pos++
			}
			keys = append(keys, s.src[start:s.pos])
		default:
			return nil, fmt.Errorf("%w: a key expected", errScan)
		}
		s.skipSpaces()
		if s.peek() != '.' {
			return keys, nil
		}
		s.pos++
	}
}

func (s *tomlScanner) value(e *tomlEntry) error {
	switch c := s.peek(); c {
	case '"', '\'':
		s.pos = skipString([]byte(s.src), s.pos) + 1
		if s.pos > len(s.src) {
			return fmt.Errorf("%w: a string that does not end", errScan)
		}
	case '[':
		a := &tomlArray{open: s.pos}
		s.pos++
		for {
			s.skipBlank(true)
			if s.peek() == ']' {
				break
			}
			start := s.pos
			if err := s.value(nil); err != nil {
				return err
			}
			a.elems = append(a.elems, tomlSpan{start, s.pos})
			s.skipBlank(true)
			if s.peek() == ',' {
				s.pos++
				continue
			}
			if s.peek() != ']' {
				return fmt.Errorf("%w: an array element followed by %q", errScan, s.peek())
			}
		}
		a.close = s.pos
		s.pos++
		if e != nil {
			e.array = a
		}
	case '{':
		t := &tomlInline{open: s.pos}
		if e != nil {
			t.path = e.path
			e.table = t
		}
		s.pos++
		for {
			s.skipBlank(true)
			if s.peek() == '}' {
				break
			}
			inner, err := s.entry(t, t.path)
			if err != nil {
				return err
			}
			t.entries = append(t.entries, inner)
			s.skipBlank(true)
			if s.peek() == ',' {
				s.pos++
			}
		}
		t.close = s.pos
		s.pos++
	default:
		// A number, a boolean, a date: up to what ends a value.
		start := s.pos
		for s.pos < len(s.src) && !strings.ContainsRune(",]}#\r\n", rune(s.src[s.pos])) {
			s.pos++
		}
		for s.pos > start && (s.src[s.pos-1] == ' ' || s.src[s.pos-1] == '\t') {
			s.pos--
		}
		if s.pos == start {
			return fmt.Errorf("%w: a value expected", errScan)
		}
	}
	return nil
}

func (s *tomlScanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

func (s *tomlScanner) skipSpaces() {
	for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
}

// skipBlank skips spaces and a comment, and with newlines, any number of
// blank and comment lines.
func (s *tomlScanner) skipBlank(newlines bool) {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t':
			s.pos++
		case '\r', '\n':
			if !newlines {
				return
			}
			s.pos++
		case '#':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		default:
			return
		}
	}
}

// lineEnd is the offset after the newline that ends the line at i (or
// the text's end).
func lineEnd(src string, i int) int {
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// lineStart is the offset of the first byte of the line holding i.
func lineStart(src string, i int) int {
	return strings.LastIndexByte(src[:i], '\n') + 1
}

func isBare(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// unquoteKey reads a quoted key.
func unquoteKey(q string) (string, error) {
	if len(q) < 2 {
		return "", fmt.Errorf("%w: a key that does not end", errScan)
	}
	if q[0] == '\'' {
		return q[1 : len(q)-1], nil
	}
	k, err := strconv.Unquote(q)
	if err != nil {
		return "", fmt.Errorf("%w: key %s: %v", errScan, q, err)
	}
	return k, nil
}

// unquoteValue reads a one-line string value; ok is false for anything else.
func unquoteValue(v string) (string, bool) {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' && !strings.HasPrefix(v, "'''") {
		return v[1 : len(v)-1], true
	}
	if len(v) >= 2 && v[0] == '"' && !strings.HasPrefix(v, `"""`) {
		s, err := strconv.Unquote(v)
		return s, err == nil
	}
	return "", false
}

// quoteKey writes a key part: bare when it can be.
func quoteKey(k string) string {
	for i := 0; i < len(k); i++ {
		if !isBare(k[i]) {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

func dotted(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = quoteKey(k)
	}
	return strings.Join(parts, ".")
}

func hasPrefix(path, prefix []string) bool {
	if len(path) < len(prefix) {
		return false
	}
	for i := range prefix {
		if path[i] != prefix[i] {
			return false
		}
	}
	return true
}

func samePath(a, b []string) bool { return len(a) == len(b) && hasPrefix(a, b) }
