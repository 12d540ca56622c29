package views

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/api"
	"allot/core/act"
	"allot/views/widget"
)

// ledger is a deployment that answers every check as told.
type ledger struct {
	applied bool
	err     error
}

func (l *ledger) Mark() int { return 0 }

func (l *ledger) AppliedAfter(context.Context, int, string, string, []byte) (bool, error) {
	return l.applied, l.err
}

// lostBody is a claim-like body long enough to scroll on a small page.
func lostBody() []byte {
	var b strings.Builder
	b.WriteString(`{"sender":"0x00000000000000000000000000000000000000a1"`)
	for i := range 30 {
		fmt.Fprintf(&b, `,"note%02d":"a line of the body"`, i)
	}
	return []byte(b.String() + "}")
}

// lostAnswer is what a service that never answers gives.
var lostAnswer = &api.OutcomeUnknownError{Op: "write", Err: io.ErrUnexpectedEOF}

// writeLost sends body through rec and loses its answer; it is the write
// as journaled.
func writeLost(t *testing.T, rec *act.Recorder, body []byte) act.Sent {
	t.Helper()
	err := rec.Write(act.OpClaim, "a1", rawJSON(body), func() (string, any, error) { return "", nil, lostAnswer })
	var unknown *act.UnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("the write's answer is not lost: %v", err)
	}
	return unknown.Sent()
}

// rawJSON is a body sent as it is.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// lostPage is the page of a lost claim request checked against l, resent
// through resend; its check has not run yet.
func lostPage(t *testing.T, l *ledger, resend func(context.Context, *act.Recorder) ([]string, error)) *LostWrite {
	t.Helper()
	rec := &act.Recorder{Ledger: l}
	ctx := &Context{Styles: widget.DefaultStyles(), Recorder: rec,
		Now: func() time.Time { return time.Date(2026, 11, 22, 10, 5, 0, 0, time.UTC) }}
	w := NewLostWrite(ctx, writeLost(t, rec, lostBody()), time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	w.Resend = resend
	return w
}

// feed runs cmd and feeds what it answers back to s until nothing is
// left; the spinner's ticks are not fed (they come as long as a write is
// on its way).
func feed(s Screen, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil, spinner.TickMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			feed(s, c)
		}
	default:
		feed(s, s.Update(msg))
	}
}

// answerOf runs a send's command, and is the send's answer: not the
// spinner's tick sent with it.
func answerOf(send tea.Cmd) tea.Msg {
	msg := send()
	batch, ok := msg.(tea.BatchMsg)
	if !ok {
		return msg
	}
	for _, c := range batch {
		if m := c(); m != nil {
			if _, tick := m.(spinner.TickMsg); !tick {
				return m
			}
		}
	}
	return nil
}

func press(s Screen, k string) tea.Cmd {
	switch k {
	case "pgdown":
		return s.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	case "esc":
		return s.Update(tea.KeyMsg{Type: tea.KeyEsc})
	}
	return s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
}

func plain(s Screen) string { return ansi.Strip(s.View()) }

