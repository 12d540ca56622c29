package sandbox

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

type uploadURLBody struct {
	UploadURL  string `json:"uploadUrl"`
	StorageKey string `json:"storageKey"`
	PublicURL  string `json:"publicUrl"`
}

func (e *env) uploadURL(fileName, contentType string) uploadURLBody {
	e.t.Helper()
	var u uploadURLBody
	e.admin("POST", "portals/creatives/upload-url", obj{"fileName": fileName, "contentType": contentType, "portalSlug": e.fx.PortalSlug}).result(e.t, &u)
	return u
}

func put(t *testing.T, rawURL, contentType string, body io.Reader) response {
	t.Helper()
	req, err := http.NewRequest("PUT", rawURL, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, data}
}

func get(t *testing.T, rawURL string) response {
	t.Helper()
	res, err := http.Get(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, data}
}

func TestUploadFlow(t *testing.T) {
	e := newEnv(t, Options{})
	png := []byte("\x89PNG\r\n\x1a\n fake image bytes")
	u := e.uploadURL("hero-banner_v2.png", "image/png")
	if u.StorageKey != "portal-assets/"+e.fx.PortalSlug+"/hero-banner_v2.png" ||
		u.PublicURL != e.url+"/_sandbox/assets/"+u.StorageKey || !strings.HasPrefix(u.UploadURL, e.url+"/_sandbox/uploads/"+u.StorageKey+"?") {
		t.Fatalf("upload URL %+v", u)
	}

	// Nothing uploaded yet: no asset, no creative.
	if r := get(t, u.PublicURL); r.status != http.StatusNotFound {
		t.Errorf("asset before upload: %d", r.status)
	}
	e.admin("POST", "portals/creatives/create", obj{"storageKey": u.StorageKey, "name": "Hero"}).
		wantAdminError(t, http.StatusBadRequest, kindValidation, "storageKey")

	if r := put(t, u.UploadURL, "image/png", bytes.NewReader(png)); r.status != http.StatusOK {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	r := get(t, u.PublicURL)
	if r.status != http.StatusOK || !bytes.Equal(r.body, png) || r.header.Get("Content-Type") != "image/png" || r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("asset: %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}

	var c struct {
		ID         string `json:"id"`
		StorageKey string `json:"storageKey"`
		PublicURL  string `json:"publicUrl"`
	}
	e.admin("POST", "portals/creatives/create", obj{"storageKey": u.StorageKey, "name": "Hero banner"}).result(t, &c)
	if !isUUID(c.ID) || c.StorageKey != u.StorageKey || c.PublicURL != u.PublicURL {
		t.Errorf("creative %+v", c)
	}
	ops := []string{}
	for _, entry := range e.srv.Journal() {
		ops = append(ops, entry.Operation)
	}
	want := "portals/creatives/upload-url _sandbox/uploads/" + u.StorageKey + " portals/creatives/create"
	if strings.Join(ops, " ") != want {
		t.Errorf("journal %v, want %s", ops, want)
	}
	if entry := e.srv.Journal()[1]; entry.BodySHA256 != sha256Hex(png) {
		t.Error("the upload's journal entry does not hash its bytes")
	}
}

func TestUploadRefusals(t *testing.T) {
	e := newEnv(t, Options{})
	u := e.uploadURL("clip.mp4", "video/mp4")
	t.Run("wrong content type", func(t *testing.T) {
		r := put(t, u.UploadURL, "image/png", strings.NewReader("x"))
		if r.status != http.StatusUnsupportedMediaType || !strings.Contains(string(r.body), "CONTENT_TYPE_MISMATCH") {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("tampered content type", func(t *testing.T) {
		tampered := strings.Replace(u.UploadURL, "video%2Fmp4", "image%2Fpng", 1)
		if r := put(t, tampered, "image/png", strings.NewReader("x")); r.status != http.StatusForbidden {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("tampered key", func(t *testing.T) {
		tampered := strings.Replace(u.UploadURL, "clip.mp4", "clip2.mp4", 1)
		if r := put(t, tampered, "video/mp4", strings.NewReader("x")); r.status != http.StatusForbidden {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("no signature", func(t *testing.T) {
		parsed, _ := url.Parse(u.UploadURL)
		if r := put(t, e.url+parsed.Path, "video/mp4", strings.NewReader("x")); r.status != http.StatusForbidden {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("empty", func(t *testing.T) {
		if r := put(t, u.UploadURL, "video/mp4", strings.NewReader("")); r.status != http.StatusBadRequest {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("too large", func(t *testing.T) {
		// Streamed without a length: the sandbox stops reading past the limit.
		body := io.MultiReader(io.LimitReader(zeros{}, MaxUploadSize), strings.NewReader("!"))
		r := put(t, u.UploadURL, "video/mp4", struct{ io.Reader }{body})
		if r.status != http.StatusRequestEntityTooLarge {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("exactly the limit", func(t *testing.T) {
		if r := put(t, u.UploadURL, "video/mp4", io.LimitReader(zeros{}, MaxUploadSize)); r.status != http.StatusOK {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	t.Run("expired", func(t *testing.T) {
		fresh := e.uploadURL("late.mp4", "video/mp4")
		e.clock.Advance(UploadURLLifetime)
		r := put(t, fresh.UploadURL, "video/mp4", strings.NewReader("x"))
		if r.status != http.StatusForbidden || !strings.Contains(string(r.body), "EXPIRED") {
			t.Errorf("%d %s", r.status, r.body)
		}
	})
	for _, entry := range e.srv.Journal() {
		if strings.HasPrefix(entry.Operation, "_sandbox/uploads/") && entry.BodySHA256 == sha256Hex([]byte("x")) {
			t.Errorf("a refused upload was journaled: %+v", entry)
		}
	}
}

func TestUploadStorageBound(t *testing.T) {
	e := newEnv(t, Options{UploadStorage: 10})
	a, b := e.uploadURL("a.gif", "image/gif"), e.uploadURL("b.gif", "image/gif")
	if r := put(t, a.UploadURL, "image/gif", strings.NewReader("12345678")); r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := put(t, b.UploadURL, "image/gif", strings.NewReader("12345")); r.status != http.StatusInsufficientStorage {
		t.Errorf("over the bound: %d %s", r.status, r.body)
	}
	// Replacing a file counts its new size only.
	if r := put(t, a.UploadURL, "image/gif", strings.NewReader("1234567890")); r.status != http.StatusOK {
		t.Errorf("replace: %d %s", r.status, r.body)
	}
}

func TestUploadURLValidation(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		name, file, contentType, slug, path string
	}{
		{"leading dot", ".hidden.png", "image/png", "p", "fileName"},
		{"slash", "a/b.png", "image/png", "p", "fileName"},
		{"backslash", `a\b.png`, "image/png", "p", "fileName"},
		{"space", "a b.png", "image/png", "p", "fileName"},
		{"too long", strings.Repeat("a", 129), "image/png", "p", "fileName"},
		{"empty file", "", "image/png", "p", "fileName"},
		{"svg", "a.svg", "image/svg+xml", "p", "contentType"},
		{"text", "a.txt", "text/plain", "p", "contentType"},
		{"content type with parameters", "a.png", "image/png; q=1", "p", "contentType"},
		{"uppercase slug", "a.png", "image/png", "Portal", "portalSlug"},
		{"empty slug", "a.png", "image/png", "", "portalSlug"},
		{"long slug", "a.png", "image/png", strings.Repeat("p", 65), "portalSlug"},
		{"slug with slash", "a.png", "image/png", "p/q", "portalSlug"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.admin("POST", "portals/creatives/upload-url", obj{"fileName": tc.file, "contentType": tc.contentType, "portalSlug": tc.slug}).
				wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
		})
	}
	for _, ct := range []string{"image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm", "audio/mpeg", "audio/wav", "audio/ogg"} {
		e.uploadURL(strings.Repeat("x", 120)+".file", ct)
	}
	for _, tc := range []struct {
		name string
		body obj
		path string
	}{
		{"no storage key", obj{"name": "n"}, "storageKey"},
		{"foreign storage key", obj{"storageKey": "../etc/passwd", "name": "n"}, "storageKey"},
		{"no name", obj{"storageKey": "portal-assets/p/a.png"}, "name"},
		{"empty name", obj{"storageKey": "portal-assets/p/a.png", "name": ""}, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.admin("POST", "portals/creatives/create", tc.body).wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
		})
	}
}

// zeros reads zero bytes forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
