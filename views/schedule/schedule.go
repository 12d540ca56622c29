// Package schedule holds the form that creates an unlock schedule: its
// pieces, the chart of what unlocks when, the review of the exact body,
// and the schedules created from this machine.
package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/internal/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// createOp is the write the schedule screen makes, named as the CLI names it.
const createOp = "schedules/create"

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
	keyScroll = key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓", "scroll body"))
	keyCopy   = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy key"))
	keyNew    = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new schedule"))
	keyClose  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
	keyResend = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "send again…"))
	keyEdit   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the form"))
)

// piece is one piece of the schedule being written: its fields, of
// which the form shows those of its kind.
type piece struct {
	name, portion, delay, kind *widget.FormField
	offset, oneOffDay          *widget.FormField
	length, frequency, perDay  *widget.FormField
	periodic                   bool // the kind the form shows
}

func newPiece() *piece {
	return &piece{
		name:      widget.TextField("name", "", "e.g. Monthly", nil),
		portion:   newField("portion", "0.5", checkFraction),
		delay:     newField("startDelay", "0", checkMonths),
		kind:      widget.ChoiceField("kind", "", kindOneOff, kindPeriodic),
		offset:    newField("offset", "0", checkMonths),
		oneOffDay: newField("dayOfMonth", "1", checkDay),
		length:    newField("length", "12", checkMonths),
		frequency: newField("frequency", "1", checkMonths),
		perDay:    newField("dayOfMonth", "1", checkDay),
	}
}

func newField(key, value string, check func(string) error) *widget.FormField {
	f := widget.TextField(key, "", "", check)
	f.SetValue(value)
	return f
}

// fields are the piece's fields the form shows, in order.
func (p *piece) fields() []*widget.FormField {
	fs := []*widget.FormField{p.name, p.portion, p.delay, p.kind}
	if p.periodic {
		return append(fs, p.length, p.frequency, p.perDay)
	}
	return append(fs, p.offset, p.oneOffDay)
}

// all is every field of the piece, shown or not.
func (p *piece) all() []*widget.FormField {
	return []*widget.FormField{p.name, p.portion, p.delay, p.kind, p.offset, p.oneOffDay, p.length, p.frequency, p.perDay}
}

// label names the fields after the piece's place, counted from 1.
func (p *piece) label(n int) {
	pre := fmt.Sprintf("Piece %d ", n)
	p.name.Label = pre + "name"
	p.portion.Label = pre + "portion"
	p.delay.Label = pre + "delay (months)"
	p.kind.Label = pre + "kind"
	p.offset.Label = pre + "offset (months)"
	p.oneOffDay.Label = pre + "day of month"
	p.length.Label = pre + "length (months)"
	p.frequency.Label = pre + "every (months)"
	p.perDay.Label = pre + "day of month"
}

// The checks only read what was typed; the rules are the api package's
// (ScheduleRequest.Validate), applied to the request built from the form.
func checkFraction(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("is required (a fraction such as 0.25)")
	}
	if _, err := api.ParseAmount(v); err != nil {
		return fmt.Errorf("%q is not a number (write a fraction such as 0.25)", sanitize.Truncate(v, 20))
	}
	return nil
}

func checkMonths(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("is required (a whole number of months)")
	}
	n, err := api.ParseAmount(v)
	if err != nil || !n.IsInteger() {
		return fmt.Errorf("%q is not a whole number of months", sanitize.Truncate(v, 20))
	}
	return nil
}

func checkDay(v string) error {
	if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
		return fmt.Errorf("%q is not a whole number (a day from 1 to 28)", sanitize.Truncate(v, 20))
	}
	return nil
}

