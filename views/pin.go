package views

import (
	"context"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/ethereum/go-ethereum/common"

	"allot/core/session"
	"allot/views/widget"
	"allot/wallet"
)

// The pin question. The signing policy signs only for contracts the
// profile pins (docs/deployment.md D17, as amended); when it refused a
// claim or a stake for that reason alone, the review asks, as a question
// of its own, whether to pin the contract: it shows what allot knows of
// it (who lists it, its code, whether this journal signed for it), starts
// on No and is answered only while drawn whole (widget.Confirm). Yes pins
// it in the profile's file, with its code hash, and checks the calls
// again. Signing never pins by itself.

// pinAsk is the pin question of a refused review.
type pinAsk struct {
	unpinned wallet.Unpinned
	confirm  *widget.Confirm // nil until what allot knows is read
}

// pinInfo is what allot knows of the contract to pin.
type pinInfo struct {
	info session.ContractInfo
	// signedFor: this journal holds a signature for a call to it.
	signedFor, journalRead bool
}

// pinned is the answer of pinning: the code hash recorded.
type pinned struct{ hash common.Hash }

// askPin starts the pin question for a refusal that only missing pins
// caused, when the profile has a file to pin in; nil otherwise.
func (s *signing) askPin(refused *wallet.RefusedError) tea.Cmd {
	if !refused.OnlyUnpinned() || !s.ctx.Session.CanPin() {
		return nil
	}
	u := refused.Unpinned[0]
	s.pin = &pinAsk{unpinned: u}
	session, rec := s.ctx.Session, s.ctx.Recorder
	return Load(s.ctx, s.seq, func(ctx context.Context) (pinInfo, error) {
		p := pinInfo{info: session.Describe(ctx, u.Kind, u.Address)}
		if seen := rec.Seen(); seen != nil {
			p.journalRead, p.signedFor = true, seen(u.Address)
		}
		return p, nil
	})
}

// pinQuestion is the question, once what allot knows is read; nil while
// it is read, or when the contract cannot be pinned (no code).
func (s *signing) pinQuestion() *widget.Confirm {
	if s.pin == nil {
		return nil
	}
	return s.pin.confirm
}

// keyPinDontAsk drops the pin question while it is read.
var keyPinDontAsk = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "do not ask"))

// pinPending: the pin question is to be asked, once what allot knows of
// the contract is read.
func (s *signing) pinPending() bool { return s.pin != nil && s.pin.confirm == nil }

func (s *signing) pinPendingLine() string {
	return fmt.Sprintf("Reading what allot knows of %s, to ask whether to pin it… esc: do not ask", s.pin.unpinned.Address.Hex())
}

// dropPin drops the pin question while it is read (esc), so that it
// never comes, and leaves the refused review.
func (s *signing) dropPin() tea.Cmd {
	s.pin = nil
	s.setSize(s.width, s.height)
	return nil
}

