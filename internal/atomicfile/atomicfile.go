// Package atomicfile replaces a file whole or not at all: the profile's
// pins, the journal's follows, watch's looks, an iCalendar export and the
// sandbox's key files are each written this one way, so that a crash or a
// reader at the wrong moment sees the old file or the new one, never half
// of one.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces the file at path with data: a temporary file beside it
// (mode 0600), synced, then renamed over it. An error names path, not the
// temporary file, and wraps the system's cause (errors.Is(err,
// fs.ErrNotExist) holds for a missing directory).
func Write(path string, data []byte) error {
	return WriteMode(path, data, 0o600)
}

// WriteMode is Write with the new file's permission bits perm: an edit of
// a file the user made keeps the mode they gave it.
func WriteMode(path string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return failed(path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return failed(path, err)
	}
	if err := tmp.Chmod(perm.Perm()); err != nil {
		return failed(path, err)
	}
	if err := tmp.Sync(); err != nil {
		return failed(path, err)
	}
	if err := tmp.Close(); err != nil {
		return failed(path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return failed(path, err)
	}
	return nil
}

// failed says the write of path failed for the cause of err, without the
// temporary file's name an *fs.PathError or *os.LinkError carries.
func failed(path string, err error) error {
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &pathErr):
		err = pathErr.Err
	case errors.As(err, &linkErr):
		err = linkErr.Err
	}
	return fmt.Errorf("write %s: %w", path, err)
}
