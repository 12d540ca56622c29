package creative

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/api/sandbox"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/write"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/transactions"
	"allot/viewstest"
)

// writePNG writes a small PNG image to dir/name and returns its bytes.
func writePNG(t *testing.T, dir, name string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 4 {
		img.Set(i, i, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// onLogo opens the upload screen at w x h on a folder holding
// logo.png, a small PNG, and chooses it.
func onLogo(t *testing.T, opts sandbox.Options, w, h int) (*views.Context, *viewstest.Driver, *creative) {
	t.Helper()
	ctx := viewstest.Journaled(t, opts)
	dir := t.TempDir()
	writePNG(t, dir, "logo.png")
	d := viewstest.NewDriver(t, newCreative(ctx, dir), w, h)
	c := d.S.(*creative)
	choose(d, "logo.png")
	d.Until("the details", func() bool { return c.state == stageDetails })
	return ctx, d, c
}

// choose moves the picker to the file called name and chooses it.
func choose(d *viewstest.Driver, name string) {
	d.T.Helper()
	c := d.S.(*creative)
	d.Until("the directory listing", func() bool { return strings.Contains(c.View(), name) })
	for range 20 {
		if strings.Contains(ansi.Strip(c.View()), "▶") && selectedLine(c.View(), name) {
			d.Keys("enter")
			return
		}
		d.Keys("down")
	}
	d.T.Fatalf("cannot select %s:\n%s", name, c.View())
}

func selectedLine(view, name string) bool {
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.HasPrefix(l, "▶") && strings.HasSuffix(strings.TrimSpace(l), name) {
			return true
		}
	}
	return false
}

func TestCreativeUploadEndToEnd(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	data := writePNG(t, dir, "logo.png")
	os.WriteFile(filepath.Join(dir, "a-notes.txt"), []byte("hello"), 0o600)
	d := viewstest.NewDriver(t, newCreative(ctx, dir), 100, 30)
	c := d.S.(*creative)
	choose(d, "logo.png")
	d.Until("the details", func() bool { return c.state == stageDetails })
	if c.file.Type != "image/png" || c.file.Size != int64(len(data)) || c.portalF.Value() != ctx.Session.Fixtures.PortalSlug || c.nameF.Value() != "logo.png" {
		t.Fatalf("file %+v, portal %q, name %q", c.file, c.portalF.Value(), c.nameF.Value())
	}
	if !c.Mode().TakesKeys {
		t.Fatal("the details form must take every key")
	}
	d.Keys("ctrl+e", "ctrl+u")
	d.Type("Brand logo")
	d.Keys("ctrl+s")
	if c.state != stageReview {
		t.Fatalf("not reviewing: %q\n%s", c.message, c.View())
	}
	// Compared without white space: a long line wraps where it may.
	review := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(c.View()), "│", "")), "")
	for _, want := range []string{"logo.png", "image/png (from the content)", "Portal: meridian-community", "Name: Brand logo", views.ByteSize(int64(len(data))),
		`POST portals/creatives/create {"storageKey":"(from the upload URL answer)","name":"Brand logo"}`,
		`POST portals/creatives/upload-url {"fileName":"` + c.file.Unique + `","contentType":"image/png","portalSlug":"meridian-community"}`} {
		if !strings.Contains(review, strings.Join(strings.Fields(want), "")) {
			t.Errorf("review lacks %q:\n%s", want, c.View())
		}
	}
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
		t.Fatalf("sent before the confirmation: %v", w)
	}
	d.Keys("y")
	d.Until("the public URL", func() bool { return c.state == stageDone || c.state == stageFailed })
	if c.state != stageDone {
		t.Fatalf("failed: %s", c.err)
	}
	if !strings.Contains(strings.Join(strings.Fields(c.View()), ""), c.result.PublicURL) || c.result.PublicURL == "" {
		t.Fatalf("view:\n%s", c.View())
	}
	writes := viewstest.Writes(t, ctx.Journal)
	if len(writes) != 2 || writes[0].Op != "portals/creatives/upload-url" || writes[1].Op != "portals/creatives/create" || writes[0].Ref != "logo.png" {
		t.Fatalf("journal %+v", writes)
	}
	var urlReq api.UploadURLRequest
	var createReq api.CreateCreativeRequest
	json.Unmarshal(writes[0].Data, &urlReq)
	json.Unmarshal(writes[1].Data, &createReq)
	if urlReq != (api.UploadURLRequest{FileName: c.file.Unique, ContentType: "image/png", PortalSlug: "meridian-community"}) || !strings.HasPrefix(c.file.Unique, "logo-") ||
		createReq.Name != "Brand logo" || createReq.StorageKey != c.result.StorageKey {
		t.Fatalf("sent %+v and %+v", urlReq, createReq)
	}
	// The upload URL, a capability, is not in the journal.
	res, _ := ctx.Journal.Read()
	for _, e := range res.Entries {
		if strings.Contains(string(e.Data), "uploadUrl") {
			t.Fatalf("journal keeps the upload URL: %s", e.Data)
		}
	}
	// The sandbox received the file's bytes, byte for byte.
	sum := sha256.Sum256(data)
	uploaded := false
	for _, e := range ctx.Session.Applied() {
		if strings.HasPrefix(e.Operation, "_sandbox/uploads/") && e.BodySHA256 == hex.EncodeToString(sum[:]) {
			uploaded = true
		}
	}
	if !uploaded {
		t.Fatalf("no upload of the file's bytes in %+v", ctx.Session.Applied())
	}
	if c.sent != int64(len(data)) || !strings.Contains(ansi.Strip(c.View()), "Public URL") {
		t.Fatalf("sent %d", c.sent)
	}
	d.Keys("c")
	want := views.StatusMsg{Text: "copied " + sanitize.Truncate(c.result.PublicURL, 48) + " (OSC 52)"}
	d.Until("the copy", func() bool { return len(d.Got) > 0 && d.Got[len(d.Got)-1] == want })
	d.Keys("esc")
	d.Until("the page closing", func() bool { return d.Got[len(d.Got)-1] == (views.BackMsg{}) })
}