// schedule is the form that creates an unlock schedule (D6): the fields,
// a running sum, a chart of what the schedule unlocks, and the schedules
// this machine created.
type schedule struct {
	ctx                          *views.Context
	form                         *widget.Form
	name, description, atStart   *widget.FormField
	cliffValue, cliffMonths      *widget.FormField
	pieces                       []*piece
	touched                      map[*widget.FormField]bool
	remote                       map[*widget.FormField]error // the service's 400, until edited
	submitted                    bool
	req                          api.ScheduleRequest
	valid                        bool
	sumErr                       string   // Validate's "pieces" error
	general                      []string // errors no field shows
	message                      string   // one line: what just happened
	messageErr                   bool
	state                        stage
	confirm                      *widget.Confirm
	body                         []byte   // the reviewed body, exactly as sent
	pretty                       []string // body indented for the review, sanitized
	wrapped                      []string // pretty, wrapped to the width
	scroll                       widget.Scroll
	reviewed                     api.ScheduleRequest
	seq                          int
	created                      *api.Schedule
	unknownNote                  string
	reopened                     *act.Sent // the write read back from the journal, to check when the page opens
	written                      act.Sent  // the write whose outcome is unknown
	list                         []CreatedSchedule
	listErr                      error
	listSeq                      int
	width, height                int
	formWidth, formHeight, chart int
}

// New is the form that creates an unlock schedule of the current
// token.
func New(ctx *views.Context) views.Screen {
	s := &schedule{ctx: ctx, touched: map[*widget.FormField]bool{}, remote: map[*widget.FormField]error{}}
	s.reset()
	return s
}

func (s *schedule) reset() {
	s.name = widget.TextField("name", "Name", "e.g. Team 4y", nil)
	s.description = widget.TextField("description", "Description", "what the schedule is for", nil)
	s.atStart = newField("unlockAtStart", "0", checkFraction)
	s.atStart.Label = "Unlock at start"
	s.cliffValue = newField("cliff.value", "0", checkFraction)
	s.cliffValue.Label = "Cliff value"
	s.cliffMonths = newField("cliff.duration", "0", checkMonths)
	s.cliffMonths.Label = "Cliff (months)"
	p := newPiece()
	p.portion.SetValue("1")
	s.pieces = []*piece{p}
	p.label(1)
	s.form = widget.NewForm(append([]*widget.FormField{s.name, s.description, s.atStart, s.cliffValue, s.cliffMonths}, p.fields()...)...)
	s.form.Styles = s.ctx.Styles
	s.touched = map[*widget.FormField]bool{}
	s.remote = map[*widget.FormField]error{}
	s.submitted = false
	s.message, s.messageErr = "", false
	s.state = stageForm
	s.created = nil
	s.layout()
	s.revalidate()
}

func (s *schedule) Title() string { return "New schedule" }

// Drafted says the form holds what the user typed or reviews, not sent.
func (s *schedule) Drafted() bool {
	return (s.state == stageForm || s.state == stageReview) && len(s.touched) > 0
}

func (s *schedule) Init() tea.Cmd {
	if s.reopened != nil {
		return tea.Batch(s.reloadList(), s.check(*s.reopened))
	}
	return tea.Batch(s.form.Focus(0), s.reloadList())
}

func (s *schedule) Capturing() bool {
	return s.state == stageForm || s.state == stageReview || s.state == stageResending
}

func (s *schedule) Narrowed() bool { return s.state != stageForm }

func (s *schedule) Busy() bool { return s.state == stageSending }

func (s *schedule) reloadList() tea.Cmd {
	s.listSeq = views.NextSeq()
	j, d := s.ctx.Journal, s.ctx.Session.Deployment()
	return views.Load(s.listSeq, func(context.Context) ([]CreatedSchedule, error) { return CreatedSchedules(j, d) })
}

// sentMsg is the answer to a create, and when it was lost what the check
// of it found.
type sentMsg struct {
	seq      int
	res      *api.Schedule
	err      error
	verdict  act.Verdict
	checkErr error
}

// errReopened is the lost answer of a write read back from the journal.
var errReopened = &act.UnknownError{Err: errors.New("no answer came, as the journal recorded")}

func (s *schedule) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case views.Loaded[[]CreatedSchedule]:
		if msg.Seq == s.listSeq {
			s.list, s.listErr = msg.Value, msg.Err
		}
		return nil
	case sentMsg:
		if msg.seq != s.seq {
			return nil
		}
		return s.answered(msg)
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

