package views

import (
	"context"
	"errors"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/core/act"
)

// Sending is one confirmed write on its way to the service, as every
// screen sends its writes (the operator's, the schedule's, a creative's,
// a claim request, a batch of them, a resend): the call off the UI
// goroutine with RequestTimeout, a spinner while it runs, and its answer
// told apart into the ends of a write (done, refused with fields to mark,
// lost), so that every screen tells them apart alike.
type Sending[T any] struct {
	spin spinner.Model
	reqs Requests
	seq  int
	on   bool
}

// Answer is what a write came to: Value when Err is nil; otherwise
// Refused, Lost, or a failure that is neither.
type Answer[T any] struct {
	seq   int
	Value T
	Err   error
}

// Start sends through call (a Recorder workflow, which journals the
// write), detached from the screens' root (see Write); an earlier send's
// answer is dropped from then on.
func (s *Sending[T]) Start(call func(context.Context) (T, error)) tea.Cmd {
	if s.spin.Spinner.Frames == nil {
		s.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	}
	s.seq, s.on = s.reqs.Next(), true
	seq := s.seq
	send := func() tea.Msg {
		c, cancel := writeContext()
		defer cancel()
		v, err := call(c)
		return Answer[T]{seq: seq, Value: v, Err: err}
	}
	return tea.Batch(s.spin.Tick, send)
}

// Busy reports whether a write is on its way.
func (s *Sending[T]) Busy() bool { return s.on }

// Spinner is the spinner's frame, to draw beside what is being sent.
func (s *Sending[T]) Spinner() string { return s.spin.View() }

// Update turns the spinner while the write is on its way, and gives the
// write's answer when msg is it (nil otherwise, and for an earlier
// send's answer).
func (s *Sending[T]) Update(msg tea.Msg) (*Answer[T], tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if !s.on {
			return nil, nil
		}
		var cmd tea.Cmd
		s.spin, cmd = s.spin.Update(msg)
		return nil, cmd
	case Answer[T]:
		if msg.seq != s.seq || !s.on {
			return nil, nil
		}
		s.on = false
		return &msg, nil
	}
	return nil, nil
}

// Refused is the service's refusal of the body, whose fields the form
// marks (Form.SetErrors(PathErrors(v))); nil when it was not refused so.
func (a *Answer[T]) Refused() *api.ValidationError {
	var invalid *api.ValidationError
	if errors.As(a.Err, &invalid) {
		return invalid
	}
	return nil
}

// Lost reports whether the answer was lost, and the write as journaled
// (written when the error does not carry it), for Outcome.Lost.
func (a *Answer[T]) Lost(written act.Sent) (act.Sent, bool) {
	if !act.Unknown(a.Err) {
		return act.Sent{}, false
	}
	var journaled *act.UnknownError
	if errors.As(a.Err, &journaled) {
		return journaled.Sent(), true
	}
	return written, true
}
