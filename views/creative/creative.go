// Package creative holds the upload of a creative to the portal: the
// folder picker, the details, the review, the upload through a pre-signed
// URL and the registration.
package creative

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// The writes of an upload, named as the CLI names them.
const (
	opURL    = "portals/creatives/upload-url"
	opCreate = "portals/creatives/create"
)

type stage int

const (
	stagePick    stage = iota // choosing a file
	stageDetails              // name and portal
	stageReview               // what will be sent, and a confirm dialog
	stageWorking              // upload URL, upload, register
	stageDone                 // the public URL
	stageFailed               // a step failed
	stageRetry                // registering the uploaded file again: a confirm dialog
)

var (
	keyChoose = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose file"))
	keyUp     = key.NewBinding(key.WithKeys("h", "backspace", "left"), key.WithHelp("h", "parent folder"))
	keyReview = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s/enter", "review"))
	keyBack   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back"))
	keyCopy   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy public URL"))
	keyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
	keyAgain  = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "register again"))
)

// inspectedFile is the chosen file as inspected before anything is sent.
type inspectedFile struct {
	Path, Name string
	// Unique is the name it is stored under unless it replaces an upload
	// of its own name (act.StoredName).
	Unique   string
	Type     string
	TypeFrom string // "content" or "extension"
	Size     int64
}

// creative uploads a file to a portal and registers it (D12): pick a file,
// name it, review, then upload URL, upload with progress, register.
type creative struct {
	ctx     *views.Context
	picker  *folder
	state   stage
	pickErr string
	file    inspectedFile
	form    *widget.Form
	nameF   *widget.FormField
	portalF *widget.FormField
	storeF  *widget.FormField // the stored name: unique, or replacing
	confirm *widget.Confirm
	touched map[*widget.FormField]bool
	message string

	seq    int
	step   string
	sent   int64
	bar    progress.Model
	result *api.Creative
	err    string
	// uploaded is the upload whose registration failed: it can be
	// registered again without sending the file again. unknown says
	// whether the failed registration may have been applied.
	uploaded *api.UploadURL
	unknown  bool
	// checked says what the check of a lost registration found; applied
	// that it found it applied, which is then not sent again.
	checked string
	applied bool
	written act.Sent // the registration whose answer was lost

	width, height int
}

// New is the creative upload, choosing from the current directory.
func New(ctx *views.Context) views.Screen {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return newCreative(ctx, dir)
}

func newCreative(ctx *views.Context, dir string) *creative {
	return &creative{ctx: ctx, picker: newFolder(dir), touched: map[*widget.FormField]bool{},
		bar: progress.New(progress.WithDefaultGradient(), progress.WithoutPercentage())}
}

func (c *creative) Title() string { return "Upload creative" }

// Drafted says a file is chosen, its details being filled in or reviewed.
func (c *creative) Drafted() bool { return c.state == stageDetails || c.state == stageReview }

func (c *creative) Init() tea.Cmd { return tea.Batch(c.picker.read(c.picker.dir), c.picker.tick()) }

func (c *creative) Capturing() bool {
	return c.state == stageDetails || c.state == stageReview || c.state == stageRetry
}

func (c *creative) Narrowed() bool { return c.state != stagePick }

func (c *creative) Busy() bool { return c.state == stageWorking }

// Messages of the upload.
type (
	inspectedMsg struct {
		file inspectedFile
		err  error
	}
	gotURLMsg struct {
		seq int
		url *api.UploadURL
		err error
	}
	progressMsg struct {
		seq  int
		sent int64
		up   *upload
	}
	uploadedMsg struct {
		seq int
		err error
		url *api.UploadURL
	}
	registeredMsg struct {
		seq      int
		creative *api.Creative
		err      error
		// What the check of a registration whose answer was lost found.
		verdict  act.Verdict
		checkErr error
	}
)

