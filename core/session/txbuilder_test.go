package session

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadTxBuilderRefusesWhatIsNoFile: a folder or a fifo given as a
// Transaction Builder file is refused before it is opened, so that the
// import never waits for ever on a writer that never comes.
func TestReadTxBuilderRefusesWhatIsNoFile(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "batch.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	for _, path := range []string{t.TempDir(), fifo} {
		_, err := ReadTxBuilder(path)
		var refused *TxBuilderRefusal
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("ReadTxBuilder(%s) = %v, want a refusal: not a regular file", path, err)
		}
	}
}