// A file the portal would refuse is refused before any request.
func TestCreativeRefusedBeforeAnyRequest(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	big, err := os.Create(filepath.Join(dir, "big.png"))
	if err != nil {
		t.Fatal(err)
	}
	big.Write([]byte("\x89PNG\r\n\x1a\n"))
	big.Truncate(api.MaxCreativeSize + 1)
	big.Close()
	os.WriteFile(filepath.Join(dir, "fake.png"), []byte("just some text, not an image"), 0o600)
	os.WriteFile(filepath.Join(dir, "page.html"), []byte("<html><body>hi</body></html>"), 0o600)
	os.WriteFile(filepath.Join(dir, "empty.png"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, ".hidden.png"), []byte("\x89PNG\r\n\x1a\nxxxx"), 0o600)
	for _, tc := range []struct{ file, want string }{
		{"big.png", "more than the 50 MiB"},
		{"fake.png", `"text/plain" is not allowed`},
		{"page.html", `"text/html" is not allowed`},
		{"empty.png", "is empty"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d := viewstest.NewDriver(t, newCreative(ctx, dir), 80, 24)
			c := d.S.(*creative)
			choose(d, tc.file)
			d.Until("the refusal", func() bool { return c.pickErr != "" || c.state != stagePick })
			view := strings.ReplaceAll(c.View(), "\n", " ")
			if c.state != stagePick || !strings.Contains(view, tc.want) || !strings.Contains(view, tc.file) {
				t.Fatalf("state %d, view:\n%s", c.state, c.View())
			}
			// A type refusal names every allowed type, wrapped at 80.
			if last := api.CreativeContentTypes[len(api.CreativeContentTypes)-1]; strings.Contains(tc.want, "not allowed") && !strings.Contains(view, last) {
				t.Errorf("the allowed types are cut before %s:\n%s", last, c.View())
			}
			if n := len(strings.Split(c.View(), "\n")); n > 24 {
				t.Errorf("%d lines at 80x24", n)
			}
		})
	}
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
		t.Fatalf("journal %v", w)
	}
}

func TestCreativeCancelSendsNothing(t *testing.T) {
	ctx, d, c := onLogo(t, sandbox.Options{}, 80, 22)
	d.Keys("ctrl+s")
	lines := strings.Split(c.View(), "\n")
	if c.state != stageReview || len(lines) > 22 || !strings.Contains(c.View(), "[ Yes ]") {
		t.Fatalf("review at 80x22 (%d lines):\n%s", len(lines), c.View())
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > 80 {
			t.Fatalf("line %d is %d wide", i, ansi.StringWidth(l))
		}
	}
	d.Keys("n") // no: back to the details
	d.Until("the details again", func() bool { return c.state == stageDetails })
	d.Keys("ctrl+s", "esc")
	d.Until("the details after esc", func() bool { return c.state == stageDetails })
	d.Keys("esc") // back to the picker
	if c.state != stagePick || c.Mode().OwnsEsc {
		t.Fatalf("state %d", c.state)
	}
	d.Keys("esc") // close
	d.Until("the page closing", func() bool { return len(d.Got) > 0 && d.Got[len(d.Got)-1] == (views.BackMsg{}) })
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
		t.Fatalf("journal %v", w)
	}
	var res journal.ReadResult
	res, _ = ctx.Journal.Read()
	if len(res.Entries) != 0 {
		t.Fatalf("journal %v", res.Entries)
	}
}