func (c *creative) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case inspectedMsg:
		if c.state != stagePick {
			return nil
		}
		if msg.err != nil {
			c.pickErr = msg.err.Error()
			return nil
		}
		c.pickErr = ""
		c.details(msg.file)
		return c.form.Focus(0)
	case widget.ConfirmMsg:
		if !c.confirm.Answers(msg) {
			return nil
		}
		if c.state == stageRetry {
			if !msg.Yes {
				c.state = stageFailed
				return nil
			}
			if c.unknown {
				c.ctx.Recorder.Resent(c.written)
			}
			c.seq = views.NextSeq()
			c.state, c.step, c.err = stageWorking, "registering", ""
			return c.register(c.uploaded)
		}
		if c.state != stageReview {
			return nil
		}
		if !msg.Yes {
			c.state = stageDetails
			c.message = "not sent"
			return c.form.Focus(c.form.Focused())
		}
		return c.requestURL()
	case gotURLMsg:
		if msg.seq != c.seq {
			return nil
		}
		if msg.err != nil {
			return c.fail("upload URL", msg.err)
		}
		c.step = "uploading"
		return c.startUpload(msg.url)
	case progressMsg:
		if msg.seq != c.seq {
			return nil
		}
		c.sent = msg.sent
		return msg.up.wait(msg.seq)
	case uploadedMsg:
		if msg.seq != c.seq {
			return nil
		}
		if msg.err != nil {
			return c.fail("upload", msg.err)
		}
		c.sent = c.file.Size
		c.step = "registering"
		c.uploaded = msg.url
		return c.register(msg.url)
	case registeredMsg:
		if msg.seq != c.seq {
			return nil
		}
		if msg.err != nil {
			c.unknown = act.Unknown(msg.err)
			c.checked = ""
			var unknown *act.UnknownError
			if errors.As(msg.err, &unknown) {
				c.written = unknown.Sent()
				c.checked, c.applied = views.CheckedNote(msg.verdict, msg.checkErr), msg.checkErr == nil && msg.verdict.Check == act.Applied
			}
			return c.fail("register", msg.err)
		}
		c.state, c.result, c.uploaded = stageDone, msg.creative, nil
		return nil
	case tea.KeyMsg:
		return c.key(msg)
	case folderRead:
		c.picker.loaded(msg)
	case folderTick:
		// The folder is read again while it is shown: a file deleted
		// there leaves the list.
		if msg == c.picker.ticking && c.state == stagePick {
			return tea.Batch(c.picker.read(c.picker.dir), c.picker.tick())
		}
	}
	return nil
}

func (c *creative) key(k tea.KeyMsg) tea.Cmd {
	switch c.state {
	case stagePick:
		if k.String() == "esc" {
			return views.Back
		}
		cmd, path := c.picker.key(k)
		if path != "" {
			c.pickErr = ""
			return func() tea.Msg { return inspect(path) }
		}
		return cmd
	case stageDetails:
		switch {
		case k.String() == "esc":
			c.state = stagePick
			c.message = ""
			return tea.Batch(c.picker.read(c.picker.dir), c.picker.tick())
		case key.Matches(k, keyReview) || (k.String() == "enter" && c.form.Focused() == len(c.form.Fields())-1):
			return c.review()
		case k.String() == "enter":
			return c.form.Focus(c.form.Focused() + 1)
		}
		fld := c.form.Fields()[c.form.Focused()]
		before := fld.Value()
		cmd := c.form.Update(k)
		if fld.Value() != before {
			c.touched[fld] = true
		}
		c.revalidate(false)
		return cmd
	case stageReview:
		return c.confirm.Update(k)
	case stageFailed:
		switch {
		case key.Matches(k, keyBack):
			c.state, c.err, c.uploaded = stageDetails, "", nil
			return c.form.Focus(c.form.Focused())
		case key.Matches(k, keyAgain) && c.uploaded != nil && !c.applied:
			c.askRegister()
		}
	case stageRetry:
		return c.confirm.Update(k)
	case stageDone:
		switch {
		case key.Matches(k, keyCopy):
			return c.ctx.Clipboard.Copy(c.result.PublicURL)
		case k.String() == "esc":
			return views.Back
		}
	}
	return nil
}

