package wallet

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// label is a JUMPDEST named for asm; dest pushes its pc (PUSH1).
type (
	label string
	dest  string
)

// asm assembles opcodes, their PUSH data ([]byte after the PUSH), labels
// and pushes of a label's pc, into code.
func asm(t testing.TB, parts ...any) []byte {
	t.Helper()
	at := map[label]int{}
	pc := 0
	for _, p := range parts {
		switch p := p.(type) {
		case label:
			at[p] = pc
			pc++
		case dest:
			pc += 2
		case []byte:
			pc += len(p)
		default:
			pc++
		}
	}
	var code []byte
	for _, p := range parts {
		switch p := p.(type) {
		case label:
			code = append(code, byte(vm.JUMPDEST))
		case dest:
			to, ok := at[label(p)]
			if !ok || to > 0xff {
				t.Fatalf("no label %q within a PUSH1", p)
			}
			code = append(code, byte(vm.PUSH1), byte(to))
		case []byte:
			code = append(code, p...)
		case vm.OpCode:
			code = append(code, byte(p))
		default:
			t.Fatalf("asm: %T", p)
		}
	}
	return code
}

// sizes are the four size and offset operands of a DELEGATECALL, zeros.
var sizes = []any{vm.PUSH0, vm.PUSH0, vm.PUSH0, vm.PUSH0}

func ops(parts ...any) []any { return slices.Concat(sizes, parts) }

// TestSelfCallsOnly: a DELEGATECALL is proved to call the contract itself
// only when its target is ADDRESS's word, followed through DUP, SWAP and
// the jumps of an internal call; anything else delegates: arithmetic on
// the address, another word swapped in, a join with another word, a jump
// to a target read from calldata, a stack underflow, CALLCODE as well.
func TestSelfCallsOnly(t *testing.T) {
	// call is an internal function call of fn with the word push pushes,
	// returning to back: Solidity's shape (return address, argument, jump).
	call := func(back string, push vm.OpCode) []any {
		return []any{dest(back), push, dest("fn"), vm.JUMP, label(back)}
	}
	// fn delegatecalls its argument and returns to the address under it.
	fn := slices.Concat([]any{label("fn")}, ops(vm.DUP5, vm.GAS, vm.DELEGATECALL, vm.POP, vm.POP, vm.JUMP))
	for _, tc := range []struct {
		name      string
		code      []any
		delegates bool
	}{
		{"ADDRESS", ops(vm.ADDRESS, vm.GAS, vm.DELEGATECALL, vm.STOP), false},
		{"ADDRESS swapped into place", ops(vm.ADDRESS, vm.CALLER, vm.SWAP1, vm.GAS, vm.DELEGATECALL), false},
		{"ADDRESS duplicated from below", ops(vm.ADDRESS, vm.CALLER, vm.CALLER, vm.DUP3, vm.GAS, vm.DELEGATECALL), false},
		{"through an internal call", slices.Concat(call("back", vm.ADDRESS), []any{vm.STOP}, fn), false},
		{"two internal calls, both of ADDRESS", slices.Concat(call("one", vm.ADDRESS), call("two", vm.ADDRESS), []any{vm.STOP}, fn), false},
		{"no DELEGATECALL, only its byte as PUSH data", []any{vm.PUSH1, []byte{0xf4}}, false},
		{"a DELEGATECALL after STOP, unreachable", ops(vm.STOP, vm.CALLER, vm.GAS, vm.DELEGATECALL), false},

		{"CALLER", ops(vm.CALLER, vm.GAS, vm.DELEGATECALL), true},
		{"ADDRESS then ADD 1", ops(vm.ADDRESS, vm.PUSH1, []byte{1}, vm.ADD, vm.GAS, vm.DELEGATECALL), true},
		{"CALLER swapped in for ADDRESS", ops(vm.CALLER, vm.ADDRESS, vm.SWAP1, vm.GAS, vm.DELEGATECALL), true},
		{"ADDRESS stored and loaded", ops(vm.ADDRESS, vm.PUSH0, vm.MSTORE, vm.PUSH0, vm.MLOAD, vm.GAS, vm.DELEGATECALL), true},
		{"a target loaded from storage", ops(vm.PUSH0, vm.SLOAD, vm.GAS, vm.DELEGATECALL), true},
		{"a target read from calldata", ops(vm.PUSH0, vm.CALLDATALOAD, vm.GAS, vm.DELEGATECALL), true},
		{"the second of two internal calls, of CALLER", slices.Concat(call("one", vm.ADDRESS), call("two", vm.CALLER), []any{vm.STOP}, fn), true},
		{"ADDRESS on one path, CALLER on the other", ops(vm.CALLER, vm.PUSH0, vm.CALLDATALOAD, dest("join"), vm.JUMPI,
			vm.POP, vm.ADDRESS, label("join"), vm.GAS, vm.DELEGATECALL), true},
		{"a DELEGATECALL just after a revert", ops(vm.PUSH0, vm.CALLDATALOAD, dest("revert"), vm.JUMPI, dest("on"), vm.JUMP,
			label("revert"), vm.PUSH0, vm.PUSH0, vm.REVERT, label("on"), vm.CALLER, vm.GAS, vm.DELEGATECALL), true},
		{"a jump to a target read from calldata", ops(vm.PUSH0, vm.CALLDATALOAD, vm.JUMP, label("self"), vm.ADDRESS, vm.GAS, vm.DELEGATECALL), true},
		{"a jump into PUSH data", []any{vm.PUSH1, []byte{4}, vm.JUMP, vm.PUSH1, []byte{0x5b}, vm.CALLER, vm.GAS, vm.DELEGATECALL}, true},
		{"a stack underflow", []any{vm.ADDRESS, vm.GAS, vm.DELEGATECALL}, true},
		{"a SWAP below the stack", ops(vm.CALLER, vm.ADDRESS, vm.SWAP7, vm.GAS, vm.DELEGATECALL), true},
		{"an opcode allot does not know", ops(vm.ADDRESS, vm.OpCode(0xe6), vm.GAS, vm.DELEGATECALL), true},
		{"CALLCODE of CALLER", ops(vm.PUSH0, vm.CALLER, vm.GAS, vm.CALLCODE), true},
		{"CALLCODE of ADDRESS", ops(vm.PUSH0, vm.ADDRESS, vm.GAS, vm.CALLCODE), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := asm(t, tc.code...)
			if got := delegates(code); got != tc.delegates {
				t.Errorf("delegates(%x) = %v, want %v", code, got, tc.delegates)
			}
		})
	}
}

