package views

// The chain's head is a session fact: the dashboard looks at the node
// (app/head.go) and owns what it saw; screens read it from the Context and
// hear of a change by a HeadMsg, sent to every screen, not by a copy each
// keeps of its own.

// HeadMsg says the chain's head changed: a screen that counts
// confirmations counts them again from Block. Block 0 says the head is no
// longer known (another profile's node).
type HeadMsg struct{ Block uint64 }

// SetHead records the chain's head, 0 for not known, and returns the
// message that tells the screens.
func (c *Context) SetHead(block uint64) HeadMsg {
	c.head = block
	return HeadMsg{Block: block}
}

// Head is the chain's head last seen, and whether one was.
func (c *Context) Head() (uint64, bool) { return c.head, c.head > 0 }

// Confirmations counts the block that took a transaction and every block
// on it up to head: recorded (what was counted when it was followed) until
// the head is known past it; never fewer than recorded, since a head
// lower than the block (a node restarted, another node) says nothing of
// the transaction.
func Confirmations(block, recorded, head uint64) uint64 {
	if block == 0 || head < block {
		return recorded
	}
	return max(recorded, head-block+1)
}
