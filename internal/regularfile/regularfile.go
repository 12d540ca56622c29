// Package regularfile opens a file only when it is a regular one: a path
// a user or another program names (a configuration, a keystore file, a
// Transaction Builder file) may be a FIFO, which blocks the reader until
// someone writes to it, or a device, which never ends.
package regularfile

import (
	"errors"
	"os"
	"syscall"
)

// ErrNotRegular: the path names a directory, a FIFO, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading when it is a regular file, with the file's
// information. It is checked twice: before it is opened (opening a FIFO
// waits for a writer) and once open, without blocking (the entry may have
// been swapped for a FIFO between the two).
func Open(path string) (*os.File, os.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, ErrNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrNotRegular
	}
	return f, info, nil
}