// TestVesterDelegatesOnlyToItself: the sandbox vester's multicall
// DELEGATECALLs the vester itself, which is proved: its code does not
// delegate. The proof rests on that call's ADDRESS: with CALLER in its
// place (and in the place of no other ADDRESS) the vester delegates.
func TestVesterDelegatesOnlyToItself(t *testing.T) {
	code := vesterCode(t)
	if delegates(code) {
		t.Fatal("the vester's code is said to delegate")
	}
	var turned []int
	for pc := 0; pc < len(code); pc++ {
		switch op := vm.OpCode(code[pc]); {
		case op == vm.ADDRESS:
			swapped := slices.Clone(code)
			swapped[pc] = byte(vm.CALLER)
			if delegates(swapped) {
				turned = append(turned, pc)
			}
		case op >= vm.PUSH1 && op <= vm.PUSH32:
			pc += int(op - vm.PUSH0)
		}
	}
	if len(turned) != 1 {
		t.Errorf("CALLER in place of the ADDRESS at pcs %v makes the vester delegate, want exactly one (multicall's)", turned)
	}
}

// vesterCode is the sandbox vester's code, as the chain holds it.
func vesterCode(t testing.TB) []byte {
	t.Helper()
	f := newFixture(t)
	code, err := f.node.CodeAt(context.Background(), f.vester, nil)
	if err != nil || len(code) == 0 {
		t.Fatalf("the vester's code: %d bytes, %v", len(code), err)
	}
	return code
}

// TestSandboxClaimReviewSaysNoDelegateCall: the review of a claim on the
// sandbox vester says its pin and nothing of a DELEGATECALL: the vester's
// multicall calls the vester itself.
func TestSandboxClaimReviewSaysNoDelegateCall(t *testing.T) {
	f := newFixture(t)
	a, err := CheckClaim(context.Background(), f.node, f.claimPolicy(t, aliceLeaf), []Call{f.withdrawCall(t, aliceLeaf, f.alice.Address(), ether(250))})
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	for _, l := range a.Facts {
		said.WriteString(l.Label + ": " + l.Value + "\n")
	}
	if !strings.Contains(said.String(), "pinned in the profile, its code as pinned") || strings.Contains(said.String(), "DELEGATECALL") {
		t.Errorf("the review:\n%s", said.String())
	}
}

