package watch

import (
	"allot/internal/atomicfile"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"sort"
)

// The last look at each allocation, kept between runs of `allot watch
// --once` so that each run prints only what changed since the one before:
// a small file in the state directory, bounded, written whole.
const (
	// LooksName is the file's name inside the state directory.
	LooksName    = "watch.json"
	maxLooksFile = 1 << 20
	maxLooksKept = 1000
)

// Looks are the last looks, by a key the caller makes of the deployment
// and the allocation.
type Looks map[string]Snapshot

// ReadLooks reads the looks kept in dir. None kept is an empty set; a
// file that cannot be read is an empty set and the error says why (the
// next WriteLooks replaces it).
func ReadLooks(dir string) (Looks, error) {
	f, err := os.Open(filepath.Join(dir, LooksName))
	if errors.Is(err, os.ErrNotExist) {
		return Looks{}, nil
	}
	if err != nil {
		return Looks{}, fmt.Errorf("the last looks: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLooksFile+1))
	switch {
	case err != nil:
		return Looks{}, fmt.Errorf("the last looks: %w", err)
	case len(data) > maxLooksFile:
		return Looks{}, fmt.Errorf("the last looks: %s is larger than %d bytes: starting afresh", f.Name(), maxLooksFile)
	}
	var looks Looks
	if err := json.Unmarshal(data, &looks); err != nil {
		return Looks{}, fmt.Errorf("the last looks: %s does not read as allot's: starting afresh: %v", f.Name(), err)
	}
	for k, s := range looks {
		if !s.written() {
			delete(looks, k)
		}
	}
	return looks, nil
}

// WriteLooks keeps looks in dir, the newest maxLooksKept, replacing the
// file whole (a new file renamed over it).
func WriteLooks(dir string, looks Looks) error {
	if len(looks) > maxLooksKept {
		keys := make([]string, 0, len(looks))
		for k := range looks {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return looks[keys[i]].At.After(looks[keys[j]].At) })
		for _, k := range keys[maxLooksKept:] {
			delete(looks, k)
		}
	}
	data, err := json.Marshal(looks)
	if err != nil {
		return fmt.Errorf("keep the looks: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, LooksName), data); err != nil {
		return fmt.Errorf("keep the looks: %w", err)
	}
	return nil
}

// written reports whether s could be a look allot wrote: an amount
// vested, and no amount below zero.
func (s Snapshot) written() bool {
	if s.Vested == nil {
		return false
	}
	for _, x := range []*big.Int{s.Vested, s.Claimable, s.Withdrawn} {
		if x != nil && x.Sign() < 0 {
			return false
		}
	}
	return true
}
