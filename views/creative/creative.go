// Package creative holds the upload of a creative to the portal: the
// folder picker, the details, the review, the upload through a pre-signed
// URL and the registration. D12 in its comments is that entry of
// docs/deployment.md.
package creative

import (
	"errors"
	"os"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
	"allot/views/widget"
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
	keyReview = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review"))
	keyBack   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back"))
	keyCopy   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy public URL"))
	keyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
	keyAgain  = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "register again"))
	keyCheck  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check again"))
)

// inspectedFile is the chosen file as inspected before anything is sent.
type inspectedFile struct {
	Path, Name string
	// Stored is the name the service stores it under: Name, or one made
	// from it when the service does not store Name (api.FileNameFor).
	Stored string
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
	storeF  *widget.FormField  // the stored name: unique, or replacing
	asking  *views.WriteReview // what will be sent, and the question
	message string

	reqs   views.Requests
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
	// registering is the registration on its way; outcome is the one
	// whose answer was lost and what its check found (one found applied
	// is not sent again); hint is why r did not ask.
	registering views.Sending[*api.Creative]
	outcome     views.Outcome
	hint        string

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
	return &creative{ctx: ctx, picker: newFolder(dir),
		bar: progress.New(progress.WithDefaultGradient(), progress.WithoutPercentage())}
}

// Acting: the page uploads and registers a creative.
func (c *creative) Acting() {}

func (c *creative) Title() string { return "Upload creative" }

// Drafted says a file is chosen, its details being filled in or reviewed.
func (c *creative) Drafted() bool { return c.state == stageDetails || c.state == stageReview }

func (c *creative) Init() tea.Cmd { return tea.Batch(c.picker.read(c.picker.dir), c.picker.tick()) }

func (c *creative) Mode() views.Mode {
	return views.Mode{
		Busy:      c.state == stageWorking || c.outcome.Checking(),
		Writing:   c.state == stageWorking,
		TakesKeys: c.state == stageDetails || c.state == stageReview || c.state == stageRetry,
		OwnsEsc:   c.state != stagePick,
	}
}

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
)

func (c *creative) Update(msg tea.Msg) tea.Cmd {
	if c.outcome.Update(msg) {
		return nil
	}
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
		if c.asking == nil || !c.asking.Confirm.Answers(msg) {
			return nil
		}
		c.asking = nil
		if c.state == stageRetry {
			if !msg.Yes {
				c.state = stageFailed
				return nil
			}
			if c.unknown {
				c.outcome.Resent()
			}
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
		var invalid *api.ValidationError
		if errors.As(msg.err, &invalid) && invalid.Remote {
			// Refused before anything was uploaded: back to the details,
			// the service's errors under the fields they name.
			c.state = stageDetails
			c.message = "The service refused the upload: fix the marked fields."
			if loose := c.form.SetErrors(views.PathErrors(invalid)); len(loose) > 0 {
				c.message = "The service refused the upload: " + views.Unmatched(loose)
			}
			return c.form.Focus(c.form.Focused())
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
	case spinner.TickMsg, views.Answer[*api.Creative]:
		answer, cmd := c.registering.Update(msg)
		if answer != nil {
			return c.registered(answer)
		}
		return cmd
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
