package app

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	clk "allot/internal/clock"
	"allot/views"
	"allot/views/widget"
)

// TestAutomaticRefreshClearsTheListsWarning: a list's warning on the
// status line ("Fruits: 1 row skipped") leaves when the automatic refresh
// loads the list again, as it does on r; before, the refresh's clear was
// in a sequence the dashboard did not tie to its page, and the quiet
// refresh sent none, so the warning outlived the load that mended it.
func TestAutomaticRefreshClearsTheListsWarning(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	fake := clk.NewFake(clock)
	m := New(s, Options{Clock: fake, Clipboard: widget.Clipboard{Out: io.Discard}})
	f := &flow{t: t, s: s, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))}
	f.wait("Team & Advisors Vesting")

	var mended atomic.Bool
	l := views.NewList(m.ctx, "Fruits", widget.TableConfig[string]{
		Columns: []widget.Column[string]{{Title: "Name", Cell: func(r string) string { return r }}},
		ID:      func(r string) string { return r },
	}, func(r string) []widget.Field { return []widget.Field{{Label: "Name", Value: r}} })
	l.Fetch = func(context.Context) ([]string, error) {
		if mended.Load() {
			return []string{"apple", "pear"}, nil
		}
		return []string{"apple"}, views.RowsWarning("1 row skipped")
	}
	f.send(views.NavigateMsg{Screen: l}).wait("Fruits: 1 row skipped")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fake.BlockUntil(ctx, 2); err != nil { // the chain's and the lists' rhythms
		t.Fatal(err)
	}
	mended.Store(true)
	f.mark = f.seen.Len()
	fake.Advance(30 * time.Second) // the lists' rhythm: the list is read again
	f.wait("pear")
	if v := f.quit().View(); strings.Contains(v, "row skipped") {
		t.Fatalf("the refresh loaded the list whole, and its old warning stayed:\n%s", v)
	}
}

// TestPagesClearLeavesOtherErrors: a page's clear as it loads again takes
// its own error off the status line, never another page's nor one about
// every page.
func TestPagesClearLeavesOtherErrors(t *testing.T) {
	t.Parallel()
	m := newModel(shared.Session(t))
	mine, other := &aged{}, &aged{}
	m.stacks[m.active] = append(m.stacks[m.active], mine)
	m.said(other, views.ErrorMsg{Op: "other", Err: errDown})
	m.said(mine, widget.StatusMsg{})
	if m.status == "" {
		t.Fatal("a page's clear wiped another page's error")
	}
	m.failOn(nil, "everywhere", errDown)
	m.said(mine, widget.StatusMsg{})
	if m.status == "" {
		t.Fatal("a page's clear wiped an error about every page")
	}
	m.said(mine, views.ErrorMsg{Op: "mine", Err: errDown})
	m.said(mine, widget.StatusMsg{})
	if m.status != "" || m.lastErr != nil {
		t.Fatalf("a page's clear left its own error: %q", m.status)
	}
}

var errDown = errors.New("connection refused")
