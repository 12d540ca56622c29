package wallet

import "github.com/ethereum/go-ethereum/core/vm"

// A DELEGATECALL to the contract's own address runs the contract's own
// code, whatever its storage holds: OpenZeppelin's Multicall does that
// (Address.functionDelegateCall(address(this), data[i])), and the vester
// inherits it. Such a call cannot change what runs, so it is no reason
// to say that the logic may change while the code stays the same.
//
// selfCallsOnly proves it by running the code abstractly from pc 0: each
// stack word is the contract's own address (pushed by ADDRESS), the pc of
// a JUMPDEST (pushed by a PUSH, which is all a jump target needs), or
// unknown (everything else: arithmetic, memory, storage, calldata).
// Words move through DUPn, SWAPn and POP as the EVM moves them; a jump
// goes to its target only when that is a known JUMPDEST. Solidity's
// internal calls push their return address and come back with a JUMP to
// it, so a stack that carries those constants is followed back to the
// right caller.
//
// States are kept per block entry (pc 0, a JUMPDEST, the instruction after
// a JUMPI), except where the code runs straight on to a halt: what it does
// there cannot delegate, whatever the stack (Solidity's reverts and
// panics, reached from everywhere, would otherwise keep most states). Two
// states are joined only when their heights and their known jump targets
// agree, which keeps callers apart; a word that is the address in one and
// unknown in the other becomes unknown. Every word has
// finitely many values (the pushed pcs, the address, unknown), so the
// states are finite, and the bounds below keep them few: any bound hit,
// any jump to an unknown target, any instruction the analysis does not
// know, a stack underflow or overflow, and the answer is no.

// The bounds of the analysis. Work counts an instruction run, and a
// stack word hashed, compared or copied where blocks are reached. The
// vester (12 KB of code) takes about 96,000 work and 2,600 states, at
// most 72 of them at one block.
const (
	maxSelfCode        = 1 << 20 // bytes of code analysed at all
	maxSelfWork        = 1 << 22 // over all blocks
	maxSelfStates      = 1 << 14 // states kept at block entries
	maxSelfBlockStates = 512     // of them at any one block
	maxSelfWords       = 1 << 19 // stack words kept in those states (2 MiB)
	maxStackDepth      = 1024    // the EVM's own limit
)

// word is what the analysis knows of a stack word.
type word uint32

const (
	unknownWord word = iota
	selfWord         // the contract's own address (ADDRESS)
	firstDest        // pc p is the word firstDest+p, a JUMPDEST's pc
)

// entry is a state kept where the block at pc starts: the stack on entry,
// and whether it is waiting to be run.
type entry struct {
	pc     int
	stack  []word
	queued bool
	next   *entry // another state of the same shape's hash
}

// selfCheck is one run of the analysis over code.
type selfCheck struct {
	code    []byte
	dests   []uint64          // bit pc: a JUMPDEST instruction at pc
	index   map[uint64]*entry // the states kept, by their shape
	atBlock []uint16          // per pc: how many of them at its block
	entries []entry           // where kept states are carved from
	queue   []*entry          // the states waiting to be run
	stack   []word            // the block being run
	work    int
	kept    int     // states kept
	words   int     // words in them
	arena   []word  // where kept states' words are carved from
	ends    []uint8 // per pc: endUnknown, endHalts or endGoesOn
}

// selfCallsOnly reports whether every DELEGATECALL and CALLCODE that code
// can reach from pc 0 is proved to target the contract's own address.
// false means it could not be proved, not that it was disproved.
func selfCallsOnly(code []byte) bool {
	return len(code) <= maxSelfCode && newSelfCheck(code).prove()
}

// newSelfCheck readies an analysis of code.
func newSelfCheck(code []byte) *selfCheck {
	return &selfCheck{
		code:    code,
		dests:   jumpdests(code),
		index:   make(map[uint64]*entry, 1<<10),
		atBlock: make([]uint16, len(code)+1),
		ends:    make([]uint8, len(code)+1),
		stack:   make([]word, 0, maxStackDepth+1),
	}
}