func (s *schedule) key(k tea.KeyMsg) tea.Cmd {
	switch s.state {
	case stageForm:
		return s.formKey(k)
	case stageReview:
		if s.scroll.Key(k) {
			return nil
		}
		return s.confirm.Update(k)
	case stageResending:
		if s.scroll.Key(k) {
			return nil
		}
		return s.confirm.Update(k)
	case stageCreated:
		switch {
		case key.Matches(k, keyCopy):
			return s.ctx.Clipboard.Copy(s.created.Key)
		case key.Matches(k, keyNew):
			s.reset()
			return s.form.Focus(0)
		case key.Matches(k, keyClose):
			return views.Back
		}
	case stageUnknown:
		switch {
		case s.scroll.Key(k):
			return nil
		case key.Matches(k, keyResend):
			s.state = stageResending
			s.confirm = widget.NewConfirm("schedule-resend",
				"Send the same schedule again?",
				"The first request may have created it: sending again can create a second schedule.")
			s.confirm.Styles = s.ctx.Styles
			s.layout()
			return nil
		case key.Matches(k, keyEdit):
			s.state = stageForm
			return s.form.Focus(s.form.Focused())
		}
	}
	return nil
}

func (s *schedule) formKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, keyCancel):
		return views.Back
	case key.Matches(k, keyReview):
		return s.review()
	case key.Matches(k, keyAdd):
		return s.addPiece()
	case key.Matches(k, keyRemove):
		s.removePiece()
		return nil
	case k.String() == "enter":
		if s.form.Focused() == len(s.form.Fields())-1 {
			return s.review()
		}
		return s.form.Focus(s.form.Focused() + 1)
	}
	fld := s.form.Fields()[s.form.Focused()]
	before := fld.Value()
	cmd := s.form.Update(k)
	if fld.Value() != before {
		s.touched[fld] = true
		delete(s.remote, fld)
	}
	s.syncKinds()
	s.revalidate()
	return cmd
}

// pieceAt is the piece whose field is at form index i, and where the
// piece starts; -1 for the fields above the pieces.
func (s *schedule) pieceAt(i int) (int, int) {
	start := topFields
	for n, p := range s.pieces {
		end := start + len(p.fields())
		if i >= start && i < end {
			return n, start
		}
		start = end
	}
	return -1, start
}

func (s *schedule) pieceStart(n int) int {
	start := topFields
	for _, p := range s.pieces[:n] {
		start += len(p.fields())
	}
	return start
}

// syncKinds shows the fields of the kind each piece's choice names.
func (s *schedule) syncKinds() {
	for n, p := range s.pieces {
		periodic := p.kind.Value() == kindPeriodic
		if periodic == p.periodic {
			continue
		}
		at := s.pieceStart(n) + 4
		s.form.Remove(at, len(p.fields())-4)
		p.periodic = periodic
		s.form.Insert(at, p.fields()[4:]...)
	}
}

func (s *schedule) addPiece() tea.Cmd {
	n, _ := s.pieceAt(s.form.Focused())
	if n < 0 {
		n = len(s.pieces) - 1
	}
	p := newPiece()
	// A new piece takes what is missing, when something is.
	if missing := decimal.NewFromInt(1).Sub(s.sum()); missing.IsPositive() && missing.LessThanOrEqual(decimal.NewFromInt(1)) {
		p.portion.SetValue(missing.String())
	}
	at := s.pieceStart(n + 1)
	s.pieces = append(s.pieces[:n+1], append([]*piece{p}, s.pieces[n+1:]...)...)
	s.form.Insert(at, p.fields()...)
	s.relabel()
	s.layout()
	s.revalidate()
	s.setMessage(fmt.Sprintf("added piece %d", n+2), false)
	return s.form.Focus(at)
}

