package widget

import (
	"slices"
	"sync/atomic"
)

// chunkBits sets the size of a RowSet's chunks: 4,096 rows.
const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
	// smallChunk is the most rows a chunk holds before it takes its full
	// size.
	smallChunk = 256
)

// RowSet is a table's rows, held in chunks of chunkSize rows that are
// filled in order and, past the first few hundred rows, never moved. Appending so never copies the rows
// already held: a million rows arriving in batches are written once,
// where a growing slice would copy them again at every growth and hold
// two copies at its peak. A RowSet is a value: Append returns a new one
// and leaves the old as it was, so a background job can read the rows it
// was given while more arrive.
type RowSet[R any] struct {
	chunks [][]R // all full but the last
	n      int
	// filled is how far anyone has filled the last chunk's array: when
	// it is past n, another RowSet appended to the same array, and this
	// one must copy its last chunk rather than write over those rows.
	filled *atomic.Int64
}

// RowsOf is a RowSet of rows, without copying them. The rows must not be
// modified afterwards; Append never writes into their spare capacity.
func RowsOf[R any](rows []R) RowSet[R] {
	s := RowSet[R]{n: len(rows)}
	for i := 0; i < len(rows); i += chunkSize {
		end := min(i+chunkSize, len(rows))
		s.chunks = append(s.chunks, rows[i:end:end])
	}
	return s
}

// Len is the number of rows.
func (s RowSet[R]) Len() int { return s.n }

// At returns row i, which the caller must not modify.
func (s RowSet[R]) At(i int) *R { return &s.chunks[i>>chunkBits][i&(chunkSize-1)] }

// Append returns the rows of s followed by a copy of more. It writes only
// past the rows of s, and into a new list of chunks, so that s and every
// RowSet made before read the same rows as before, from any goroutine.
// Sets appended from one may be appended to on different goroutines, but
// a set must not be appended to on two goroutines at once.
func (s RowSet[R]) Append(more []R) RowSet[R] {
	if len(more) == 0 {
		return s
	}
	own := s.filled != nil && s.filled.Load() == int64(s.n)
	if !own {
		s.filled = new(atomic.Int64)
	}
	chunks := slices.Clone(s.chunks)
	for len(more) > 0 {
		last := len(chunks) - 1
		if last < 0 || len(chunks[last]) == chunkSize {
			chunks = append(chunks, nil)
			last++
		}
		c := chunks[last]
		k := min(chunkSize-len(c), len(more))
		if cap(c)-len(c) < k || !own && len(c) > 0 {
			// A small table's chunk grows by doubling: a few rows need no
			// room for thousands. Past smallChunk rows a chunk gets its
			// full size at once, so the rows of a large set stay where
			// they were written (extends relies on it).
			size := chunkSize
			if len(c)+k <= smallChunk {
				size = max(2*cap(c), len(c)+k, 64)
			}
			grown := make([]R, len(c), size)
			copy(grown, c)
			c = grown
		}
		chunks[last] = append(c, more[:k]...)
		more = more[k:]
		s.n += k
		own = true // the chunks written from here on are this set's
	}
	s.chunks = chunks
	s.filled.Store(int64(s.n))
	return s
}

// Slice copies the rows into one slice, for a caller that needs one.
func (s RowSet[R]) Slice() []R {
	out := make([]R, 0, s.n)
	for _, c := range s.chunks {
		out = append(out, c...)
	}
	return out
}