// prove runs the analysis from pc 0 until every block reached has run
// with every state kept for it, or until it fails.
func (c *selfCheck) prove() bool {
	if !c.reach(0, nil) {
		return false
	}
	for len(c.queue) > 0 {
		next := c.queue[len(c.queue)-1]
		c.queue = c.queue[:len(c.queue)-1]
		next.queued = false
		if !c.run(next.pc, next.stack) {
			return false
		}
	}
	return true
}

// jumpdests marks the pcs of JUMPDEST instructions: 0x5b bytes that are
// not a PUSH's data, the only places a jump may land.
func jumpdests(code []byte) []uint64 {
	bits := make([]uint64, len(code)/64+1)
	for pc := 0; pc < len(code); pc++ {
		switch op := vm.OpCode(code[pc]); {
		case op == vm.JUMPDEST:
			bits[pc/64] |= 1 << (pc % 64)
		case op >= vm.PUSH1 && op <= vm.PUSH32:
			pc += int(op - vm.PUSH0)
		}
	}
	return bits
}

// reach records that the block at pc runs with stack, and queues it
// unless a state kept there already covers stack. false: a bound is hit.
func (c *selfCheck) reach(pc int, stack []word) bool {
	if c.haltsFrom(pc) {
		return true
	}
	if c.work += len(stack); c.work > maxSelfWork {
		return false
	}
	key := shape(pc, stack)
	for e := c.index[key]; e != nil; e = e.next {
		if e.pc != pc || !joinable(e.stack, stack) {
			continue
		}
		if join(e.stack, stack) && !e.queued {
			e.queued = true
			c.queue = append(c.queue, e)
		}
		return true
	}
	if c.atBlock[pc] >= maxSelfBlockStates || c.kept >= maxSelfStates || c.words+len(stack) > maxSelfWords {
		return false
	}
	if len(c.entries) == cap(c.entries) {
		c.entries = make([]entry, 0, 1<<8)
	}
	c.entries = append(c.entries, entry{pc: pc, stack: c.keep(stack), queued: true, next: c.index[key]})
	e := &c.entries[len(c.entries)-1]
	c.index[key] = e
	c.atBlock[pc]++
	c.kept++
	c.words += len(stack)
	c.queue = append(c.queue, e)
	return true
}

// shape hashes what joinable compares: pc, the height, and the jump
// targets with their depths.
func shape(pc int, stack []word) uint64 {
	const prime = 1099511628211
	h := (uint64(pc)<<32 | uint64(len(stack))) * prime
	for i, w := range stack {
		if w >= firstDest {
			h = (h ^ uint64(i)<<32 ^ uint64(w)) * prime
		}
	}
	return h
}

// keep copies stack into the arena, which grows in chunks: one allocation
// for many states.
func (c *selfCheck) keep(stack []word) []word {
	if len(c.arena) < len(stack) {
		c.arena = make([]word, max(len(stack), 1<<12))
	}
	kept := c.arena[:len(stack):len(stack)]
	c.arena = c.arena[len(stack):]
	copy(kept, stack)
	return kept
}

// The ends of a straight run of code, as haltsFrom finds them.
const (
	endUnknown uint8 = iota
	endHalts
	endGoesOn
)

// haltsFrom reports whether the code from pc runs straight on to a halt
// (or off its end) whatever the stack: no jump, no DELEGATECALL or
// CALLCODE, no instruction the analysis does not know on the way. An
// underflow on the way halts as well. Every instruction on the way ends
// the same, so each is marked: the code is walked once in all.
func (c *selfCheck) haltsFrom(pc int) bool {
	if pc > len(c.code) {
		return false
	}
	if c.ends[pc] == endUnknown {
		end, last := c.straightEnd(pc)
		for at := pc; at <= last && at < len(c.code); at = next(c.code, at) {
			c.ends[at] = end
		}
	}
	return c.ends[pc] == endHalts
}

