package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Creative rules of D12.
const (
	// MaxUploadSize bounds one uploaded asset.
	MaxUploadSize = 50 << 20
	// UploadURLLifetime is how long an upload URL accepts its PUT.
	UploadURLLifetime = 15 * time.Minute
	// storagePrefix starts every storage key: portal-assets/SLUG/FILE.
	storagePrefix = "portal-assets/"
	maxFileName   = 128
	maxPortalSlug = 64
)

// contentTypes are the media types a creative may have: images,
// animations (video) and audio.
var contentTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"video/mp4": true, "video/webm": true,
	"audio/mpeg": true, "audio/wav": true, "audio/ogg": true,
}

// upload is an asset received at an upload URL.
type upload struct {
	contentType string
	data        []byte
}

type uploadURLResult struct {
	UploadURL  string `json:"uploadUrl"`
	StorageKey string `json:"storageKey"`
	PublicURL  string `json:"publicUrl"`
}

type creativeResult struct {
	ID         string `json:"id"`
	StorageKey string `json:"storageKey"`
	PublicURL  string `json:"publicUrl"`
}

// uploadURL serves portals/creatives/upload-url: a PUT address signed for
// one storage key and content type, valid for UploadURLLifetime.
func (s *Server) uploadURL(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	if name, ok := o.string("fileName", true); ok && !isFileName(name) {
		p.addf("fileName", "must be 1 to %d of the characters A-Z a-z 0-9 . _ - and not start with a dot", maxFileName)
	}
	if ct, ok := o.string("contentType", true); ok && !contentTypes[ct] {
		p.add("contentType", "must be one of image/png, image/jpeg, image/gif, image/webp, video/mp4, video/webm, audio/mpeg, audio/wav, audio/ogg")
	}
	if slug, ok := o.string("portalSlug", true); ok && !isSlug(slug) {
		p.addf("portalSlug", "must be 1 to %d of the characters a-z 0-9 -", maxPortalSlug)
	}
	if !p.ok() {
		return nil, p.err()
	}
	fileName, _ := o.string("fileName", true)
	contentType, _ := o.string("contentType", true)
	slug, _ := o.string("portalSlug", true)
	key := storagePrefix + slug + "/" + fileName
	expires := strconv.FormatInt(s.clock().Add(UploadURLLifetime).Unix(), 10)
	q := url.Values{}
	q.Set("contentType", contentType)
	q.Set("expires", expires)
	q.Set("signature", s.signUpload(key, contentType, expires))
	return uploadURLResult{
		UploadURL:  s.publicURL + uploadsPath + key + "?" + q.Encode(),
		StorageKey: key,
		PublicURL:  s.assetURL(key),
	}, nil
}

func (s *Server) assetURL(key string) string { return s.publicURL + assetsPath + key }

// signUpload is the HMAC-SHA256 of what an upload URL grants.
func (s *Server) signUpload(key, contentType, expires string) string {
	mac := hmac.New(sha256.New, s.uploadKey)
	io.WriteString(mac, key+"\n"+contentType+"\n"+expires)
	return hex.EncodeToString(mac.Sum(nil))
}

// createCreative serves portals/creatives/create: it registers an uploaded
// asset.
func (s *Server) createCreative(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	key, ok := o.string("storageKey", true)
	if ok && !isStorageKey(key) {
		p.add("storageKey", "must be a storage key from upload-url: portal-assets/SLUG/FILE")
	}
	o.text("name", true)
	if !p.ok() {
		return nil, p.err()
	}
	s.mu.Lock()
	_, uploaded := s.uploads[key]
	s.mu.Unlock()
	if !uploaded {
		return nil, errInvalid("storageKey", "nothing was uploaded under this storage key")
	}
	return creativeResult{ID: uuid.NewString(), StorageKey: key, PublicURL: s.assetURL(key)}, nil
}

// uploadError is the body of a refused upload.
type uploadError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// receiveUpload takes the PUT of an upload URL.
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, code, message string) {
		writeJSON(w, status, uploadError{code, message})
	}
	key := r.PathValue("key")
	q := r.URL.Query()
	contentType, expires, signature := q.Get("contentType"), q.Get("expires"), q.Get("signature")
	if !isStorageKey(key) || !hmac.Equal([]byte(signature), []byte(s.signUpload(key, contentType, expires))) {
		refuse(http.StatusForbidden, "INVALID_SIGNATURE", "the upload URL is not one this sandbox signed")
		return
	}
	deadline, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || !s.clock().Before(time.Unix(deadline, 0)) {
		refuse(http.StatusForbidden, "EXPIRED", "the upload URL has expired: ask for a new one")
		return
	}
	if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != contentType {
		refuse(http.StatusUnsupportedMediaType, "CONTENT_TYPE_MISMATCH", "Content-Type must be "+contentType+", as the upload URL was requested")
		return
	}
	if r.ContentLength > MaxUploadSize {
		refuse(http.StatusRequestEntityTooLarge, "TOO_LARGE", "an asset may have at most 50 MiB")
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxUploadSize+1))
	switch {
	case err != nil:
		refuse(http.StatusBadRequest, "READ_FAILED", "the upload could not be read")
		return
	case len(data) > MaxUploadSize:
		refuse(http.StatusRequestEntityTooLarge, "TOO_LARGE", "an asset may have at most 50 MiB")
		return
	case len(data) == 0:
		refuse(http.StatusBadRequest, "EMPTY", "the upload is empty")
		return
	}
	if err := s.store(key, contentType, data); err != nil {
		refuse(http.StatusInsufficientStorage, "STORAGE_FULL", "the sandbox holds as many uploads as it can: restart it")
		return
	}
	s.record(strings.TrimPrefix(r.URL.Path, "/"), "", data)
	w.WriteHeader(http.StatusOK)
}

var errStorageFull = errors.New("upload storage full")

func (s *Server) store(key, contentType string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	size := s.uploadBytes + int64(len(data))
	if old := s.uploads[key]; old != nil {
		size -= int64(len(old.data))
	}
	if size > s.uploadLimit || len(s.journal) >= maxWrites {
		return errStorageFull
	}
	s.uploads[key] = &upload{contentType: contentType, data: data}
	s.uploadBytes = size
	return nil
}

// serveAsset serves an uploaded asset at its public URL.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	u := s.uploads[r.PathValue("key")]
	s.mu.Unlock()
	if u == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", u.contentType)
	h.Set("Content-Length", strconv.Itoa(len(u.data)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(u.data)
}

// isFileName checks a creative's file name (D12).
func isFileName(s string) bool {
	if s == "" || len(s) > maxFileName || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLowerAlnum(c) || 'A' <= c && c <= 'Z' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isSlug checks a portal slug (D12).
func isSlug(s string) bool {
	if s == "" || len(s) > maxPortalSlug {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// isStorageKey checks portal-assets/SLUG/FILE.
func isStorageKey(key string) bool {
	rest, ok := strings.CutPrefix(key, storagePrefix)
	if !ok {
		return false
	}
	slug, file, ok := strings.Cut(rest, "/")
	return ok && isSlug(slug) && isFileName(file)
}