// TestDelegatorsStillDelegate: compiled contracts whose DELEGATECALL can
// run other code are said to: OpenZeppelin's ERC1967Proxy (read as the
// EIP-1967 proxy it is), an EIP-1167 minimal proxy, and contracts that
// delegatecall an address kept in an ordinary slot or named in calldata,
// which the review says it cannot follow.
func TestDelegatorsStillDelegate(t *testing.T) {
	impl := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	minimal := slices.Concat(minimalProxyHead, impl.Bytes(), minimalProxyTail)
	for _, tc := range []struct {
		name string
		code []byte
		says string
	}{
		{"OpenZeppelin's ERC1967Proxy", delegatorCode(t, "OZProxy", impl), "a proxy (EIP-1967) to implementation " + impl.Hex()},
		{"EIP-1167 minimal proxy", minimal, "a proxy (EIP-1167 minimal proxy) to implementation " + impl.Hex()},
		{"a target in an ordinary slot", delegatorCode(t, "StoredDelegator", impl), "its code can DELEGATECALL in a way allot cannot read"},
		{"a target from calldata", delegatorCode(t, "CalldataDelegator", impl), "its code can DELEGATECALL in a way allot cannot read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !delegates(tc.code) {
				t.Fatal("said not to delegate")
			}
			proxy := common.HexToAddress("0x00000000000000000000000000000000000000f1")
			n := &layoutNode{
				code:  map[common.Address][]byte{proxy: tc.code, impl: {0x60, 0x01}},
				slots: map[common.Address]map[common.Hash]common.Hash{proxy: {}},
			}
			if tc.name == "OpenZeppelin's ERC1967Proxy" {
				n.slots[proxy][eip1967Implementation] = common.BytesToHash(impl.Bytes())
			}
			p, err := ReadProxy(context.Background(), n, proxy, tc.code)
			if err != nil || !strings.Contains(p.String(), tc.says) {
				t.Errorf("read %q (%v), want %q", p, err, tc.says)
			}
		})
	}
}

// delegatorCode deploys the compiled test contract name (testdata/
// delegators), its constructor given impl when it takes an address, and
// returns the code it leaves.
func delegatorCode(t testing.TB, name string, impl common.Address) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "delegators", "build", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var artifact struct {
		ABI      []struct{ Type string } `json:"abi"`
		Bytecode hexutil.Bytes           `json:"bytecode"`
	}
	if err := json.Unmarshal(data, &artifact); err != nil {
		t.Fatal(err)
	}
	initcode := artifact.Bytecode
	if slices.ContainsFunc(artifact.ABI, func(e struct{ Type string }) bool { return e.Type == "constructor" }) {
		initcode = slices.Concat(initcode, common.LeftPadBytes(impl.Bytes(), 32))
	}
	db, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	if err != nil {
		t.Fatal(err)
	}
	db.SetCode(impl, []byte{0x00}, tracing.CodeChangeUnspecified)
	code, _, _, err := runtime.Create(initcode, &runtime.Config{State: db})
	if err != nil || len(code) == 0 {
		t.Fatalf("deploy %s: %d bytes of code, %v", name, len(code), err)
	}
	return code
}

// TestDelegatorArtifactsAreBuilt: testdata/delegators/build is what its
// build.sh writes from the sources next to it.
func TestDelegatorArtifactsAreBuilt(t *testing.T) {
	dir := filepath.Join("testdata", "delegators")
	f, err := os.Open(filepath.Join(dir, "build", "sources.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, name, _ := strings.Cut(line, "  ")
		listed = append(listed, name)
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if got := sha256.Sum256(data); err != nil || hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s changed since build.sh last ran (%v): run it and commit build/", name, err)
		}
	}
	want := []string{"build.sh"}
	for _, pattern := range []string{"*.sol", "build/*.json"} {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, m := range matches {
			rel, _ := filepath.Rel(dir, m)
			want = append(want, filepath.ToSlash(rel))
		}
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("build/sources.sha256 lists %v, the directory has %v: run build.sh", listed, want)
	}
}

