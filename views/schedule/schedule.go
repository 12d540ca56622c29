// Package schedule holds the form that creates an unlock schedule: its
// pieces, the chart of what unlocks when, the review of the exact body,
// and the schedules created from this machine. D6 in its comments is that
// entry of docs/deployment.md.
package schedule

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/journal"
	"allot/views"
	"allot/views/widget"
)

// Piece kinds, as the form offers them.
const (
	kindOneOff   = "one-off"
	kindPeriodic = "periodic"
)

// topFields is how many fields come before the pieces.
const topFields = 5

type stage int

const (
	stageForm      stage = iota
	stageReview          // the body and a confirm dialog
	stageSending         // waiting for the service
	stageCreated         // the schedule's key
	stageUnknown         // no answer: maybe created
	stageResending       // the second confirmation before sending again
)

var (
	keyReview = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review"))
	keyAdd    = key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add piece"))
	keyRemove = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "remove piece"))
	keyCancel = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	keyCopy   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy key"))
	keyNew    = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new schedule"))
	keyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
	keyResend = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "send again…"))
	keyCheck  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check again"))
	keyEdit   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the form"))
)

// schedule is the form that creates an unlock schedule (D6): the fields,
// a running sum, a chart of what the schedule unlocks, and the schedules
// this machine created.
type schedule struct {
	ctx                          *views.Context
	form                         *widget.Form
	name, description, atStart   *widget.FormField
	cliffValue, cliffMonths      *widget.FormField
	pieces                       []*piece
	errs                         map[*widget.FormField]error // each field's own error, as last revalidated
	req                          api.ScheduleRequest
	valid                        bool
	sumErr                       string   // Validate's "pieces" error
	general                      []string // errors no field shows
	message                      string   // one line: what just happened
	messageErr                   bool
	state                        stage
	asking                       *views.WriteReview // the body and the question before it is sent, or sent again
	body                         []byte             // the reviewed body, exactly as sent
	pretty                       []string           // body indented for the review, sanitized
	wrapped                      []string           // pretty, wrapped to the width
	scroll                       widget.Scroll
	reviewed                     api.ScheduleRequest
	sending                      views.Sending[*api.Schedule]
	created                      *api.Schedule
	lostNote                     string        // what the page of a lost answer says until the check answers
	hint                         string        // why r did not ask (Outcome.Resend), until the next check or send
	outcome                      views.Outcome // the write whose answer was lost, and its check
	list                         []journal.CreatedSchedule
	listErr                      error
	listReqs                     views.Requests
	listSeq                      int
	width, height                int
	formWidth, formHeight, chart int
}

// New is the form that creates an unlock schedule of the current
// token.
func New(ctx *views.Context) views.Screen {
	s := &schedule{ctx: ctx}
	s.reset()
	return s
}

// Acting: the form creates an unlock schedule.
func (s *schedule) Acting() {}

func (s *schedule) reset() {
	s.name = widget.TextField("name", "Name", "e.g. Team 4y", nil)
	s.description = widget.TextField("description", "Description", "what the schedule is for", nil)
	s.atStart = newField("unlockAtStart", "0")
	s.atStart.Label = "Unlock at start"
	s.cliffValue = newField("cliff.value", "0")
	s.cliffValue.Label = "Cliff value"
	s.cliffMonths = newField("cliff.duration", "0")
	s.cliffMonths.Label = "Cliff (months)"
	p := newPiece()
	p.portion.SetValue("1")
	s.pieces = []*piece{p}
	p.label(1)
	top := []*widget.FormField{s.name, s.description, s.atStart, s.cliffValue, s.cliffMonths}
	s.watch(append(top, p.all()...)...)
	s.form = widget.NewForm(append(top, p.fields()...)...)
	s.form.Styles = s.ctx.Styles
	s.form.Submit = s.review // enter on the last field
	// A field's error shows once the field is left (then as it is typed),
	// every field's after a review was asked for, as on the operator's
	// forms; the service's stays until its field is edited.
	s.form.ErrorsOnLeave = true
	s.message, s.messageErr = "", false
	s.state = stageForm
	s.created = nil
	s.layout()
	s.revalidate()
}

func (s *schedule) Title() string { return "New schedule" }

// Drafted says the form holds what the user typed or reviews, not sent.
func (s *schedule) Drafted() bool {
	return (s.state == stageForm || s.state == stageReview) && s.form.Edited()
}

func (s *schedule) Init() tea.Cmd {
	if s.state == stageUnknown { // a write read back from the journal
		return tea.Batch(s.reloadList(), s.outcome.Check())
	}
	return tea.Batch(s.form.Focus(0), s.reloadList())
}

func (s *schedule) Mode() views.Mode {
	return views.Mode{
		Busy:      s.state == stageSending || s.outcome.Checking(),
		Writing:   s.state == stageSending,
		TakesKeys: s.state == stageForm || s.state == stageReview || s.state == stageResending,
		OwnsEsc:   s.state != stageForm,
	}
}

func (s *schedule) reloadList() tea.Cmd {
	s.listSeq = s.listReqs.Next()
	j, d := s.ctx.Journal, s.ctx.Session.Deployment()
	return views.Load(s.ctx, s.listSeq, func(context.Context) ([]journal.CreatedSchedule, error) { return j.CreatedSchedules(d) })
}

func (s *schedule) Update(msg tea.Msg) tea.Cmd {
	if s.outcome.Update(msg) {
		s.layout() // what the check found is above the body
		return s.reloadList()
	}
	switch msg := msg.(type) {
	case views.Loaded[[]journal.CreatedSchedule]:
		if msg.Seq == s.listSeq {
			s.list, s.listErr = msg.Value, msg.Err
		}
		return nil
	case spinner.TickMsg, views.Answer[*api.Schedule]:
		answer, cmd := s.sending.Update(msg)
		if answer != nil {
			return s.answered(answer)
		}
		return cmd
	case widget.ConfirmMsg:
		return s.confirmed(msg)
	case tea.KeyMsg:
		return s.key(msg)
	}
	if s.state == stageForm {
		return s.form.Update(msg)
	}
	return nil
}

func (s *schedule) setMessage(text string, isErr bool) { s.message, s.messageErr = text, isErr }

func (s *schedule) SetSize(width, height int) {
	s.width, s.height = width, height
	s.layout()
}

// wide is the width from which the chart goes beside the form.
const wideWidth = 100

func (s *schedule) layout() {
	w, h := max(s.width, 20), max(s.height, 6)
	if w >= wideWidth {
		right := min(max(w*2/5, 36), 60)
		s.formWidth = w - right - 1
		s.formHeight = max(h-3, 1)
		s.chart = min(max(h/2, 5), 14)
	} else {
		s.formWidth = w
		s.chart = 0
		if h >= 14 {
			s.chart = min(max(h/3, 4), 8)
		}
		listH := 0
		if h >= 18 {
			listH = 3
		}
		s.formHeight = max(h-3-s.chart-listH, 1)
	}
	s.form.SetSize(s.formWidth, s.formHeight)
	if s.asking != nil {
		s.asking.SetSize(w, h)
	}
	s.wrapped = widget.Hardwrap(s.wrapped, s.pretty, w)
	s.scroll.SetLines(s.wrapped)
	if s.state == stageUnknown {
		// The body sent between the note and the keys.
		s.scroll.SetSize(w, max(h-len(s.unknownHead(w))-3, 1))
	}
}
