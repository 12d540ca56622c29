package api

import (
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxFileName bounds a stored file name (D12).
const maxFileName = 128

// ValidFileName reports whether the service stores a file under name
// (D12: 1 to 128 letters, digits, '.', '_' or '-', not starting with '.').
func ValidFileName(name string) bool { return fileNamePattern.MatchString(name) }

// FileNameFor is a name the service stores, made from name, a file's own
// that it may not store ("été 2026 🎉.png" is "ete-2026.png"): accents are
// taken off their letters, every other run of what the service does not
// take becomes one '-', and the extension is kept. A name it stores is
// returned as it is; one with nothing left of it is "creative" with its
// extension.
func FileNameFor(name string) string {
	if ValidFileName(name) {
		return name
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	stem = strings.Trim(plainName(stem), "-.")
	ext = strings.Trim(plainName(ext), "-")
	if ext == "." {
		ext = ""
	}
	if stem == "" {
		stem = "creative"
	}
	if over := len(stem) + len(ext) - maxFileName; over > 0 {
		stem = strings.TrimRight(stem[:max(len(stem)-over, 1)], "-.")
	}
	return stem + ext
}

// plainName is s with its letters' accents off (é is e), and each run of
// characters a stored name may not hold made one '-'.
func plainName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r): // an accent, decomposed off its letter
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-'):
			b.WriteRune(r)
			dash = r == '-'
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	return b.String()
}
