package chain

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The D8 leaf preimage, encoded here independently of wallet/vesting:
// abi.encode(string allocationType, Allocation, Schedule).

type testAllocation struct {
	Id                        string
	OriginalBeneficiary       common.Address
	TotalAllocation           *big.Int
	Cancelable                bool
	Revokable                 bool
	TransferableByAdmin       bool
	TransferableByBeneficiary bool
}

type testCalendar struct {
	UnlockScheduleId string
	UnlockTimestamps []uint32
	UnlockPercents   []*big.Int
}

type testPiece struct {
	StartDate       uint32
	PeriodLength    uint32
	NumberOfPeriods uint32
	Percent         uint32
}

type testInterval struct {
	UnlockScheduleId string
	Pieces           []testPiece
}

func leafArguments(t testing.TB, schedule []abi.ArgumentMarshaling) abi.Arguments {
	t.Helper()
	mustType := func(typ string, components []abi.ArgumentMarshaling) abi.Type {
		ty, err := abi.NewType(typ, "", components)
		if err != nil {
			t.Fatal(err)
		}
		return ty
	}
	return abi.Arguments{
		{Type: mustType("string", nil)},
		{Type: mustType("tuple", []abi.ArgumentMarshaling{
			{Name: "id", Type: "string"},
			{Name: "originalBeneficiary", Type: "address"},
			{Name: "totalAllocation", Type: "uint256"},
			{Name: "cancelable", Type: "bool"},
			{Name: "revokable", Type: "bool"},
			{Name: "transferableByAdmin", Type: "bool"},
			{Name: "transferableByBeneficiary", Type: "bool"},
		})},
		{Type: mustType("tuple", schedule)},
	}
}

func encodeCalendar(t testing.TB, a testAllocation, s testCalendar) []byte {
	t.Helper()
	args := leafArguments(t, []abi.ArgumentMarshaling{
		{Name: "unlockScheduleId", Type: "string"},
		{Name: "unlockTimestamps", Type: "uint32[]"},
		{Name: "unlockPercents", Type: "uint256[]"},
	})
	out, err := args.Pack("calendar", a, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func encodeInterval(t testing.TB, a testAllocation, s testInterval) []byte {
	t.Helper()
	out, err := intervalArguments(t).Pack("interval", a, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func intervalArguments(t testing.TB) abi.Arguments {
	return leafArguments(t, []abi.ArgumentMarshaling{
		{Name: "unlockScheduleId", Type: "string"},
		{Name: "pieces", Type: "tuple[]", Components: []abi.ArgumentMarshaling{
			{Name: "startDate", Type: "uint32"},
			{Name: "periodLength", Type: "uint32"},
			{Name: "numberOfPeriods", Type: "uint32"},
			{Name: "percent", Type: "uint32"},
		}},
	})
}

// testTree is a sorted-pair merkle tree over a power-of-two number of
// leaves, each leaf keccak256(decodableArgs) hashed once (D8).
type testTree struct {
	levels [][]common.Hash // levels[0] are the leaves, the last level is the root
}

func newTestTree(t testing.TB, decodableArgs ...[]byte) *testTree {
	t.Helper()
	n := len(decodableArgs)
	if n == 0 || n&(n-1) != 0 {
		t.Fatalf("test tree of %d leaves: want a power of two", n)
	}
	level := make([]common.Hash, n)
	for i, a := range decodableArgs {
		level[i] = crypto.Keccak256Hash(a)
	}
	tree := &testTree{levels: [][]common.Hash{level}}
	for len(level) > 1 {
		next := make([]common.Hash, len(level)/2)
		for i := range next {
			next[i] = hashSortedPair(level[2*i], level[2*i+1])
		}
		tree.levels = append(tree.levels, next)
		level = next
	}
	return tree
}

func hashSortedPair(a, b common.Hash) common.Hash {
	if bytes.Compare(a[:], b[:]) > 0 {
		a, b = b, a
	}
	return crypto.Keccak256Hash(a[:], b[:])
}

func (tr *testTree) root() common.Hash { return tr.levels[len(tr.levels)-1][0] }

// proof returns the siblings of leaf i from the bottom up.
func (tr *testTree) proof(i int) []common.Hash {
	var out []common.Hash
	for _, level := range tr.levels[:len(tr.levels)-1] {
		out = append(out, level[i^1])
		i /= 2
	}
	return out
}