// TestArities: the stack effect the analysis gives each instruction is
// geth's (Amsterdam's instructions), and an instruction geth defines that
// the analysis neither runs nor knows is one it gives up on by design.
func TestArities(t *testing.T) {
	table, err := vm.LookupInstructionSet(params.Rules{IsAmsterdam: true, IsOsaka: true, IsPrague: true, IsCancun: true,
		IsShanghai: true, IsMerge: true, IsLondon: true, IsBerlin: true, IsIstanbul: true, IsConstantinople: true,
		IsByzantium: true, IsEIP158: true, IsEIP150: true, IsHomestead: true})
	if err != nil {
		t.Fatal(err)
	}
	givenUp := []vm.OpCode{vm.DUPN, vm.SWAPN, vm.EXCHANGE}
	for i, op := range table {
		code := vm.OpCode(i)
		if op == nil || reflect.ValueOf(op).Elem().FieldByName("undefined").Bool() {
			if arities[code].known {
				t.Errorf("%v: known to the analysis, undefined in geth", code)
			}
			continue
		}
		run := code == vm.ADDRESS || code == vm.JUMP || code == vm.JUMPI || halts(code) ||
			(code >= vm.PUSH0 && code <= vm.PUSH32) || (code >= vm.DUP1 && code <= vm.SWAP16)
		a := arities[code]
		switch {
		case run:
		case !a.known:
			if !slices.Contains(givenUp, code) {
				t.Errorf("%v: defined in geth, unknown to the analysis", code)
			}
		default:
			v := reflect.ValueOf(op).Elem()
			pops, most := int(v.FieldByName("minStack").Int()), int(v.FieldByName("maxStack").Int())
			if pops != int(a.pops) || most != int(params.StackLimit)+pops-int(a.pushes) {
				t.Errorf("%v: takes %d and puts %d, geth's minStack %d maxStack %d", code, a.pops, a.pushes, pops, most)
			}
		}
	}
}

// BenchmarkDelegatesVester: the check runs before each signing.
func BenchmarkDelegatesVester(b *testing.B) {
	code := vesterCode(b)
	b.ReportAllocs()
	for b.Loop() {
		if delegates(code) {
			b.Fatal("the vester delegates")
		}
	}
}

// FuzzSelfCallsOnly: any code is analysed within the bounds, without a
// panic; and code proved to delegatecall only itself does so when geth
// runs it (with the fuzzed calldata): every DELEGATECALL or CALLCODE
// executed targets the address running it. (The vester is no seed: the
// fuzzer minimizes 12 KB inputs for minutes; its own tests run it.)
func FuzzSelfCallsOnly(f *testing.F) {
	f.Add(asm(f, ops(vm.ADDRESS, vm.GAS, vm.DELEGATECALL)...), []byte(nil))
	f.Add(asm(f, ops(vm.PUSH0, vm.CALLDATALOAD, vm.JUMP, label("x"), vm.CALLER, vm.GAS, vm.DELEGATECALL)...), []byte{3})
	f.Add(asm(f, dest("back"), vm.ADDRESS, dest("fn"), vm.JUMP, label("back"), vm.STOP,
		label("fn"), vm.PUSH0, vm.PUSH0, vm.PUSH0, vm.PUSH0, vm.DUP5, vm.GAS, vm.DELEGATECALL, vm.POP, vm.POP, vm.JUMP), []byte(nil))
	f.Add(slices.Concat(minimalProxyHead, common.Address{1}.Bytes(), minimalProxyTail), []byte(nil))
	f.Fuzz(func(t *testing.T, code, input []byte) {
		c := newSelfCheck(code)
		proved := c.prove()
		if c.work > maxSelfWork+maxStackDepth || c.kept > maxSelfStates || c.words > maxSelfWords {
			t.Fatalf("out of bounds: %d work, %d states, %d words", c.work, c.kept, c.words)
		}
		for pc, kept := range c.atBlock {
			if kept > maxSelfBlockStates {
				t.Fatalf("%d states at pc %d", kept, pc)
			}
		}
		if !proved {
			return
		}
		hooks := &tracing.Hooks{OnOpcode: func(_ uint64, op byte, _, _ uint64, scope tracing.OpContext, _ []byte, _ int, _ error) {
			stack := scope.StackData()
			if (vm.OpCode(op) == vm.DELEGATECALL || vm.OpCode(op) == vm.CALLCODE) && len(stack) >= 2 {
				if self := new(uint256.Int).SetBytes(scope.Address().Bytes()); !stack[len(stack)-2].Eq(self) {
					t.Fatalf("proved, yet %v targets %x from %s", vm.OpCode(op), stack[len(stack)-2].Bytes(), scope.Address())
				}
			}
		}}
		runtime.Execute(code, input, &runtime.Config{GasLimit: 1_000_000, EVMConfig: vm.Config{Tracer: hooks}})
	})
}
