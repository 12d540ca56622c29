package history

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/atomicfile"
)

// maxBirthFile bounds the births file read: past it the file is not
// believed (and is replaced on the next birth found).
const maxBirthFile = 1 << 20

// maxBirths bounds the contracts remembered; past it the file starts
// over with the birth just found.
const maxBirths = 4096

// BirthFile keeps first blocks in the JSON file at path, by chain id and
// address ({"births": {"31337/0x…": 1234}}), for the runs that follow.
// The file is a cache: one that is missing, unreadable, too large or
// damaged is as good as empty, and each birth found is merged into what
// the file holds at that moment (another allot may have written it) and
// written whole (atomicfile). A failed write loses only the hint.
func BirthFile(path string) Births { return &birthFile{path: path} }

type birthFile struct {
	path string
	mu   sync.Mutex
}

type birthsOnDisk struct {
	Births map[string]uint64 `json:"births"`
}

func birthName(chain uint64, addr common.Address) string {
	return strconv.FormatUint(chain, 10) + "/" + addr.Hex()
}

func (b *birthFile) read() map[string]uint64 {
	f, err := os.Open(b.path)
	if err != nil {
		return map[string]uint64{}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBirthFile+1))
	var disk birthsOnDisk
	if err != nil || len(data) > maxBirthFile || json.Unmarshal(data, &disk) != nil || len(disk.Births) > maxBirths {
		return map[string]uint64{}
	}
	for name := range disk.Births {
		if !validBirthName(name) {
			delete(disk.Births, name)
		}
	}
	if disk.Births == nil {
		return map[string]uint64{}
	}
	return disk.Births
}

// validBirthName holds for "CHAIN/0xADDRESS" as birthName writes it.
func validBirthName(name string) bool {
	chain, addr, ok := strings.Cut(name, "/")
	if !ok || !common.IsHexAddress(addr) || !strings.HasPrefix(addr, "0x") {
		return false
	}
	_, err := strconv.ParseUint(chain, 10, 64)
	return err == nil
}

func (b *birthFile) Birth(chain uint64, addr common.Address) (uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.read()[birthName(chain, addr)]
	return n, ok
}

func (b *birthFile) Remember(chain uint64, addr common.Address, n uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	births := b.read()
	if old, ok := births[birthName(chain, addr)]; ok && old == n {
		return
	}
	if len(births) >= maxBirths {
		births = map[string]uint64{}
	}
	births[birthName(chain, addr)] = n
	data, err := json.MarshalIndent(birthsOnDisk{Births: births}, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(b.path), 0o700) != nil {
		return
	}
	// A cache: a failed write loses only the hint.
	_ = atomicfile.Write(b.path, append(data, '\n'))
}