// words is text with its runs of blanks made one space, so that a
// sentence wrapped on the page can be looked for.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestLostWriteResendEnds: the resend goes as every write does (Sending):
// a spinner while it runs, with RequestTimeout; its answer ends as done
// (what it answered on the page), refused (the service's errors, bounded)
// or lost again (the new write, journaled, checked at once).
func TestLostWriteResendEnds(t *testing.T) {
	var refusal api.ValidationError
	refusal.Op, refusal.Remote = "allocations/claim", true
	for i := range 1000 {
		refusal.Fields = append(refusal.Fields, api.FieldError{Path: fmt.Sprintf("data[%d].amount", i), Message: "too large"})
	}
	for _, tc := range []struct {
		name   string
		answer func(*act.Recorder) ([]string, error)
		want   string
	}{
		{"done", func(*act.Recorder) ([]string, error) {
			return []string{"The service answered with 1 transaction(s)."}, nil
		}, "The service answered with 1 transaction(s)."},
		{"refused", func(*act.Recorder) ([]string, error) { return nil, &refusal }, "Sent again: allocations/claim: the service refused the request: data[0].amount: too large;"},
		{"lost again", func(rec *act.Recorder) ([]string, error) {
			var got []string
			err := rec.Write(act.OpClaim, "a1", rawJSON(lostBody()), func() (string, any, error) { return "", nil, lostAnswer })
			return got, err
		}, "The second request's answer was lost too."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var deadline time.Time
			w := lostPage(t, &ledger{}, func(c context.Context, rec *act.Recorder) ([]string, error) {
				deadline, _ = c.Deadline()
				return tc.answer(rec)
			})
			w.SetSize(60, 20)
			feed(w, w.Init())
			first := w.outcome.Sent()
			feed(w, press(w, "r"))
			confirmed := press(w, "y")()
			send := w.Update(confirmed)
			if !w.Mode().Busy || !w.Mode().OwnsEsc {
				t.Fatalf("sending: mode %+v", w.Mode())
			}
			if v := plain(w); !strings.Contains(v, spinner.MiniDot.Frames[0]+" Sending it again") {
				t.Fatalf("no spinner while the resend runs:\n%s", v)
			}
			answer := answerOf(send)
			if time.Until(deadline) <= RequestTimeout-time.Minute || time.Until(deadline) > RequestTimeout {
				t.Errorf("the resend's deadline is %v away, want RequestTimeout", time.Until(deadline))
			}
			// A second resend's answer is the one that counts.
			if tc.name == "done" {
				stale := answer
				feed(w, w.Update(stale))
				if w.Mode().Busy || !strings.Contains(words(plain(w)), tc.want) {
					t.Fatalf("the answer was not taken:\n%s", plain(w))
				}
				// What is known now is on top, not "Outcome unknown".
				if top, _, _ := strings.Cut(plain(w), "\n"); !strings.HasPrefix(top, "Sent again: claim request") || w.Title() != "Sent again: claim request" {
					t.Fatalf("the title is %q (tab %q) once the resend answered:\n%s", top, w.Title(), plain(w))
				}
				if !strings.Contains(words(plain(w)), words(w.outcome.Note())) {
					t.Fatalf("what the check of the first write found is gone:\n%s", plain(w))
				}
				return
			}
			feed(w, w.Update(answer))
			v := plain(w)
			if !strings.Contains(words(v), tc.want) {
				t.Fatalf("want %q on the page:\n%s", tc.want, v)
			}
			if n := len(strings.Split(v, "\n")); n > 20 {
				t.Fatalf("%d lines on a page of 20:\n%s", n, v)
			}
			if top, _, _ := strings.Cut(v, "\n"); !strings.HasPrefix(top, "Outcome unknown: claim request") {
				t.Fatalf("the title is %q, though the outcome is still unknown:\n%s", top, v)
			}
			if tc.name == "lost again" {
				if w.outcome.Sent().Write == first.Write || w.outcome.Sent().Write == "" {
					t.Fatalf("the write checked is %+v, want the second one", w.outcome.Sent())
				}
				if v := w.outcome.Verdict(); v == nil || v.Check != act.NotApplied {
					t.Fatalf("the second write is not checked at once: %+v", v)
				}
			}
		})
	}
}

// TestLostWriteStaleResendDropped: the answer of a resend that is no
// longer on its way (another was sent since) is dropped.
func TestLostWriteStaleResendDropped(t *testing.T) {
	n := 0
	w := lostPage(t, &ledger{}, func(context.Context, *act.Recorder) ([]string, error) {
		n++
		return nil, fmt.Errorf("refused %d", n)
	})
	w.SetSize(80, 24)
	feed(w, w.Init())
	feed(w, press(w, "r"))
	send := w.Update(press(w, "y")())
	first := answerOf(send)
	feed(w, w.Update(first))
	feed(w, press(w, "r"))
	feed(w, w.Update(press(w, "y")()))
	feed(w, w.Update(first)) // the first resend's answer, again
	if v := words(plain(w)); !strings.Contains(v, "refused 2") || strings.Contains(v, "refused 1") {
		t.Fatalf("the first resend's answer was taken after the second's:\n%s", plain(w))
	}
}

