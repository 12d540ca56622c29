package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockBeside takes an exclusive lock on a lock file beside path (.NAME.lock
// in its directory), waiting for whoever holds it: another allot's, or
// another goroutine's, edit of the same file. The lock file stays: removing
// it would let two editors lock two different files.
func lockBeside(path string) (unlock func(), err error) {
	name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// Closing the file releases the lock.
	return func() { f.Close() }, nil
}

// replaceable says why allot must not replace the file info describes: a
// file its owner made read-only, or another user's, is the user's to
// change, and a rename over it would silently drop that choice.
func replaceable(info fs.FileInfo) error {
	if info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("the file is read-only (mode %04o): allot does not replace it; make it writable (chmod u+w) to pin, or edit it by hand", info.Mode().Perm())
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("the file belongs to another user (uid %d): allot does not replace it; edit it by hand", st.Uid)
	}
	return nil
}