func (s *schedule) removePiece() {
	n, start := s.pieceAt(s.form.Focused())
	switch {
	case n < 0:
		s.setMessage("move to a piece to remove it", true)
		return
	case len(s.pieces) == 1:
		s.setMessage("a schedule needs at least one piece", true)
		return
	}
	p := s.pieces[n]
	s.form.Remove(start, len(p.fields()))
	for _, f := range p.all() {
		delete(s.touched, f)
		delete(s.remote, f)
	}
	s.pieces = append(s.pieces[:n], s.pieces[n+1:]...)
	s.relabel()
	s.layout()
	s.revalidate()
	s.form.Focus(s.pieceStart(min(n, len(s.pieces)-1)))
	s.setMessage(fmt.Sprintf("removed piece %d", n+1), false)
}

func (s *schedule) relabel() {
	for i, p := range s.pieces {
		p.label(i + 1)
	}
}

func (s *schedule) setMessage(text string, isErr bool) { s.message, s.messageErr = text, isErr }

// request builds the body from the form; a field that does not parse
// leaves its zero value and is reported in errs.
func (s *schedule) request() (api.ScheduleRequest, map[*widget.FormField]error) {
	errs := map[*widget.FormField]error{}
	num := func(f *widget.FormField) api.Number {
		if f.Check != nil {
			if err := f.Check(f.Value()); err != nil {
				errs[f] = err
				return api.Number{}
			}
		}
		n, _ := api.ParseAmount(f.Value())
		return n
	}
	day := func(f *widget.FormField) int {
		if err := f.Check(f.Value()); err != nil {
			errs[f] = err
			return 0
		}
		d, _ := strconv.Atoi(strings.TrimSpace(f.Value()))
		return d
	}
	req := api.ScheduleRequest{
		TokenID:       s.ctx.Token,
		Name:          s.name.Value(),
		Description:   s.description.Value(),
		UnlockAtStart: num(s.atStart),
		Cliff:         api.CliffRequest{Value: num(s.cliffValue), Duration: num(s.cliffMonths)},
		RoundingMode:  "FLOOR",
		Pieces:        []api.SchedulePiece{},
	}
	for _, p := range s.pieces {
		piece := api.SchedulePiece{Name: p.name.Value(), Portion: num(p.portion), StartDelay: api.ValueOf{Value: num(p.delay)}}
		if p.periodic {
			piece.Periodic = &api.PeriodConf{Length: api.ValueOf{Value: num(p.length)}, Frequency: api.ValueOf{Value: num(p.frequency)}, DayOfMonth: day(p.perDay)}
		} else {
			piece.OneOff = &api.OneOffConf{Offset: api.ValueOf{Value: num(p.offset)}, DayOfMonth: day(p.oneOffDay)}
		}
		req.Pieces = append(req.Pieces, piece)
	}
	return req, errs
}

var piecePath = regexp.MustCompile(`^pieces\[(\d+)\](?:\.(.*))?$`)

// fieldFor is the field a validation path names, or nil for a path no
// field shows (the sum of the portions, the token).
func (s *schedule) fieldFor(path string) *widget.FormField {
	switch path {
	case "name":
		return s.name
	case "description":
		return s.description
	case "unlockAtStart":
		return s.atStart
	case "cliff.value", "cliff":
		return s.cliffValue
	case "cliff.duration":
		return s.cliffMonths
	}
	m := piecePath.FindStringSubmatch(path)
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n >= len(s.pieces) {
		return nil
	}
	p := s.pieces[n]
	rest := strings.TrimSuffix(m[2], ".value")
	switch rest {
	case "name":
		return p.name
	case "portion":
		return p.portion
	case "startDelay":
		return p.delay
	case "oneOffPieceConfiguration.offset":
		return p.offset
	case "oneOffPieceConfiguration.dayOfMonth":
		return p.oneOffDay
	case "periodicPieceConfiguration.length":
		return p.length
	case "periodicPieceConfiguration.frequency":
		return p.frequency
	case "periodicPieceConfiguration.dayOfMonth":
		return p.perDay
	}
	return p.kind // the piece as a whole: its kind
}

