package creative

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
	"allot/core/write"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

func (c *creative) review() tea.Cmd {
	if err := c.problems(); err != nil {
		c.message = "fix the fields marked ✗ before review"
		if loose := c.form.SetErrors(views.PathErrors(err)); len(loose) > 0 {
			c.message = views.Unmatched(loose)
		}
		return nil
	}
	body, _ := json.Marshal(c.urlRequest())
	create, _ := json.Marshal(api.CreateCreativeRequest{StorageKey: "(from the upload URL answer)", Name: c.nameF.Value()})
	question := fmt.Sprintf("Upload %s to portal %s, stored as %s?", c.file.Name, c.portalF.Value(), c.stored())
	if c.replacing() {
		question = fmt.Sprintf("Upload %s to portal %s, REPLACING the bytes of any earlier upload named %s? Every public URL of that name will serve this file.",
			c.file.Name, c.portalF.Value(), c.stored())
	}
	lines := []string{
		"File: " + c.file.Path,
		fmt.Sprintf("Type: %s (from the %s) · Size: %s", c.file.Type, c.file.TypeFrom, views.ByteSize(c.file.Size)),
		"Name: " + c.nameF.Value() + " · Portal: " + c.portalF.Value(),
		"",
		"1. POST " + write.OpUploadURL,
	}
	// The bodies indented, a field a line: one long line wrapped
	// mid-key at 80 columns.
	indented := func(body []byte) {
		for _, l := range views.PrettyBody(body) {
			lines = append(lines, "   "+l)
		}
	}
	indented(body)
	lines = append(lines, "2. PUT the file's bytes to the upload URL it returns (Content-Type: "+c.file.Type+")", "3. POST "+write.OpCreative)
	indented(create)
	for i, l := range lines {
		lines[i] = sanitize.Line(l) // a path and a name are what the disk and the user gave
	}
	// The question under the file and the requests, in sight however long
	// the path: they scroll above it.
	c.ask("Upload a creative", "The file, and the three requests that send it:", lines, c.ctx.Confirm("creative", question))
	c.message = ""
	c.state = stageReview
	return nil
}

// askRegister asks before registering the uploaded file again. A
// registration whose answer was lost is asked about as every such write is
// (Outcome.AskResend): not at all when its check found it applied, or while
// the check runs; the page says why instead.
func (c *creative) askRegister() {
	body, _ := json.Marshal(c.registration(c.uploaded))
	if !c.unknown {
		question := fmt.Sprintf("Register %s again? The file is uploaded; it is not sent again.", c.file.Name)
		c.ask("Register again: POST "+write.OpCreative, "The body, exactly as it will be sent:", views.PrettyBody(body), c.ctx.Confirm("creative-register", question))
		c.state = stageRetry
		return
	}
	asking, refused := c.outcome.AskResend(views.PrettyBody(body))
	if c.hint = refused; refused != "" {
		return
	}
	c.asking = asking
	c.asking.SetSize(max(c.width, 20), max(c.height, 6))
	c.state = stageRetry
}

// ask shows lines under title and caption, and q under them.
func (c *creative) ask(title, caption string, lines []string, q *widget.Confirm) {
	c.asking = views.NewWriteReview(c.ctx, title, caption, lines, q)
	c.asking.SetSize(max(c.width, 20), max(c.height, 6))
}

func (c *creative) fail(step string, err error) tea.Cmd {
	c.state = stageFailed
	c.err = step + ": " + err.Error()
	return nil
}

// requestURL asks for the upload URL through the recorder. The answer is
// not journaled: an upload URL is a capability.
func (c *creative) requestURL() tea.Cmd {
	c.seq = c.reqs.Next()
	c.state, c.step, c.sent, c.err, c.uploaded = stageWorking, "asking for an upload URL", 0, "", nil
	seq, req, ref := c.seq, c.urlRequest(), c.file.Name
	rec, client, root := c.ctx.Recorder, c.ctx.Session.API, c.ctx.Root()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(root, views.RequestTimeout)
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
	client, file, root := c.ctx.Session.API, c.file, c.ctx.Root()
	go func() { u.done <- put(root, client, up.UploadURL, file, u.progress) }()
	return u.wait(c.seq)
}

// put sends the file under root, counting bytes into progress.
func put(root context.Context, client *api.Client, uploadURL string, file inspectedFile, progress chan int64) error {
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
	ctx, cancel := context.WithTimeout(root, views.RequestTimeout)
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

func (c *creative) registration(up *api.UploadURL) api.CreateCreativeRequest {
	return api.CreateCreativeRequest{StorageKey: up.StorageKey, Name: c.nameF.Value()}
}

// register registers the uploaded file through the recorder, the last of
// the three requests, as every write is sent (views.Sending).
func (c *creative) register(up *api.UploadURL) tea.Cmd {
	c.hint = ""
	ref, req := c.file.Name, c.registration(up)
	rec, client := c.ctx.Recorder, c.ctx.Session.API
	return c.registering.Start(func(ctx context.Context) (*api.Creative, error) {
		return rec.RegisterCreative(ctx, client, ref, req)
	})
}

// registered shows what the registration came to: the public URL, or the
// failure, checked at once when its answer was lost.
func (c *creative) registered(answer *views.Answer[*api.Creative]) tea.Cmd {
	if answer.Err == nil {
		c.state, c.result, c.uploaded = stageDone, answer.Value, nil
		return nil
	}
	body, _ := json.Marshal(c.registration(c.uploaded))
	written, lost := answer.Lost(act.Sent{Op: write.OpCreative, Ref: c.file.Name, Body: body})
	c.unknown = lost
	c.outcome.Forget()
	c.fail("register", answer.Err)
	if lost {
		return c.outcome.Lost(c.ctx, written)
	}
	return nil
}