func TestCreativePortalCheckedInPlace(t *testing.T) {
	ctx, d, c := onLogo(t, sandbox.Options{}, 100, 30)
	d.Keys("tab", "ctrl+e", "ctrl+u")
	d.Type("Bad Slug")
	if got := viewstest.ErrUnder(c.View(), "Portal"); !strings.Contains(got, "lowercase letters, digits or '-'") {
		t.Fatalf("under the portal: %q\n%s", got, c.View())
	}
	d.Keys("shift+tab", "ctrl+e", "ctrl+u")
	d.Keys("ctrl+s")
	if c.state != stageDetails || viewstest.ErrUnder(c.View(), "Name") == "" {
		t.Fatalf("reviewed with errors:\n%s", c.View())
	}
	if w := viewstest.Writes(t, ctx.Journal); len(w) != 0 {
		t.Fatalf("journal %v", w)
	}
}

func TestCreativeSniff(t *testing.T) {
	pngHead := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	riffWave := append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 20)...)
	for _, tc := range []struct {
		name       string
		head       []byte
		want, from string
	}{
		{"a.png", pngHead, "image/png", "content"},
		{"a.jpg", pngHead, "image/png", "content"}, // the bytes win over the name
		{"a.wav", riffWave, "audio/wav", "content"},
		{"a.mp3", []byte{0xff, 0xfb, 0x90, 0x00, 0x01, 0x02}, "audio/mpeg", "extension"},
		{"a.opus", []byte{0x00, 0x01, 0x02, 0xff}, "audio/ogg", "extension"},
		{"a.png", []byte("plain text"), "text/plain", "content"},
		{"a.bin", []byte{0x00, 0x01, 0x02, 0xff}, "application/octet-stream", "content"},
	} {
		ct, from := sniff(tc.head, tc.name)
		if ct != tc.want || from != tc.from {
			t.Errorf("%s: %s from %s, want %s from %s", tc.name, ct, from, tc.want, tc.from)
		}
	}
}

func TestCreativeCounterNeverBlocks(t *testing.T) {
	ch := make(chan int64, 1)
	r := &countingReader{r: strings.NewReader(strings.Repeat("x", 10000)), ch: ch}
	buf := make([]byte, 100)
	for {
		if _, err := r.Read(buf); err != nil {
			break
		}
	}
	if got := <-ch; got != 10000 {
		t.Fatalf("latest count %d, want 10000", got)
	}
}

// appliedCount counts the writes the sandbox applied whose operation starts
// with prefix.
func appliedCount(ctx *views.Context, prefix string) int {
	n := 0
	for _, e := range ctx.Session.Applied() {
		if strings.HasPrefix(e.Operation, prefix) {
			n++
		}
	}
	return n
}

// TestCreativeRegisterAgain: the registration's answer is unreadable (the
// sandbox applied it, then sent a cut-off body), so the outcome is
// unknown. The screen checks at once: the service applied it, which the
// journal now records, and the creative is not registered again (r sends
// nothing); the file is not uploaded twice.
func TestCreativeRegisterAgain(t *testing.T) {
	// Seed 47 draws: no fault, no fault, a malformed answer; the requests
	// are the upload URL, the upload and the registration.
	ctx, d, c := onLogo(t, sandbox.Options{Faults: sandbox.Faults{Malformed: 0.5, Seed: 47}}, 100, 30)
	d.Keys("ctrl+s", "y")
	// The check starts as the answer is lost; wait for its verdict too.
	d.Until("the failure, checked", func() bool {
		return c.state == stageDone || c.state == stageFailed && !c.outcome.Checking()
	})
	view := strings.Join(strings.Fields(ansi.Strip(c.View())), " ")
	if c.state != stageFailed || !strings.Contains(c.err, "register") || !strings.Contains(view, "may or may not be registered") ||
		!strings.Contains(view, "Checked: the service applied it") || strings.Contains(view, "r: register") {
		t.Fatalf("state %d, err %q, view:\n%s", c.state, c.err, c.View())
	}
	if n := appliedCount(ctx, "portals/creatives/create"); n != 1 {
		t.Fatalf("the sandbox applied %d registrations, want the one whose answer was cut", n)
	}
	d.Keys("r")
	if c.state != stageFailed || len(viewstest.Writes(t, ctx.Journal)) != 2 {
		t.Fatalf("r after the check found it applied: state %d, writes %v", c.state, viewstest.Writes(t, ctx.Journal))
	}
	if v := strings.Join(strings.Fields(ansi.Strip(c.View())), " "); !strings.Contains(v, "The service applied it: it is not sent again.") {
		t.Errorf("r does not say why it sends nothing:\n%s", c.View())
	}
	rows, err := transactions.Read(ctx.Journal, ctx.Session.Deployment())
	if err != nil || len(rows) != 1 || rows[0].Kind != "creative" || rows[0].Status != act.StatusApplied {
		t.Fatalf("Transactions: %+v, %v; want the registration %q", rows, err, act.StatusApplied)
	}
	if n := appliedCount(ctx, "_sandbox/uploads/"); n != 1 {
		t.Fatalf("the file was uploaded %d times", n)
	}
}