// revalidate builds the request and shows each error of its Validate under
// the field its path names: at once for a field that was edited, for every
// field after a review was asked for.
func (s *schedule) revalidate() {
	req, parseErrs := s.request()
	s.req = req
	local := map[*widget.FormField]error{}
	s.sumErr, s.general = "", nil
	verr := req.Validate()
	var ve *api.ValidationError
	if errors.As(verr, &ve) {
		for _, f := range ve.Fields {
			switch fld := s.fieldFor(f.Path); {
			case fld != nil:
				if local[fld] == nil {
					local[fld] = errors.New(f.Message)
				}
			case f.Path == "pieces":
				s.sumErr = f.Message
			default:
				s.general = append(s.general, f.String())
			}
		}
	}
	s.valid = verr == nil && len(parseErrs) == 0
	for _, fld := range s.form.Fields() {
		err := parseErrs[fld]
		if err == nil {
			err = local[fld]
		}
		if r := s.remote[fld]; r != nil {
			fld.SetErr(r)
			continue
		}
		if err != nil && (s.submitted || s.touched[fld]) {
			fld.SetErr(err)
		} else {
			fld.SetErr(nil)
		}
	}
}

// sum is unlockAtStart + cliff.value + the portions, of what parses.
func (s *schedule) sum() decimal.Decimal {
	total := s.req.UnlockAtStart.Decimal.Add(s.req.Cliff.Value.Decimal)
	for _, p := range s.req.Pieces {
		total = total.Add(p.Portion.Decimal)
	}
	return total
}

// sumLine is the running sum, e.g. "sum of portions 0.75 of 1 (0.25
// missing)".
func (s *schedule) sumLine() string {
	total := s.sum()
	one := decimal.NewFromInt(1)
	line := "sum of portions " + total.String() + " of 1"
	switch diff := one.Sub(total); {
	case diff.IsPositive():
		line += " (" + diff.String() + " missing)"
	case diff.IsNegative():
		line += " (" + diff.Neg().String() + " too much)"
	default:
		return "✓ " + line
	}
	return "✗ " + line
}

func (s *schedule) review() tea.Cmd {
	s.submitted = true
	s.revalidate()
	if !s.valid {
		n := len(s.general)
		first := -1
		for i, f := range s.form.Fields() {
			if f.Err() != nil {
				n++
				if first < 0 {
					first = i
				}
			}
		}
		if s.sumErr != "" {
			n++
		}
		s.setMessage(fmt.Sprintf("%d problem(s) to fix before review", n), true)
		if first >= 0 {
			return s.form.Focus(first)
		}
		return nil
	}
	body, err := json.Marshal(s.req)
	if err != nil {
		s.setMessage("cannot encode the schedule: "+err.Error(), true)
		return nil
	}
	s.reviewed, s.body = s.req, body
	s.pretty = views.PrettyBody(body)
	s.state = stageReview
	s.confirm = widget.NewConfirm("schedule-create",
		fmt.Sprintf("Create schedule %q? y sends the body above to %s.", s.req.Name, createOp))
	s.confirm.Styles = s.ctx.Styles
	s.layout()
	s.scroll.Home()
	s.setMessage("", false)
	return nil
}

func (s *schedule) confirmed(msg widget.ConfirmMsg) tea.Cmd {
	switch {
	case !s.confirm.Answers(msg):
		return nil
	case s.state == stageReview:
		if !msg.Yes {
			s.state = stageForm
			s.setMessage("not sent", false)
			return s.form.Focus(s.form.Focused())
		}
		return s.send()
	case s.state == stageResending:
		if !msg.Yes {
			s.state = stageUnknown
			return nil
		}
		s.ctx.Recorder.Resent(s.written)
		return s.send()
	}
	return nil
}