// straightEnd walks the code from pc to the instruction that decides how
// it ends (last): one that halts, jumps, delegates or is not known, or
// one whose end haltsFrom knows.
func (c *selfCheck) straightEnd(pc int) (end uint8, last int) {
	for ; pc < len(c.code); pc = next(c.code, pc) {
		op := vm.OpCode(c.code[pc])
		switch {
		case c.ends[pc] != endUnknown:
			return c.ends[pc], pc
		case halts(op):
			return endHalts, pc
		case op == vm.JUMP, op == vm.JUMPI, op == vm.DELEGATECALL, op == vm.CALLCODE,
			!arities[op].known && op != vm.ADDRESS && (op < vm.PUSH0 || op > vm.SWAP16):
			return endGoesOn, pc
		}
	}
	return endHalts, pc
}

// next is the pc of the instruction after the one at pc.
func next(code []byte, pc int) int {
	if op := vm.OpCode(code[pc]); op >= vm.PUSH1 && op <= vm.PUSH32 {
		return pc + int(op-vm.PUSH0) + 1
	}
	return pc + 1
}

// joinable reports whether two stacks may share a state: the same height,
// and the same jump targets where either holds one.
func joinable(a, b []word) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && (a[i] >= firstDest || b[i] >= firstDest) {
			return false
		}
	}
	return true
}

// join widens into to cover from too (of a joinable stack): a word that
// differs becomes unknown. It reports whether into changed.
func join(into, from []word) bool {
	changed := false
	for i := range into {
		if into[i] != from[i] && into[i] != unknownWord {
			into[i] = unknownWord
			changed = true
		}
	}
	return changed
}

// run runs the block at pc with stack in, and reaches the blocks it goes
// on to. false: the block does what the analysis cannot prove safe.
func (c *selfCheck) run(pc int, in []word) bool {
	st := append(c.stack[:0], in...)
	defer func() { c.stack = st[:0] }()
	for start := pc; ; pc++ {
		if c.work++; c.work > maxSelfWork {
			return false
		}
		if pc >= len(c.code) {
			return true // running off the end is a STOP
		}
		op := vm.OpCode(c.code[pc])
		switch {
		case op == vm.JUMPDEST && pc != start:
			return c.reach(pc, st)
		case op >= vm.PUSH0 && op <= vm.PUSH32:
			n := int(op - vm.PUSH0)
			st = append(st, c.pushed(pc+1, n))
			pc += n
		case op >= vm.DUP1 && op <= vm.DUP16:
			n := int(op-vm.DUP1) + 1
			if len(st) < n {
				return false
			}
			st = append(st, st[len(st)-n])
		case op >= vm.SWAP1 && op <= vm.SWAP16:
			n, top := int(op-vm.SWAP1)+1, len(st)-1
			if top < n {
				return false
			}
			st[top], st[top-n] = st[top-n], st[top]
		case op == vm.ADDRESS:
			st = append(st, selfWord)
		case op == vm.JUMP:
			return len(st) >= 1 && c.jump(st[len(st)-1], st[:len(st)-1])
		case op == vm.JUMPI:
			return len(st) >= 2 && c.jump(st[len(st)-1], st[:len(st)-2]) && c.reach(pc+1, st[:len(st)-2])
		case halts(op):
			return true
		default:
			if !c.apply(op, &st) {
				return false
			}
		}
		if len(st) > maxStackDepth {
			return false
		}
	}
}

// apply runs an instruction whose results are unknown: it takes its
// operands and pushes unknown words. A DELEGATECALL or CALLCODE whose
// target (its second operand) is not the contract's own address, an
// instruction the analysis does not know, and an underflow are false.
func (c *selfCheck) apply(op vm.OpCode, st *[]word) bool {
	s := *st
	if (op == vm.DELEGATECALL || op == vm.CALLCODE) && (len(s) < 2 || s[len(s)-2] != selfWord) {
		return false
	}
	a := arities[op]
	if !a.known || len(s) < int(a.pops) {
		return false
	}
	s = s[:len(s)-int(a.pops)]
	for range a.pushes {
		s = append(s, unknownWord)
	}
	*st = s
	return true
}