// TestLostWriteLayoutFollowsEachChange: at 60x20 the page is laid out
// again whenever what it draws changes (the check's answer, c, the
// question and its answer, the resend and its answer, a resize), and only
// then: the title is on top, the body scrolls in exactly the rows left,
// and what is below the body is drawn whole at the bottom.
func TestLostWriteLayoutFollowsEachChange(t *testing.T) {
	w := lostPage(t, &ledger{}, func(_ context.Context, rec *act.Recorder) ([]string, error) {
		return nil, rec.Write(act.OpClaim, "a1", rawJSON(lostBody()), func() (string, any, error) { return "", nil, lostAnswer })
	})
	w.SetSize(60, 20)
	laidOut := func(when, last string) {
		t.Helper()
		lines := strings.Split(plain(w), "\n")
		for len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) != 20 {
			t.Fatalf("%s: %d lines drawn, want the page's 20:\n%s", when, len(lines), strings.Join(lines, "\n"))
		}
		if !strings.HasPrefix(lines[0], "Outcome unknown: claim request") {
			t.Fatalf("%s: the title is not on top:\n%s", when, strings.Join(lines, "\n"))
		}
		status := -1
		for i, l := range lines {
			if strings.HasPrefix(l, "lines ") && strings.Contains(l, " of 33") {
				status = i
			}
		}
		if status < 0 {
			t.Fatalf("%s: the body's window is not drawn whole:\n%s", when, strings.Join(lines, "\n"))
		}
		if got := words(strings.Join(lines[status+1:], " ")); got != words(last) {
			t.Fatalf("%s: below the body %q, want %q:\n%s", when, got, last, strings.Join(lines, "\n"))
		}
		if note := words(w.outcome.Note()); !strings.Contains(words(strings.Join(lines[:status], " ")), note) {
			t.Fatalf("%s: the check's note %q is not above the body:\n%s", when, note, strings.Join(lines, "\n"))
		}
	}
	check := w.Init()
	laidOut("opened", "")
	feed(w, check)
	laidOut("checked", "")
	check = press(w, "c")
	laidOut("checking again", "")
	feed(w, check)
	laidOut("checked again", "")

	feed(w, press(w, "r"))
	lines := strings.Split(strings.TrimRight(plain(w), "\n"), "\n")
	if n := len(lines); n > 20 || !strings.Contains(words(plain(w)), "Send this request again?") ||
		!strings.Contains(lines[n-1], "[ Yes ]") || !strings.Contains(lines[n-1], "[ No ]") {
		t.Fatalf("the question is not whole at the bottom:\n%s", plain(w))
	}
	feed(w, press(w, "n"))
	laidOut("not sent", "")

	feed(w, press(w, "r"))
	send := w.Update(press(w, "y")())
	laidOut("sending", spinner.MiniDot.Frames[0]+" Sending it again…")
	feed(w, send)
	laidOut("lost again", "The second request's answer was lost too.")

	w.SetSize(120, 36)
	w.SetSize(60, 20)
	laidOut("resized", "The second request's answer was lost too.")
	for range 3 {
		press(w, "pgdown")
	}
	feed(w, w.Update(spinner.TickMsg{}))
	laidOut("scrolled", "The second request's answer was lost too.")
}

// TestLostWriteKeysInFooter: the page says what the check found as every
// write's page does (Outcome.Note) and draws no keys: they are in the
// footer (ShortHelp), c and r only while they act; the question before a
// resend is the write review's, whose y sends.
func TestLostWriteKeysInFooter(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *ledger
	}{
		{"not applied", &ledger{}},
		{"applied", &ledger{applied: true}},
		{"check failed", &ledger{err: errors.New("the ledger is closed")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := lostPage(t, tc.l, func(context.Context, *act.Recorder) ([]string, error) { return []string{"Sent."}, nil })
			w.SetSize(100, 30)
			feed(w, w.Init())
			v := words(plain(w))
			if note := words(w.outcome.Note()); note == "" || !strings.Contains(v, note) {
				t.Fatalf("the page does not say %q:\n%s", note, plain(w))
			}
			for _, k := range []string{"check again", "resend (asks first)", "esc close", "esc: close"} {
				if strings.Contains(v, k) {
					t.Errorf("the page draws the key %q:\n%s", k, plain(w))
				}
			}
			var help []string
			for _, b := range w.Keys().ShortHelp() {
				help = append(help, b.Help().Key+" "+b.Help().Desc)
			}
			keys := strings.Join(help, " · ")
			if !strings.Contains(keys, "c check again") || !strings.Contains(keys, "esc close") ||
				strings.Contains(keys, "r resend") == (tc.name == "applied") {
				t.Fatalf("footer keys %q", keys)
			}
			if tc.name == "applied" {
				return
			}
			feed(w, press(w, "r"))
			help = help[:0]
			for _, b := range w.Keys().ShortHelp() {
				help = append(help, b.Help().Key+" "+b.Help().Desc)
			}
			if keys := strings.Join(help, " · "); !strings.Contains(keys, "y send") || !strings.Contains(keys, "scroll the body") {
				t.Fatalf("the question's keys %q, want the write review's", keys)
			}
		})
	}
}

// TestLostWriteResultSanitized: what the resend answered is drawn safe:
// its lines carry what the service and the journal hold (an allocation
// id, a URL), which may hold a terminal's escapes.
func TestLostWriteResultSanitized(t *testing.T) {
	w := lostPage(t, &ledger{}, func(context.Context, *act.Recorder) ([]string, error) {
		return []string{"Registered \x1b]52;c;cm0gLXJmIH4=\x07 at \x1b[2J https://cdn.example/logo.png"}, nil
	})
	w.SetSize(80, 24)
	feed(w, w.Init())
	feed(w, press(w, "r"))
	feed(w, w.Update(press(w, "y")()))
	if v := w.View(); strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[2J") || !strings.Contains(v, "https://cdn.example/logo.png") {
		t.Fatalf("the resend's answer is not drawn safe: %q", v)
	}
}
