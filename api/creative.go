package api

import (
	"mime"
	"net/http"
	"path/filepath"
	"strings"
)

// creativeExtensions name the media type of the allowed types' extensions,
// for content the sniffer does not know (MP3 without an ID3 tag, WebM
// audio, Ogg Opus).
var creativeExtensions = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".mp4": "video/mp4", ".m4v": "video/mp4", ".webm": "video/webm",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".oga": "audio/ogg", ".opus": "audio/ogg",
}

// CreativeType decides the media type of a creative from its first bytes
// (up to 512), and from the extension of name only when the bytes say
// nothing (binary of no known kind): text named .png stays text, and is
// then refused by Validate. The sniffer's names for WAV and Ogg become the
// ones D12 lists. fromContent says which of the two decided.
func CreativeType(head []byte, name string) (contentType string, fromContent bool) {
	ct := http.DetectContentType(head)
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		ct = mt
	}
	switch ct {
	case "audio/wave", "audio/x-wav", "audio/vnd.wave":
		ct = "audio/wav"
	case "application/ogg":
		ct = "audio/ogg"
	}
	if ct == "application/octet-stream" {
		if byExt, ok := creativeExtensions[strings.ToLower(filepath.Ext(name))]; ok {
			return byExt, false
		}
	}
	return ct, true
}

// Statuses lists the distinct statuses of the created transactions, in
// order, comma-separated: what the journal records of a creation.
func (r *TransactionsResult) Statuses() string {
	seen := map[string]bool{}
	var out []string
	for _, tx := range r.Transactions {
		if !seen[tx.Status] {
			seen[tx.Status] = true
			out = append(out, tx.Status)
		}
	}
	return strings.Join(out, ",")
}