// lostSeed draws, with Reset 0.5: no fault, no fault, a reset before the
// sandbox applied the request, then no fault; the requests are the upload
// URL, the upload, the registration and the registration again.
const lostSeed = 69

// TestCreativeRegisterLostNotApplied: the registration's answer is lost
// and the check finds it was not applied: r asks the question every such
// write is asked (views.ResendQuestion), and y registers the uploaded file
// once more, the same bytes, without uploading it again.
func TestCreativeRegisterLostNotApplied(t *testing.T) {
	ctx, d, c := onLogo(t, sandbox.Options{Faults: sandbox.Faults{Reset: 0.5, Seed: lostSeed}}, 100, 30)
	d.Keys("ctrl+s", "y")
	d.Until("the failure, checked", func() bool {
		return (c.state == stageFailed || c.state == stageDone) && !c.outcome.Checking()
	})
	flat := func() string { return strings.Join(strings.Fields(ansi.Strip(c.View())), " ") }
	if c.state != stageFailed || !strings.Contains(flat(), "Checked: the service did not apply it") || !strings.Contains(flat(), "r: register") {
		t.Fatalf("seed %d: state %d, err %q, view:\n%s", lostSeed, c.state, c.err, c.View())
	}
	d.Keys("r")
	if c.state != stageRetry || !strings.Contains(flat(), "Send this request again? The check found the first was not applied.") {
		t.Fatalf("r: state %d, view:\n%s", c.state, c.View())
	}
	d.Keys("y")
	d.Until("the public URL", func() bool { return c.state == stageDone || c.state == stageFailed })
	if c.state != stageDone {
		t.Fatalf("seed %d: the second registration failed: %s", lostSeed, c.err)
	}
	writes := viewstest.Writes(t, ctx.Journal)
	if len(writes) != 3 || writes[1].Op != write.OpCreative || writes[2].Op != write.OpCreative || string(writes[1].Data) != string(writes[2].Data) {
		t.Fatalf("journal %+v, want the registration twice, the same bytes", writes)
	}
	if n := appliedCount(ctx, "portals/creatives/create"); n != 1 {
		t.Fatalf("the sandbox applied %d registrations, want 1", n)
	}
	if n := appliedCount(ctx, "_sandbox/uploads/"); n != 1 {
		t.Fatalf("the file was uploaded %d times", n)
	}
}