// inspect reads what the file is before anything is asked of the
// service: its size, then its type from its first bytes.
func inspect(path string) inspectedMsg {
	name := filepath.Base(path)
	fail := func(err error) inspectedMsg {
		return inspectedMsg{err: fmt.Errorf("%s: %w", sanitize.Line(name), err)}
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(errors.Unwrap(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if !info.Mode().IsRegular() {
		return fail(errors.New("not a regular file"))
	}
	if err := api.CheckCreativeSize(info.Size()); err != nil {
		return fail(err)
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fail(err)
	}
	ct, from := sniff(head[:n], name)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	unique, err := act.StoredName(name, f)
	if err != nil {
		return fail(err)
	}
	// The portal is not chosen yet: check the file's name and type alone.
	if err := (api.UploadURLRequest{FileName: name, ContentType: ct, PortalSlug: "portal"}).Validate(); err != nil {
		return fail(err)
	}
	return inspectedMsg{file: inspectedFile{Path: path, Name: name, Unique: unique, Type: ct, TypeFrom: from, Size: info.Size()}}
}

// sniff decides a file's media type (see api.CreativeType) and says
// from what: "content" or "extension".
func sniff(head []byte, name string) (contentType, from string) {
	ct, fromContent := api.CreativeType(head, name)
	if fromContent {
		return ct, "content"
	}
	return ct, "extension"
}

// defaultSlug is the portal the upload goes to unless changed: the
// sandbox's portal, or the profile's portal id.
func defaultSlug(ctx *views.Context) string {
	if fx := ctx.Session.Fixtures; fx != nil && fx.PortalSlug != "" {
		return fx.PortalSlug
	}
	return ctx.Session.Profile.PortalID
}

func (c *creative) details(f inspectedFile) {
	c.file = f
	c.nameF = widget.TextField("name", "Name", "what the portal calls it", nil)
	c.nameF.SetValue(f.Name)
	c.portalF = widget.TextField("portalSlug", "Portal", "portal slug", nil)
	c.portalF.SetValue(defaultSlug(c.ctx))
	c.storeF = widget.ChoiceField("store", "Stored as", f.Unique, f.Name+" (replace)")
	c.form = widget.NewForm(c.nameF, c.portalF, c.storeF)
	c.form.Styles = c.ctx.Styles
	c.form.SetSize(max(c.width, 20), 6)
	c.touched = map[*widget.FormField]bool{}
	c.message = ""
	c.state = stageDetails
	c.revalidate(false)
}

// replacing says the user chose to store the file under its own name,
// replacing the bytes of any earlier upload of that name.
func (c *creative) replacing() bool { return c.storeF.Value() != c.file.Unique }

func (c *creative) stored() string {
	if c.replacing() {
		return c.file.Name
	}
	return c.file.Unique
}

func (c *creative) urlRequest() api.UploadURLRequest {
	return api.UploadURLRequest{FileName: c.stored(), ContentType: c.file.Type, PortalSlug: c.portalF.Value()}
}

// revalidate shows the api package's errors under the name and portal;
// all reports them even for fields not edited yet. It says whether the
// form is valid.
func (c *creative) revalidate(all bool) bool {
	errs := map[*widget.FormField]error{}
	var other []string
	collect := func(err error) {
		var ve *api.ValidationError
		if !errors.As(err, &ve) {
			return
		}
		for _, f := range ve.Fields {
			switch f.Path {
			case "portalSlug":
				errs[c.portalF] = errors.New(f.Message)
			case "name":
				errs[c.nameF] = errors.New(f.Message)
			default:
				other = append(other, f.String())
			}
		}
	}
	collect(c.urlRequest().Validate())
	// The storage key comes with the upload URL: only the name is checked.
	collect(api.CreateCreativeRequest{StorageKey: "pending", Name: c.nameF.Value()}.Validate())
	for _, f := range c.form.Fields() {
		if err := errs[f]; err != nil && (all || c.touched[f] || f.Value() != "") {
			f.SetErr(err)
		} else {
			f.SetErr(nil)
		}
	}
	if len(other) > 0 {
		c.message = strings.Join(other, "; ")
	}
	return len(errs) == 0 && len(other) == 0
}

func (c *creative) review() tea.Cmd {
	if !c.revalidate(true) {
		c.message = "fix the fields marked ✗ before review"
		return nil
	}
	body, _ := json.Marshal(c.urlRequest())
	create, _ := json.Marshal(api.CreateCreativeRequest{StorageKey: "(from the upload URL answer)", Name: c.nameF.Value()})
	question := fmt.Sprintf("Upload %s to portal %s, stored as %s?", c.file.Name, c.portalF.Value(), c.stored())
	if c.replacing() {
		question = fmt.Sprintf("Upload %s to portal %s, REPLACING the bytes of any earlier upload named %s? Every public URL of that name will serve this file.",
			c.file.Name, c.portalF.Value(), c.stored())
	}
	c.confirm = widget.NewConfirm("creative", question,
		"File: "+c.file.Path,
		fmt.Sprintf("Type: %s (from the %s) · Size: %s", c.file.Type, c.file.TypeFrom, views.ByteSize(c.file.Size)),
		"Name: "+c.nameF.Value()+" · Portal: "+c.portalF.Value(),
		"",
		"1. POST "+opURL+" "+string(body),
		"2. PUT the file's bytes to the upload URL it returns (Content-Type: "+c.file.Type+")",
		"3. POST "+opCreate+" "+string(create),
	)
	c.confirm.Styles = c.ctx.Styles
	c.confirm.SetWidth(max(min(c.width, 100), 20))
	c.message = ""
	c.state = stageReview
	return nil
}

// askRegister asks before registering the uploaded file again: when the
// first registration may have been applied, a second may record the file
// twice, and the question says so.
func (c *creative) askRegister() {
	body, _ := json.Marshal(api.CreateCreativeRequest{StorageKey: c.uploaded.StorageKey, Name: c.nameF.Value()})
	question := fmt.Sprintf("Register %s again? The file is uploaded; it is not sent again.", c.file.Name)
	if c.unknown {
		question = fmt.Sprintf("Register %s again? The first registration may have been applied: a second may record the file twice.", c.file.Name)
	}
	c.confirm = widget.NewConfirm("creative-register", question, "POST "+opCreate+" "+string(body))
	c.confirm.Styles = c.ctx.Styles
	c.confirm.SetWidth(max(min(c.width, 100), 20))
	c.state = stageRetry
}

func (c *creative) fail(step string, err error) tea.Cmd {
	c.state = stageFailed
	c.err = step + ": " + err.Error()
	return nil
}

// requestURL asks for the upload URL through the recorder. The answer is
// not journaled: an upload URL is a capability.
func (c *creative) requestURL() tea.Cmd {
	c.seq = views.NextSeq()
	c.state, c.step, c.sent, c.err, c.uploaded = stageWorking, "asking for an upload URL", 0, "", nil
	seq, req, ref := c.seq, c.urlRequest(), c.file.Name
	rec, client := c.ctx.Recorder, c.ctx.Session.API
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		up, err := rec.CreativeUploadURL(ctx, client, ref, req)
		return gotURLMsg{seq: seq, url: up, err: err}
	}
}

// upload carries an upload's progress and end from the goroutine that
// sends the file to the Cmd loop that reports them.
type upload struct {
	progress chan int64 // the latest count; older ones are dropped
	done     chan error
	url      *api.UploadURL
}

// wait reports the next progress, or the end of the upload.
func (u *upload) wait(seq int) tea.Cmd {
	return func() tea.Msg {
		select {
		case n := <-u.progress:
			return progressMsg{seq: seq, sent: n, up: u}
		case err := <-u.done:
			return uploadedMsg{seq: seq, err: err, url: u.url}
		}
	}
}

func (c *creative) startUpload(up *api.UploadURL) tea.Cmd {
	u := &upload{progress: make(chan int64, 1), done: make(chan error, 1), url: up}
	client, file := c.ctx.Session.API, c.file
	go func() { u.done <- put(client, up.UploadURL, file, u.progress) }()
	return u.wait(c.seq)
}

// put sends the file, counting bytes into progress.
func put(client *api.Client, uploadURL string, file inspectedFile, progress chan int64) error {
	f, err := os.Open(file.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() != file.Size {
		return fmt.Errorf("%s changed since it was chosen (%d bytes, now %d): choose it again", sanitize.Line(file.Name), file.Size, info.Size())
	}
	ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
	defer cancel()
	return client.Upload(ctx, uploadURL, file.Type, &countingReader{r: f, ch: progress}, file.Size)
}

// countingReader counts what is read through it and offers the count on ch
// without ever blocking: a full channel has its stale count replaced.
type countingReader struct {
	r  io.Reader
	n  int64
	ch chan int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.n += int64(n)
		select {
		case r.ch <- r.n:
		default:
			select {
			case <-r.ch:
			default:
			}
			select {
			case r.ch <- r.n:
			default:
			}
		}
	}
	return n, err
}

func (c *creative) register(up *api.UploadURL) tea.Cmd {
	seq, ref := c.seq, c.file.Name
	req := api.CreateCreativeRequest{StorageKey: up.StorageKey, Name: c.nameF.Value()}
	rec, client := c.ctx.Recorder, c.ctx.Session.API
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		out, err := rec.RegisterCreative(ctx, client, ref, req)
		msg := registeredMsg{seq: seq, creative: out, err: err}
		var unknown *act.UnknownError
		if errors.As(err, &unknown) {
			msg.verdict, msg.checkErr = views.CheckSent(rec, unknown.Sent())
		}
		return msg
	}
}

func (c *creative) SetSize(width, height int) {
	c.width, c.height = width, height
	c.picker.height = max(height-5, 1)
	c.picker.clamp()
	if c.form != nil {
		c.form.SetSize(max(width, 20), 6)
	}
	if c.confirm != nil {
		c.confirm.SetWidth(max(min(width, 100), 20))
	}
	c.bar.Width = max(min(width-4, 60), 10)
}

func (c *creative) View() string {
	w, h := max(c.width, 20), max(c.height, 6)
	title := c.ctx.Styles.Title.Render("Upload a creative")
	var out []string
	switch c.state {
	case stagePick:
		out = []string{title + c.ctx.Styles.Muted.Render(" · choose a file (enter) · esc: cancel"),
			c.ctx.Styles.Muted.Render(sanitize.Truncate(c.picker.dir, w))}
		out = append(out, c.picker.lines()...)
		// The refusal wraps (it names the allowed types) in at most three
		// lines; the picker gives up what it takes.
		var refusal []string
		if c.pickErr != "" {
			refusal = strings.Split(widget.Page("✗ "+sanitize.Line(c.pickErr), w, 3), "\n")
		}
		out = append(views.FitLines(out, w, h-max(len(refusal), 2)), refusal...)
	case stageDetails:
		out = []string{title + c.ctx.Styles.Muted.Render(" · ctrl+s: review · esc: choose another file"), "",
			sanitize.Truncate(fmt.Sprintf("File: %s · %s · %s", c.file.Name, c.file.Type, views.ByteSize(c.file.Size)), w), ""}
		out = append(out, strings.Split(c.form.View(), "\n")...)
		if c.message != "" {
			out = append(out, "", sanitize.Truncate(c.message, w))
		}
	case stageReview, stageRetry:
		out = append([]string{title}, strings.Split(c.confirm.View(), "\n")...)
	case stageWorking:
		out = []string{title, "", sanitize.Truncate(fmt.Sprintf("%s: %s…", c.file.Name, c.step), w), ""}
		frac := 0.0
		if c.file.Size > 0 {
			frac = float64(c.sent) / float64(c.file.Size)
		}
		out = append(out, c.bar.ViewAs(frac), fmt.Sprintf("%d%% · %s of %s", int(frac*100), views.ByteSize(c.sent), views.ByteSize(c.file.Size)))
	case stageDone:
		r := c.result
		// Wrapped, not cut: a URL cut short cannot be read off the screen.
		done := widget.Page("Uploaded and registered "+sanitize.Line(c.file.Name)+"\n\n"+
			"Public URL   "+sanitize.Line(r.PublicURL)+"\n"+
			"ID           "+sanitize.Line(r.ID)+"\n"+
			"Storage key  "+sanitize.Line(r.StorageKey), w, 0)
		out = append([]string{title, ""}, strings.Split(done, "\n")...)
		out = append(out, "", c.ctx.Styles.Muted.Render("c: copy the public URL · esc: close"))
	case stageFailed:
		out = []string{title, "", "✗ " + sanitize.Line(c.err), ""}
		if c.unknown && c.uploaded != nil {
			out = append(out, strings.Split(widget.Page("No readable answer came: the creative may or may not be registered. The journal records the attempt. "+c.checked, w, 0), "\n")...)
			out = append(out, "")
		}
		keys := "esc: back to the details (review sends everything again)"
		if c.uploaded != nil && !c.applied {
			keys = "r: register the uploaded file again (asks first) · " + keys
		}
		out = append(out, c.ctx.Styles.Muted.Render(keys))
	}
	return strings.Join(views.FitLines(out, w, h), "\n")
}

func (c *creative) ShortHelp() []key.Binding {
	switch c.state {
	case stagePick:
		return []key.Binding{keyChoose, keyUp, keyClose}
	case stageDetails:
		return append([]key.Binding{keyReview, keyBack}, c.form.Keys.ShortHelp()...)
	case stageReview, stageRetry:
		return c.confirm.ShortHelp()
	case stageDone:
		return []key.Binding{keyCopy, keyClose}
	case stageFailed:
		if c.uploaded != nil && !c.applied {
			return []key.Binding{keyAgain, keyBack}
		}
		return []key.Binding{keyBack}
	}
	return nil
}

func (c *creative) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

// Reopen is the page of a creative's upload URL or registration
// whose answer was lost, read back from the journal; nil when body is not
// such a request that encodes back to the same bytes. A registration may
// be sent again; an upload URL is not (it changes nothing by itself).
func Reopen(ctx *views.Context, op, ref, write string, body []byte, at time.Time) views.Screen {
	sent := act.Sent{Op: op, Ref: ref, Write: write, Body: body}
	switch op {
	case opURL:
		var req api.UploadURLRequest
		if !views.SameJSON(body, &req) {
			return nil
		}
		w := views.NewLostWrite(ctx, "creative upload URL", sent, at)
		w.NoResend = "An upload URL changes nothing by itself: upload the file again with :creative."
		return w
	case opCreate:
		var req api.CreateCreativeRequest
		if !views.SameJSON(body, &req) {
			return nil
		}
		w := views.NewLostWrite(ctx, "creative registration", sent, at)
		client := ctx.Session.API
		w.Resend = func(c context.Context, rec *act.Recorder) ([]string, error) {
			cr, err := rec.RegisterCreative(c, client, ref, req)
			if err != nil {
				return nil, err
			}
			return []string{"Registered " + sanitize.Line(ref) + ".", "Public URL   " + sanitize.Line(cr.PublicURL), "ID           " + sanitize.Line(cr.ID)}, nil
		}
		return w
	}
	return nil
}
