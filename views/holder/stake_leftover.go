package holder

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/common"

	"allot/internal/sanitize"
	"allot/views/widget"
	"allot/wallet"
)

// keyResetAllowance starts the reset of what a failed stake left behind.
var keyResetAllowance = key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset the allowance left (review first)"))

// leftover is what the stake screen knows of the allowance a stake left
// behind: read from the chain once the stake's flow (or a reset's) ended
// with its approve mined and the stake not.
type leftover struct {
	seq     int
	reading bool
	// read: the stake's flow was looked at; a reset's is looked at too.
	read, resetRead bool
	left            *wallet.Leftover // nil when none is left, or not read
	err             error
}

// leftoverRead is the answer of reading the allowance left.
type leftoverRead struct {
	seq  int
	left *wallet.Leftover
	err  error
}

// stakeLeft reports whether statuses, a stake's as sent, leave an
// allowance: the approve was mined and the stake was not (reverted,
// dropped, refused by the node, or never sent).
func stakeLeft(statuses []wallet.Status) bool {
	stakeMined := len(statuses) == 2 && statuses[1].State == wallet.StateSuccess
	return len(statuses) > 0 && statuses[0].State == wallet.StateSuccess && !stakeMined
}

// checkLeftover reads the allowance left once the flow shown is done: the
// stake's, when its approve was mined and the stake was not; a reset's,
// to say what is left after it.
func (s *stake) checkLeftover() tea.Cmd {
	statuses, done := s.Finished()
	if !done || s.plan == nil || s.plan.Approve == nil || s.left.reading {
		return nil
	}
	switch {
	case s.After() && !s.left.resetRead:
		s.left.resetRead = true
	case !s.After() && !s.left.read && stakeLeft(statuses):
		s.left.read = true
	default:
		return nil
	}
	s.left.seq, s.left.reading = s.Reqs.Next(), true
	seq, chain, plan := s.left.seq, s.Ctx.Session.Chain, s.plan
	root := s.Ctx.Root()
	return func() tea.Msg {
		left, err := wallet.LeftAllowance(root, chain, plan.Token, plan.Stake.From, plan.Stake.To)
		return leftoverRead{seq: seq, left: left, err: err}
	}
}

// updateLeftover takes the allowance read and the reset key; it reports
// whether msg was its own.
func (s *stake) updateLeftover(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case leftoverRead:
		if msg.seq == s.left.seq {
			s.left.reading, s.left.left, s.left.err = false, msg.left, msg.err
			s.Resize()
		}
		return nil, true
	case tea.KeyMsg:
		return s.resetKeys().Dispatch(msg)
	}
	return nil, false
}

// resetOffered: an allowance is left and no flow runs.
func (s *stake) resetOffered() bool {
	_, done := s.Finished()
	return done && s.left.left != nil && !s.left.reading
}

// reset prepares the approve of 0 that takes the allowance back, on the
// one signing path: its review comes first, and it is signed only on yes.
func (s *stake) reset() tea.Cmd {
	left := s.left.left
	call, err := left.ResetCall(s.Ctx.Session.Profile.ChainID)
	if err != nil {
		s.left.err = err
		return nil
	}
	// A reset's outcome is read again once it ends.
	s.left.resetRead = false
	check := s.Ctx.Session.ResetCheck(s.pool, left.Owner, left.Token)
	labels := map[common.Address]string{left.Token: "the token the allowance is on"}
	return s.SignAfter(s.pool.ID, []string{"reset-allowance"}, []wallet.Call{call}, labels, check)
}

// leftoverLines say what the stake left behind, below the flow's outcome.
func (s *stake) leftoverLines() string {
	l := s.left
	if _, done := s.Finished(); !done {
		return "" // a reset's review and sending are read alone
	}
	switch {
	case l.reading:
		return "Reading the allowance left on the chain…\n"
	case l.err != nil:
		return "✗ The approve was mined and the stake was not; the allowance left could not be read: " + sanitize.Line(l.err.Error()) + "\n"
	case l.left != nil:
		return fmt.Sprintf("Left behind: the approve was mined and the stake was not, so %s.\nR resets it: an approve of 0, reviewed first, signed only on yes.\n", l.left.Sentence())
	case l.resetRead:
		return "Nothing is left: the staking contract may move none of your tokens.\n"
	}
	return ""
}

// resetKeys are R while a reset is offered, which updateLeftover
// dispatches and the footer and help list.
func (s *stake) resetKeys() widget.Bindings {
	if !s.resetOffered() {
		return nil
	}
	return widget.Bindings{{Key: keyResetAllowance, Short: true, Run: s.reset}}
}
