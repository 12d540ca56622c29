package views

import (
	"allot/core/sign"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"allot/views/widget"
	"allot/wallet"
)

// TestRefusedReviewScrollsAndIndents: a review the signing policy refused
// asks no question, yet is read whole: ↓ and pgdn scroll it, as its
// status row says, and a reason too long for a line wraps under itself,
// not at the left edge.
func TestRefusedReviewScrollsAndIndents(t *testing.T) {
	refused := &wallet.RefusedError{Subject: "stake in pool P"}
	for i := range 12 {
		refused.Reasons = append(refused.Reasons, fmt.Sprintf("reason %d: transaction 2 stakes 300,000.00 tokens; the account 0x3e3Daf419A62d6665b5B6444e071475801B87Ae2 holds 250,000.00", i+1))
	}
	s := &signing{ctx: &Context{Styles: widget.DefaultStyles()}, stage: signReview, prepared: sign.Review{Refusal: refused}}
	s.review.Styles = s.ctx.Styles
	s.setSize(80, 12)
	view := func() string { return ansi.Strip(s.viewOf(s.ctx.Styles)) }
	before := view()
	if !strings.Contains(before, "↓/pgdn scrolls") {
		t.Fatalf("the review fits; make it longer:\n%s", before)
	}
	for _, line := range strings.Split(before, "\n") {
		if strings.HasPrefix(line, "0x") || strings.HasPrefix(line, "holds") {
			t.Errorf("a reason wraps at the left edge: %q\n%s", line, before)
		}
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyPgDown}} {
		at := s.review.Top()
		if _, ok := s.update(k); !ok || s.review.Top() <= at {
			t.Errorf("%s does not scroll the refused review (top %d, was %d):\n%s", k, s.review.Top(), at, view())
		}
	}
	if errors.Is(s.err, errNotSigned) {
		t.Error("a scrolling key answered the review")
	}
}
