package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// scanner reads JSON tokens from a stream through a fixed buffer, without
// allocating for the common token. A string or number must fit in
// maxToken bytes; a string's bytes it returns are valid until the next
// read. It is the streaming pass under StreamStakes: encoding/json's
// Decoder allocates a value per token, and it reads 183 MB of stakes
// several times slower (see BenchmarkStakesDecode).
type scanner struct {
	r   io.Reader
	buf []byte // buf[pos:] is unread
	pos int
	off int64 // the body's offset of buf[0]
	err error // the reader's error, once it gave one
	key []byte
}

// maxToken bounds a string or number: an id, an address or an amount is
// tens of bytes, and a field allot skips is still a value of a stake.
const maxToken = 64 << 10

// scanBuffer is the read buffer's size.
const scanBuffer = 256 << 10

// maxDepth bounds the nesting of a value allot skips.
const maxDepth = 64

// errCut is a body that ends before its JSON does.
var errCut = errors.New("body cut short")

// syntaxError is a body that is not JSON, at a byte offset.
type syntaxError struct {
	at  int64
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("byte %d: %s", e.at, e.msg) }

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 0, scanBuffer)}
}

// received is how many bytes of the body were read.
func (s *scanner) received() int64 { return s.off + int64(len(s.buf)) }

// offset is the body's offset of the next byte.
func (s *scanner) offset() int64 { return s.off + int64(s.pos) }

func (s *scanner) syntax(format string, a ...any) error {
	return &syntaxError{at: s.offset(), msg: fmt.Sprintf(format, a...)}
}

// more moves buf[keep:] to the front and reads more after it. It reports
// false when nothing more came: the body ended or failed (see stop), or
// the buffer is full.
func (s *scanner) more(keep int) bool {
	if s.err != nil {
		return false
	}
	n := copy(s.buf[:cap(s.buf)], s.buf[keep:])
	s.off += int64(keep)
	s.pos -= keep
	s.buf = s.buf[:n]
	if n == cap(s.buf) {
		return false
	}
	for {
		m, err := s.r.Read(s.buf[n:cap(s.buf)])
		s.buf = s.buf[:n+m]
		if err != nil {
			s.err = err
			return m > 0
		}
		if m > 0 {
			return true
		}
	}
}

// stop is the error of a read that got nothing more.
func (s *scanner) stop() error {
	switch {
	case s.err == io.EOF:
		return errCut
	case s.err != nil:
		return &readError{s.err}
	}
	return s.syntax("a value longer than %d KiB", maxToken>>10)
}

// peek skips white space and returns the next byte, unread.
func (s *scanner) peek() (byte, error) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, nil
			}
		}
		if !s.more(s.pos) {
			return 0, s.stop()
		}
	}
}

// expect reads the byte c, after white space.
func (s *scanner) expect(c byte) error {
	got, err := s.peek()
	if err != nil {
		return err
	}
	if got != c {
		return s.syntax("%q where %q belongs", got, c)
	}
	s.pos++
	return nil
}

// end checks that nothing but white space follows.
func (s *scanner) end() error {
	_, err := s.peek()
	if errors.Is(err, errCut) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.syntax("more after the end of the JSON value")
}

// str reads a string and returns its contents, escapes undone.
func (s *scanner) str() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	q := s.pos - 1 // the opening quote
	i, escaped := q+1, false
	for {
		for i < len(s.buf) {
			c := s.buf[i]
			switch {
			case c == '"':
				s.pos = i + 1
				if !escaped {
					return s.buf[q+1 : i], nil
				}
				// Escapes are rare in a listing: encoding/json undoes them
				// (surrogate pairs, invalid UTF-8 replaced) as everywhere
				// else in the client.
				var v string
				if err := json.Unmarshal(s.buf[q:i+1], &v); err != nil {
					return nil, s.syntax("a string with a bad escape")
				}
				return []byte(v), nil
			case c == '\\':
				escaped = true
				i += 2
			case c < 0x20:
				return nil, s.syntax("a control character in a string")
			default:
				i++
			}
		}
		if i-q > maxToken {
			return nil, s.syntax("a string longer than %d KiB", maxToken>>10)
		}
		shift := q
		if !s.more(q) {
			return nil, s.stop()
		}
		i -= shift
		q = 0
	}
}