// TestCreativeFolderChangesUnderneath: files deleted from the folder while
// it is listed neither crash the drawing nor can be chosen; the folder is
// read again, and what is left can be chosen.
func TestCreativeFolderChangesUnderneath(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	for _, name := range []string{"a.png", "b.png", "c.png"} {
		writePNG(t, dir, name)
	}
	d := viewstest.NewDriver(t, newCreative(ctx, dir), 100, 30)
	c := d.S.(*creative)
	d.Until("the listing", func() bool { return strings.Contains(c.View(), "c.png") })
	d.Keys("down", "down") // on c.png
	for _, name := range []string{"b.png", "c.png"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if v := c.View(); !strings.Contains(v, "c.png") {
		t.Fatalf("the listing read before the deletion is not drawn:\n%s", v)
	}
	d.Keys("enter")
	d.Until("the deleted file refused", func() bool { return c.pickErr != "" })
	names := func() []string {
		var out []string
		for _, e := range c.picker.entries {
			out = append(out, e.name)
		}
		return out
	}
	d.Until("the folder read again", func() bool { return len(names()) == 1 })
	if got := names(); got[0] != "a.png" || c.state != stagePick {
		t.Fatalf("listed %v in state %d", got, c.state)
	}
	d.Keys("enter")
	d.Until("the details of a.png", func() bool { return c.state == stageDetails && c.file.Name == "a.png" })
}

// TestCreativeReplaceAsks: the stored name is unique unless "replace" is
// chosen; then the question says that earlier uploads of the name are
// replaced, and the file is stored under its own name after the yes.
func TestCreativeReplaceAsks(t *testing.T) {
	ctx, d, c := onLogo(t, sandbox.Options{}, 100, 30)
	if c.urlRequest().FileName != c.file.Unique || c.file.Unique == "logo.png" {
		t.Fatalf("stored as %q by default", c.urlRequest().FileName)
	}
	d.Keys("tab", "tab", "right", "ctrl+s")
	review := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(c.View()), "│", "")), " ")
	if c.state != stageReview || !strings.Contains(review, "REPLACING the bytes of any earlier upload named logo.png") {
		t.Fatalf("the review does not say it replaces:\n%s", c.View())
	}
	d.Keys("y")
	d.Until("the upload", func() bool { return c.state == stageDone || c.state == stageFailed })
	var stored []string
	for _, e := range ctx.Session.Applied() {
		if strings.HasPrefix(e.Operation, "_sandbox/uploads/") {
			stored = append(stored, filepath.Base(e.Operation))
		}
	}
	if c.state != stageDone || len(stored) != 1 || stored[0] != "logo.png" {
		t.Fatalf("state %d, stored %v", c.state, stored)
	}
}

// TestReviewKeepsQuestionInSight: at 60x20, a file deep in folders makes
// the review taller than the page; the requests scroll above the question,
// which stays whole at the bottom, and y answers it.
func TestReviewKeepsQuestionInSight(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	dir := t.TempDir()
	for range 30 {
		dir = filepath.Join(dir, "a-rather-long-folder-name")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writePNG(t, dir, "logo.png")
	d := viewstest.NewDriver(t, newCreative(ctx, dir), 60, 20)
	c := d.S.(*creative)
	choose(d, "logo.png")
	d.Until("the details", func() bool { return c.state == stageDetails })
	d.Keys("ctrl+s")
	view := ansi.Strip(c.View())
	lines := strings.Split(view, "\n")
	if c.state != stageReview || len(lines) > 20 {
		t.Fatalf("review at 60x20 (%d lines):\n%s", len(lines), view)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(view, "│", "")), " ")
	if !strings.Contains(flat, "Upload logo.png to portal") || !strings.Contains(lines[len(lines)-1], "[ Yes ]") {
		t.Fatalf("the question is not drawn whole at the bottom:\n%s", view)
	}
	// The last request is below: scrolling reaches it, the question stays.
	for range 40 {
		d.Keys("pgdown")
	}
	view = ansi.Strip(c.View())
	if flat := strings.Join(strings.Fields(view), ""); !strings.Contains(flat, "3.POSTportals/creatives/create") || !strings.Contains(view, "[ Yes ]") {
		t.Fatalf("scrolled to the end:\n%s", view)
	}
	d.Keys("y")
	d.Until("the upload", func() bool { return c.state == stageDone || c.state == stageFailed })
	if c.state != stageDone {
		t.Fatalf("failed: %s", c.err)
	}
}

// TestServiceErrorsMarkTheirField: the service's 400 on the upload URL
// takes the user back to the details with its error under the field its
// path names; what no field shows is said in the message line.
func TestServiceErrorsMarkTheirField(t *testing.T) {
	_, d, c := onLogo(t, sandbox.Options{}, 100, 30)
	d.Keys("ctrl+s")
	if c.state != stageReview {
		t.Fatalf("not reviewing:\n%s", c.View())
	}
	c.state, c.seq = stageWorking, 1<<30
	d.Run(c.Update(gotURLMsg{seq: c.seq, err: &api.ValidationError{Remote: true, Fields: []api.FieldError{
		{Path: "portalSlug", Message: "no such portal"},
		{Path: "contentType", Message: "image/png is not accepted here"},
	}}}))
	view := ansi.Strip(c.View())
	if c.state != stageDetails || !strings.Contains(viewstest.ErrUnder(view, "Portal"), "no such portal") {
		t.Fatalf("the portal is not marked:\n%s", view)
	}
	if viewstest.ErrUnder(view, "Name") != "" || !strings.Contains(view, "contentType: image/png is not accepted here") {
		t.Errorf("the name is marked, or the unmatched error is not on screen:\n%s", view)
	}
}