// updatePin handles the pin question's messages; it reports whether msg
// was one.
func (s *signing) updatePin(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case Loaded[pinInfo]:
		if msg.Seq != s.seq || s.pin == nil {
			return nil, false
		}
		info := msg.Value.info
		if info.CodeErr != nil {
			s.pin, s.pinErr = nil, fmt.Errorf("cannot pin %s: its code: %w", info.Address.Hex(), info.CodeErr)
			s.setSize(s.width, s.height)
			return nil, true
		}
		if flag := info.Flag(); flag != "" {
			// A y is too easy for a namesake: its address is typed, in
			// allot pin --confirm-address.
			kind := s.pin.unpinned.Kind
			s.pin, s.pinErr = nil, fmt.Errorf("not offered: %s; check both, then pin it by typing its address: allot pin %s %s --confirm-address ADDR",
				flag, kind, info.Address.Hex())
			s.setSize(s.width, s.height)
			return nil, true
		}
		s.pin.confirm = s.ctx.Confirm("pin", s.pinPrompt(), pinDetails(msg.Value, s.ctx.Session.Name, s.height < smallPinHeight)...)
		s.pin.confirm.SetWidth(min(s.width, 80))
		s.setSize(s.width, s.height)
		return nil, true
	case widget.ConfirmMsg:
		q := s.pinQuestion()
		if !q.Answers(msg) {
			return nil, false
		}
		u := s.pin.unpinned
		s.pin = nil
		if !msg.Yes {
			s.setSize(s.width, s.height)
			return nil, true
		}
		session := s.ctx.Session
		s.pinning = true
		// The user said yes: the pin is written whole, whatever comes
		// next (a write, not a load that quitting cuts short).
		return Write(s.seq, func(ctx context.Context) (pinned, error) {
			hash, err := session.Pin(ctx, u.Kind, u.Address, false)
			return pinned{hash}, err
		}), true
	case Loaded[pinned]:
		if msg.Seq != s.seq {
			return nil, false
		}
		s.pinning = false
		if msg.Err != nil {
			s.pinErr = msg.Err
			s.setSize(s.width, s.height)
			return nil, true
		}
		// Pinned: the same calls are checked again, against the pins as
		// they are now.
		s.restart()
		return s.build(), true
	}
	return nil, false
}

// pinCrowds reports whether the pin question leaves the review behind it
// too few rows (a line and where it scrolls, under its title): at 60x20
// the review then gives way, so that the question is drawn whole and can
// be answered; n returns to the review.
func (s *signing) pinCrowds() bool {
	q := s.pinQuestion()
	return q != nil && s.height-1-lipgloss.Height(q.View()) < 3
}

func (s *signing) pinPrompt() string {
	u := s.pin.unpinned
	return fmt.Sprintf("Pin %s as a %s?", u.Address.Hex(), kindName(u.Kind))
}

// kindName names a kind of pin for people.
func kindName(kind wallet.PinKind) string {
	switch kind {
	case wallet.PinStaking:
		return "staking contract"
	case wallet.PinHandler:
		return "post-claim handler"
	}
	return string(kind)
}

// pinDetails say what allot knows of the contract, and what yes does:
// one line each at the dashboard's usual widths, so that the question is
// drawn whole (and so can be answered) at 80x24.
func pinDetails(p pinInfo, profile string, small bool) []string {
	journal := "never signed for in this journal"
	switch {
	case !p.journalRead:
		journal = "the journal could not be read"
	case p.signedFor:
		journal = "signed for in this journal before (that vouches for nothing)"
	}
	lines := []string{
		"Listed:  " + p.info.ListedAs(),
		"Code:    " + codeSaid(p.info.CodeHash, small),
	}
	if logic := p.info.Logic(); logic != "" {
		lines = append(lines, "Logic:   "+logic)
	}
	lines = append(lines, alsoLines(p.info, small)...)
	return append(lines,
		"Journal: "+journal,
		fmt.Sprintf("Check it on an explorer. Yes pins it, and this code, in profile %q.", profile))
}

// smallPinHeight: on a terminal shorter than this, the pin question says
// the other candidates briefly, so that it is drawn whole at 60x20.
const smallPinHeight = 24

// alsoLines name the other listed contracts the one to pin could stand
// for (session.Candidate), one line each; on a small screen one line in
// all: the first (a pinned one first) briefly, and how many more.
func alsoLines(info session.ContractInfo, small bool) []string {
	if small && len(info.Candidates) > 0 {
		line := "Also:    " + info.Candidates[0].Brief()
		if more := len(info.Candidates) - 1; more > 0 {
			line += fmt.Sprintf(" (+%d more)", more)
		}
		return []string{line}
	}
	var lines []string
	for _, c := range info.Candidates {
		lines = append(lines, "Also:    "+c.String())
	}
	return lines
}

// codeSaid is the code hash, whole but on a small screen, where its
// middle gives way (three rows at 60 columns) to the other candidates.
func codeSaid(h common.Hash, small bool) string {
	if !small {
		return h.Hex()
	}
	x := h.Hex()
	return x[:18] + "…" + x[58:]
}