// number reads a number's text, checked against JSON's grammar.
func (s *scanner) number() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, err
	}
	start, i := s.pos, s.pos
	for {
		for i < len(s.buf) && isNumberByte(s.buf[i]) {
			i++
		}
		if i < len(s.buf) || s.err != nil {
			break
		}
		if i-start > maxToken {
			return nil, s.syntax("a number longer than %d KiB", maxToken>>10)
		}
		shift := start
		if !s.more(start) && s.err == nil {
			return nil, s.stop()
		}
		i -= shift
		start = 0
	}
	v := s.buf[start:i]
	if !validNumber(v) {
		return nil, s.syntax("%q is not a number", truncate(string(v), maxExcerpt))
	}
	s.pos = i
	return v, nil
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// validNumber reports whether b is a JSON number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
func validNumber(b []byte) bool {
	i := 0
	digits := func() bool {
		from := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > from
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(b)
}

// literal reads the word w (true, false, null).
func (s *scanner) literal(w string) error {
	if _, err := s.peek(); err != nil {
		return err
	}
	for len(s.buf)-s.pos < len(w) {
		if !s.more(s.pos) {
			return s.stop()
		}
	}
	if string(s.buf[s.pos:s.pos+len(w)]) != w {
		return s.syntax("not JSON")
	}
	s.pos += len(w)
	return nil
}

func (s *scanner) null() error { return s.literal("null") }

// boolean reads true or false.
func (s *scanner) boolean() (bool, error) {
	c, err := s.peek()
	if err != nil {
		return false, err
	}
	switch c {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	}
	return false, s.syntax("%q where true or false belongs", c)
}

// nextKey reads the next key of an object whose '{' was read, and its
// colon; more is false at the object's end. first is true for the first
// call on an object. The key is valid until the next call.
func (s *scanner) nextKey(first bool) (key []byte, more bool, err error) {
	c, err := s.peek()
	if err != nil {
		return nil, false, err
	}
	if c == '}' {
		s.pos++
		return nil, false, nil
	}
	if !first {
		if c != ',' {
			return nil, false, s.syntax("%q where , or } belongs", c)
		}
		s.pos++
	}
	k, err := s.str()
	if err != nil {
		return nil, false, err
	}
	// The colon's read may move the buffer: the key is copied first.
	s.key = append(s.key[:0], k...)
	if err := s.expect(':'); err != nil {
		return nil, false, err
	}
	return s.key, true, nil
}

// object calls value for each key of an object whose '{' was read; value
// reads the key's value.
func (s *scanner) object(value func(key []byte) error) error {
	for first := true; ; first = false {
		key, more, err := s.nextKey(first)
		if err != nil || !more {
			return err
		}
		if err := value(key); err != nil {
			return err
		}
	}
}

// array calls value for each element of an array whose '[' was read.
func (s *scanner) array(value func() error) error {
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == ']' {
			s.pos++
			return nil
		}
		if !first {
			if c != ',' {
				return s.syntax("%q where , or ] belongs", c)
			}
			s.pos++
		}
		if err := value(); err != nil {
			return err
		}
	}
}

// skip reads a value of any kind and drops it.
func (s *scanner) skip() error { return s.skipDepth(0) }

func (s *scanner) skipDepth(depth int) error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	switch c {
	case '"':
		_, err := s.str()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	case '{', '[':
		if depth == maxDepth {
			return s.syntax("values nested deeper than %d", maxDepth)
		}
		s.pos++
		if c == '{' {
			return s.object(func([]byte) error { return s.skipDepth(depth + 1) })
		}
		return s.array(func() error { return s.skipDepth(depth + 1) })
	}
	if c == '-' || (c >= '0' && c <= '9') {
		_, err := s.number()
		return err
	}
	return s.syntax("%q where a value belongs", c)
}
