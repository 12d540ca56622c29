package schedule

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views/widget"
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
		portion:   newField("portion", "0.5"),
		delay:     newField("startDelay", "0"),
		kind:      widget.ChoiceField("kind", "", kindOneOff, kindPeriodic),
		offset:    newField("offset", "0"),
		oneOffDay: newField("dayOfMonth", "1"),
		length:    newField("length", "12"),
		frequency: newField("frequency", "1"),
		perDay:    newField("dayOfMonth", "1"),
	}
}

func newField(key, value string) *widget.FormField {
	f := widget.TextField(key, "", "", nil)
	f.SetValue(value)
	return f
}

// watch makes each field's check its error as the schedule was last
// revalidated: the request is checked as a whole (a field's error may
// come from its parse or from Validate), and the form shows what it says
// of each field (Form.Recheck).
func (s *schedule) watch(fields ...*widget.FormField) {
	for _, f := range fields {
		f.Check = func(string) error { return s.errs[f] }
	}
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

// label names the fields after the piece's place, counted from 1, and
// keys them by the paths the service names them with (pieces[0].portion;
// the kind is the piece as a whole, pieces[0]).
func (p *piece) label(n int) {
	at := fmt.Sprintf("pieces[%d]", n-1)
	p.kind.Key = at
	for _, f := range []struct {
		fld  *widget.FormField
		path string
	}{
		{p.name, ".name"}, {p.portion, ".portion"}, {p.delay, ".startDelay"},
		{p.offset, ".oneOffPieceConfiguration.offset"}, {p.oneOffDay, ".oneOffPieceConfiguration.dayOfMonth"},
		{p.length, ".periodicPieceConfiguration.length"}, {p.frequency, ".periodicPieceConfiguration.frequency"},
		{p.perDay, ".periodicPieceConfiguration.dayOfMonth"},
	} {
		f.fld.Key = at + f.path
	}
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
	s.watch(p.all()...)
	// A new piece takes what is missing: nothing when the portions sum
	// to 1 already, so that adding one does not break the sum at once.
	missing := decimal.NewFromInt(1).Sub(s.sum())
	switch {
	case !missing.IsPositive():
		p.portion.SetValue("0")
	case missing.LessThanOrEqual(decimal.NewFromInt(1)):
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

// request builds the body from the form; a field that does not parse
// leaves its zero value and is reported in errs.
func (s *schedule) request() (api.ScheduleRequest, map[*widget.FormField]error) {
	errs := map[*widget.FormField]error{}
	num := func(f *widget.FormField, check func(string) error) api.Number {
		if err := check(f.Value()); err != nil {
			errs[f] = err
			return api.Number{}
		}
		n, _ := api.ParseAmount(f.Value())
		return n
	}
	fraction := func(f *widget.FormField) api.Number { return num(f, checkFraction) }
	months := func(f *widget.FormField) api.Number { return num(f, checkMonths) }
	day := func(f *widget.FormField) int {
		if err := checkDay(f.Value()); err != nil {
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
		UnlockAtStart: fraction(s.atStart),
		Cliff:         api.CliffRequest{Value: fraction(s.cliffValue), Duration: months(s.cliffMonths)},
		RoundingMode:  "FLOOR",
		Pieces:        []api.SchedulePiece{},
	}
	for _, p := range s.pieces {
		piece := api.SchedulePiece{Name: p.name.Value(), Portion: fraction(p.portion), StartDelay: api.ValueOf{Value: months(p.delay)}}
		if p.periodic {
			piece.Periodic = &api.PeriodConf{Length: api.ValueOf{Value: months(p.length)}, Frequency: api.ValueOf{Value: months(p.frequency)}, DayOfMonth: day(p.perDay)}
		} else {
			piece.OneOff = &api.OneOffConf{Offset: api.ValueOf{Value: months(p.offset)}, DayOfMonth: day(p.oneOffDay)}
		}
		req.Pieces = append(req.Pieces, piece)
	}
	return req, errs
}

// revalidate builds the request and checks it: a field's error is its
// parse error, else the first error of Validate its path names. The form
// shows them (Recheck): a field's once it was left, every field's after a
// review was asked for (Form.ErrorsOnLeave).
func (s *schedule) revalidate() {
	req, errs := s.request()
	s.req = req
	s.sumErr, s.general = "", nil
	verr := req.Validate()
	s.valid = verr == nil && len(errs) == 0
	var ve *api.ValidationError
	if errors.As(verr, &ve) {
		for _, f := range ve.Fields {
			switch fld, item := s.form.FieldOf(f.Path); {
			case f.Path == "pieces":
				s.sumErr = f.Message // the sum line says it
			case fld != nil:
				if errs[fld] == nil {
					errs[fld] = errors.New(item + f.Message)
				}
			default:
				s.general = append(s.general, f.String())
			}
		}
	}
	s.errs = errs
	s.form.Recheck()
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
