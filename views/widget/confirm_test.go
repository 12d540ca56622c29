package widget

import (
	"strings"
	"testing"
)

// TestConfirmAnswersOnlyItsOwn: two dialogs with the same tag; each owns
// only its answer.
func TestConfirmAnswersOnlyItsOwn(t *testing.T) {
	a, b := NewConfirm("sign", "Sign?"), NewConfirm("sign", "Sign?")
	msg := a.Update(keyMsg("y"))().(ConfirmMsg)
	if !a.Answers(msg) || b.Answers(msg) {
		t.Errorf("a owns %v: %v; b owns it: %v", msg, a.Answers(msg), b.Answers(msg))
	}
	var none *Confirm
	if none.Answers(msg) {
		t.Error("a nil dialog owns an answer")
	}
}

func TestConfirm(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want *ConfirmMsg
	}{
		{"enter takes the default, no", []string{"enter"}, &ConfirmMsg{Tag: "fund", Yes: false}},
		{"y answers yes", []string{"y"}, &ConfirmMsg{Tag: "fund", Yes: true}},
		{"esc answers no", []string{"esc"}, &ConfirmMsg{Tag: "fund", Yes: false}},
		{"switch then enter", []string{"tab", "enter"}, &ConfirmMsg{Tag: "fund", Yes: true}},
		{"switch twice then enter", []string{"right", "left", "enter"}, &ConfirmMsg{Tag: "fund", Yes: false}},
		{"other keys do nothing", []string{"x", "q", "j"}, nil},
		{"answers once", []string{"n", "y"}, &ConfirmMsg{Tag: "fund", Yes: false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConfirm("fund", "Fund?")
			var got []ConfirmMsg
			for _, k := range tt.keys {
				if cmd := c.Update(keyMsg(k)); cmd != nil {
					got = append(got, cmd().(ConfirmMsg))
				}
			}
			switch {
			case tt.want == nil && len(got) != 0:
				t.Errorf("got %v, want no answer", got)
			case tt.want != nil && (len(got) != 1 || got[0].Tag != tt.want.Tag || got[0].Yes != tt.want.Yes):
				t.Errorf("got %v, want %v", got, *tt.want)
			case tt.want != nil && !c.Answers(got[0]):
				t.Errorf("the dialog does not own its answer %v", got[0])
			}
			if (tt.want != nil) != c.Done() {
				t.Errorf("Done() = %v", c.Done())
			}
		})
	}
}

func TestConfirmView(t *testing.T) {
	c := NewConfirm("fund", "Fund distribution\x1b[2J?", "Sends 1,000 TOK to 0xabc.")
	view := c.View()
	if !strings.Contains(view, "▶ [ No ]") || strings.Contains(view, "▶ [ Yes ]") {
		t.Errorf("No must be focused at first, visibly without color:\n%s", view)
	}
	if strings.Contains(view, "\x1b") || !strings.Contains(view, "Fund distribution^[[2J?") {
		t.Errorf("prompt not sanitized:\n%q", view)
	}
	c.Update(keyMsg("tab"))
	if !strings.Contains(c.View(), "▶ [ Yes ]") {
		t.Errorf("focus did not move:\n%s", c.View())
	}
	c.SetWidth(30)
	checkFits(t, c.View(), 30, 20)
}

// TestConfirmKeepsAnIDWhole: at 60 columns "Send this claim request for
// allocation 05b5c169-826c-5127-" broke the id at a dash; the question
// breaks at spaces only.
func TestConfirmKeepsAnIDWhole(t *testing.T) {
	const id = "05b5c169-826c-5127-b4be-e82e50f24f7a"
	c := NewConfirm("claim", "Send this claim request for allocation "+id+"?")
	c.SetWidth(60)
	view := c.View()
	checkFits(t, view, 60, 20)
	if !strings.Contains(view, id+"?") {
		t.Errorf("the id is broken:\n%s", view)
	}
}