// jump reaches the target of a JUMP or JUMPI with the stack after it,
// when the target is a known JUMPDEST.
func (c *selfCheck) jump(to word, stack []word) bool {
	return to >= firstDest && c.reach(int(to-firstDest), stack)
}

// pushed is the word an n-byte PUSH of the data at pc at pushes: a
// JUMPDEST's pc is known, anything else is not. Data past the end of the
// code reads as zeros, as the EVM reads it.
func (c *selfCheck) pushed(at, n int) word {
	v := 0
	for i := range n {
		if v >= len(c.code) {
			return unknownWord // no pc: keeps v small too
		}
		v <<= 8
		if at+i < len(c.code) {
			v |= int(c.code[at+i])
		}
	}
	if v < len(c.code) && c.dests[v/64]&(1<<(v%64)) != 0 {
		return firstDest + word(v)
	}
	return unknownWord
}

// halts reports whether op ends the run of its frame.
func halts(op vm.OpCode) bool {
	switch op {
	case vm.STOP, vm.RETURN, vm.REVERT, vm.INVALID, vm.SELFDESTRUCT:
		return true
	}
	return false
}

// arity is how many words an instruction takes from the stack and puts on
// it; known is false for an opcode the analysis cannot follow.
type arity struct {
	pops, pushes int8
	known        bool
}

// arities are the stack effects of the instructions whose results the
// analysis does not track (TestArities checks them against geth's jump
// table). Jumps, PUSH, DUP, SWAP, ADDRESS and the instructions that halt
// are run by run itself; opcodes absent here (EOF's, and any not yet
// defined) make the analysis give up rather than guess.
var arities = func() (t [256]arity) {
	set := func(pops, pushes int8, ops ...vm.OpCode) {
		for _, op := range ops {
			t[op] = arity{pops, pushes, true}
		}
	}
	set(0, 0, vm.JUMPDEST)
	set(0, 1, vm.ORIGIN, vm.CALLER, vm.CALLVALUE, vm.CALLDATASIZE, vm.CODESIZE, vm.GASPRICE, vm.RETURNDATASIZE,
		vm.COINBASE, vm.TIMESTAMP, vm.NUMBER, vm.PREVRANDAO, vm.GASLIMIT, vm.CHAINID, vm.SELFBALANCE, vm.BASEFEE,
		vm.BLOBBASEFEE, vm.SLOTNUM, vm.PC, vm.MSIZE, vm.GAS)
	set(1, 0, vm.POP)
	set(1, 1, vm.ISZERO, vm.NOT, vm.CLZ, vm.BALANCE, vm.CALLDATALOAD, vm.EXTCODESIZE, vm.EXTCODEHASH,
		vm.BLOCKHASH, vm.BLOBHASH, vm.MLOAD, vm.SLOAD, vm.TLOAD)
	set(2, 0, vm.MSTORE, vm.MSTORE8, vm.SSTORE, vm.TSTORE, vm.LOG0)
	set(2, 1, vm.ADD, vm.MUL, vm.SUB, vm.DIV, vm.SDIV, vm.MOD, vm.SMOD, vm.EXP, vm.SIGNEXTEND,
		vm.LT, vm.GT, vm.SLT, vm.SGT, vm.EQ, vm.AND, vm.OR, vm.XOR, vm.BYTE, vm.SHL, vm.SHR, vm.SAR, vm.KECCAK256)
	set(3, 0, vm.CALLDATACOPY, vm.CODECOPY, vm.RETURNDATACOPY, vm.MCOPY, vm.LOG1)
	set(3, 1, vm.ADDMOD, vm.MULMOD, vm.CREATE)
	set(4, 0, vm.EXTCODECOPY, vm.LOG2)
	set(4, 1, vm.CREATE2)
	set(5, 0, vm.LOG3)
	set(6, 0, vm.LOG4)
	set(6, 1, vm.DELEGATECALL, vm.STATICCALL)
	set(7, 1, vm.CALL, vm.CALLCODE)
	return t
}()
