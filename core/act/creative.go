package act

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// maxFileName is the longest fileName the service takes (docs/deployment.md D12).
const maxFileName = 128

// StoredName is the name a creative is stored under unless the user asks
// to replace one: the file's name with a short hash of its content before
// the extension (logo.png: logo-1a2b3c4d.png). Uploading under a name used
// before replaces that asset's bytes, and every public URL of the name
// then serves the new file; a content hash keeps two different files
// apart, and the same file under the same name. The result keeps the rules
// of docs/deployment.md D12 (1..128 of [A-Za-z0-9._-], no leading dot)
// when name does.
func StoredName(name string, content io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, content); err != nil {
		return "", fmt.Errorf("hash %s: %w", name, err)
	}
	tag := "-" + hex.EncodeToString(h.Sum(nil))[:8]
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if stem == "" { // a name that is all extension keeps it whole
		stem, ext = name, ""
	}
	if over := len(stem) + len(tag) + len(ext) - maxFileName; over > 0 {
		stem = stem[:max(len(stem)-over, 1)]
	}
	return stem + tag + ext, nil
}