// TestConfirmAnswersOnlyWhatWasSeen: under a Sight, y answers only a
// question the last frame showed whole; a cut or hidden question takes
// only No, and comes back with the focus on No.
func TestConfirmAnswersOnlyWhatWasSeen(t *testing.T) {
	var sight Sight
	c := NewConfirm("send", "Send?")
	sight.Watch(c)
	whole := func() string { return "title\n" + c.View() + "\nfooter" }
	cut := func() string {
		lines := strings.Split(c.View(), "\n")
		return strings.Join(lines[:len(lines)-1], "\n") // the buttons' frame line is cut
	}
	narrow := func() string {
		var out []string
		for _, l := range strings.Split(c.View(), "\n") {
			out = append(out, Truncate(l, 10))
		}
		return strings.Join(out, "\n")
	}
	hidden := func() string { return "another page" }

	for _, draw := range []func() string{cut, narrow, hidden} {
		sight.Frame(whole)
		c.Update(keyMsg("tab")) // the focus on Yes
		sight.Frame(draw)
		if c.Visible() {
			t.Fatal("a cut or hidden question counts as visible")
		}
		if cmd := c.Update(keyMsg("y")); cmd != nil {
			t.Fatalf("y answered a question not shown whole: %v", cmd())
		}
		if cmd := c.Update(keyMsg("enter")); cmd != nil {
			t.Fatalf("enter answered a question not shown whole: %v", cmd())
		}
		view := sight.Frame(whole)
		if !c.Visible() || !strings.Contains(view, "▶ [ No ]") {
			t.Fatalf("shown again, the question is not visible on No:\n%s", view)
		}
	}
	cmd := c.Update(keyMsg("enter"))
	if cmd == nil || cmd().(ConfirmMsg).Yes {
		t.Fatal("enter after the question came back did not answer No")
	}

	c = NewConfirm("send", "Send?")
	sight.Frame(whole)
	if cmd := c.Update(keyMsg("y")); cmd == nil || !cmd().(ConfirmMsg).Yes {
		t.Fatal("y did not answer a question shown whole")
	}
	c = NewConfirm("send", "Send?")
	sight.Frame(hidden)
	sight.Frame(whole)
	sight.Frame(hidden)
	if cmd := c.Update(keyMsg("n")); cmd == nil || cmd().(ConfirmMsg).Yes {
		t.Fatal("n must answer No even while the question is hidden")
	}
}

// TestConfirmBareWhenNarrow: narrower than FramedConfirmWidth the dialog
// drops its frame and blank lines, so that a review at 60x20 keeps its
// question whole; it still answers only when drawn whole.
func TestConfirmBareWhenNarrow(t *testing.T) {
	c := NewConfirm("send", "Send this claim request?", "POST allocations/x/claim", "", "It creates one transaction.")
	c.SetWidth(FramedConfirmWidth)
	framed := c.View()
	c.SetWidth(60)
	bare := c.View()
	checkFits(t, bare, 60, 20)
	if strings.Contains(bare, "╭") || strings.Count(bare, "\n") >= strings.Count(framed, "\n")-2 {
		t.Errorf("at 60 columns the dialog keeps its frame or its blank lines:\n%s", bare)
	}
	for _, want := range []string{"Send this claim request?", "POST allocations/x/claim", "It creates one transaction.", "[ Yes ]", "▶ [ No ]"} {
		if !strings.Contains(bare, want) {
			t.Errorf("the bare dialog lacks %q:\n%s", want, bare)
		}
	}
	var sight Sight
	sight.Watch(c)
	sight.Frame(func() string {
		lines := strings.Split(c.View(), "\n")
		return strings.Join(lines[:len(lines)-1], "\n") // the buttons cut
	})
	if cmd := c.Update(keyMsg("y")); cmd != nil {
		t.Fatal("y answered a bare question whose buttons were cut")
	}
	sight.Frame(c.View)
	if cmd := c.Update(keyMsg("y")); cmd == nil || !cmd().(ConfirmMsg).Yes {
		t.Fatal("y did not answer a bare question drawn whole")
	}
}

// TestConfirmMeasuredIsNotAFrame: a question's View outside its own
// program's frame (a screen measuring its height in Update, or another
// program's frame in a test running beside it) neither shows nor hides
// it: the focus the user moved stays, and it stays answerable.
func TestConfirmMeasuredIsNotAFrame(t *testing.T) {
	var mine, other Sight
	c := NewConfirm("send", "Send?")
	mine.Watch(c)
	mine.Frame(func() string { return c.View() })
	c.Update(keyMsg("tab")) // the focus on Yes
	c.View()                // measured in Update
	other.Frame(func() string { c.View(); return "another program's page" })
	if !c.Visible() {
		t.Fatal("a question measured, or drawn into another program's frame, counts as hidden")
	}
	cmd := c.Update(keyMsg("enter"))
	if cmd == nil {
		t.Fatal("enter did not answer a question shown whole")
	}
	if msg := cmd().(ConfirmMsg); !msg.Yes {
		t.Error("the focus moved to Yes was lost to a View outside the frame")
	}
}