// send creates the reviewed schedule through the recorder, off the UI
// goroutine. It is only ever called on a confirmed answer. When the
// answer is lost, it checks at once whether the service applied the
// write, which settles it in the journal when the check can tell.
func (s *schedule) send() tea.Cmd {
	s.seq = views.NextSeq()
	s.state = stageSending
	seq, req := s.seq, s.reviewed
	rec, client := s.ctx.Recorder, s.ctx.Session.API
	return func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		res, err := rec.CreateSchedule(c, client, req)
		out := sentMsg{seq: seq, res: res, err: err}
		var unknown *act.UnknownError
		if errors.As(err, &unknown) {
			out.verdict, out.checkErr = views.CheckSent(rec, unknown.Sent())
		}
		return out
	}
}

// check asks again whether the write was applied: the page of a write
// read back from the journal, whose first check ran in an earlier run.
func (s *schedule) check(w act.Sent) tea.Cmd {
	seq, rec := s.seq, s.ctx.Recorder
	return func() tea.Msg {
		v, err := views.CheckSent(rec, w)
		return sentMsg{seq: seq, err: errReopened, verdict: v, checkErr: err}
	}
}

// checkNote says what the check of a write whose answer was lost found,
// and what that leaves to do.
func (s *schedule) checkNote(v act.Verdict, err error) string {
	switch {
	case err != nil:
		return "The check whether the service applied it failed (" + sanitize.Line(err.Error()) +
			"): ask the service's operators whether a schedule named " + strconv.Quote(s.reviewed.Name) + " was created before sending again."
	case v.Check == act.Applied:
		return "Checked: the service applied this request. The schedule exists, but its key was lost with the answer. Sending again creates a second one."
	case v.Check == act.NotApplied:
		return "Checked: the service did not apply this request. Sending it again creates the schedule once."
	}
	return "allot cannot check: " + v.Reason + ". Ask the service's operators whether a schedule named " +
		strconv.Quote(s.reviewed.Name) + " was created (your journal records the request) before sending again."
}

func (s *schedule) answered(msg sentMsg) tea.Cmd {
	var ve *api.ValidationError
	switch {
	case msg.err == nil:
		s.state = stageCreated
		s.created = msg.res
		s.setMessage("", false)
		return s.reloadList()
	case act.Unknown(msg.err):
		s.state = stageUnknown
		var unknown *act.UnknownError
		if errors.As(msg.err, &unknown) && unknown != errReopened {
			s.written = unknown.Sent()
		}
		s.unknownNote = s.checkNote(msg.verdict, msg.checkErr)
		s.layout()
		return s.reloadList()
	case errors.As(msg.err, &ve) && ve.Remote:
		s.state = stageForm
		s.remote = map[*widget.FormField]error{}
		var rest []string
		for _, f := range ve.Fields {
			if fld := s.fieldFor(f.Path); fld != nil {
				if s.remote[fld] == nil {
					s.remote[fld] = errors.New(f.Message)
				}
			} else {
				rest = append(rest, f.String())
			}
		}
		s.revalidate()
		text := "the service refused the schedule: see the fields marked ✗"
		if len(rest) > 0 {
			text = "the service refused the schedule: " + strings.Join(rest, "; ")
		}
		s.setMessage(text, true)
		return s.form.Focus(s.form.Focused())
	default:
		s.state = stageForm
		s.setMessage("not created: "+msg.err.Error(), true)
		return s.form.Focus(s.form.Focused())
	}
}

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
	if s.confirm != nil {
		s.confirm.SetWidth(min(w, 80))
	}
	s.wrapped = widget.Hardwrap(s.wrapped, s.pretty, w)
	s.scroll.SetLines(s.wrapped)
	switch {
	case s.state == stageUnknown || s.state == stageResending:
		// The body sent between the note and the keys; the question,
		// when asked, stays whole below.
		rows := h - len(s.unknownHead(w)) - 3
		if s.state == stageResending {
			rows -= lipgloss.Height(s.confirm.View())
		}
		s.scroll.SetSize(w, max(rows, 1))
	case s.confirm != nil:
		s.scroll.SetSize(w, h-1-lipgloss.Height(s.confirm.View()))
	}
}
