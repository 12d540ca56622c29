package history

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// codeNode has code at vester from block born on, and counts the
// questions; questions about blocks below failBelow fail, as on a node
// that keeps no old state.
type codeNode struct {
	Node
	vester    common.Address
	born      uint64
	asked     int
	failBelow uint64
	chain     int64
}

func (n *codeNode) CodeAt(_ context.Context, a common.Address, block *big.Int) ([]byte, error) {
	n.asked++
	if block.Uint64() < n.failBelow {
		return nil, errors.New("missing trie node")
	}
	if a == n.vester && block.Uint64() >= n.born {
		return []byte{0x60}, nil
	}
	return nil, nil
}

func (n *codeNode) ChainID(context.Context) (*big.Int, error) { return big.NewInt(n.chain), nil }

func (n *codeNode) BlockNumber(context.Context) (uint64, error) { return 2_000_000, nil }

// TestBirthHalvesTheChain: the vester's first block among 2,000,000 is
// found in about 21 questions; a node that keeps no old state cannot
// tell, and the scan keeps its start; a contract without code now has no
// birth to find.
func TestBirthHalvesTheChain(t *testing.T) {
	vester := common.HexToAddress("0x1")
	node := &codeNode{vester: vester, born: 1_234_567}
	n, ok, err := birth(context.Background(), node, vester, 0, 2_000_000)
	if err != nil || !ok || n != 1_234_567 {
		t.Fatalf("birth %d, %v, %v", n, ok, err)
	}
	if node.asked > 22 {
		t.Errorf("%d questions for 2,000,000 blocks", node.asked)
	}
	pruned := &codeNode{vester: vester, born: 1_234_567, failBelow: 1_900_000}
	if _, ok, err := birth(context.Background(), pruned, vester, 0, 2_000_000); ok || err != nil {
		t.Errorf("a node without old state: ok %v, %v; want it cannot tell", ok, err)
	}
	if _, ok, err := birth(context.Background(), node, common.HexToAddress("0x2"), 0, 2_000_000); ok || err != nil {
		t.Errorf("no code: ok %v, %v", ok, err)
	}
}

// TestBirthRemembered: a vester's first block is found once a process;
// the next scan checks it with two questions, and a chain where it moved
// (started anew under the same id) is searched again.
func TestBirthRemembered(t *testing.T) {
	vester := common.HexToAddress("0xb17")
	node := &codeNode{vester: vester, born: 777_777}
	from := func() uint64 {
		s := &scan{r: &Reader{node: node}, to: 2_000_000}
		if err := s.fromBirth(context.Background(), []common.Address{vester}); err != nil {
			t.Fatal(err)
		}
		return s.from
	}
	if n := from(); n != 777_777 {
		t.Fatalf("from %d", n)
	}
	node.asked = 0
	if n := from(); n != 777_777 || node.asked != 2 {
		t.Errorf("remembered: from %d after %d questions, want 2", n, node.asked)
	}
	node.born, node.asked = 1_500_000, 0
	if n := from(); n != 1_500_000 || node.asked < 20 {
		t.Errorf("moved: from %d after %d questions", n, node.asked)
	}
	node.chain, node.asked = 5, 0 // the same address on another chain
	if n := from(); n != 1_500_000 || node.asked < 20 {
		t.Errorf("another chain: from %d after %d questions", n, node.asked)
	}
}

// TestBirthFileBetweenRuns: a first block found by one run is checked,
// not searched, by the next (a new BirthFile on the same path, as a new
// process makes); the file is a hint: a damaged, oversized or hand-edited
// file costs a search and is mended, never a wrong start.
func TestBirthFileBetweenRuns(t *testing.T) {
	vester := common.HexToAddress("0xb17")
	node := &codeNode{vester: vester, born: 777_777, chain: 31337}
	path := filepath.Join(t.TempDir(), "state", "births.json")
	first := func() (uint64, int) {
		node.asked = 0
		n, ok, err := FirstBlock(context.Background(), node, vester, BirthFile(path))
		if err != nil || !ok {
			t.Fatalf("first block: %v, %v", ok, err)
		}
		return n, node.asked
	}
	if n, asked := first(); n != 777_777 || asked < 20 {
		t.Fatalf("searched: %d after %d questions", n, asked)
	}
	if n, asked := first(); n != 777_777 || asked != 2 {
		t.Errorf("the next run: %d after %d questions, want 2", n, asked)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"31337/0x0000000000000000000000000000000000000B17": 777777`) {
		t.Errorf("births file: %s, %v", data, err)
	}
	for name, content := range map[string]string{
		"damaged":   `{"births": {"31337/0x0000000000000000000000000000000000000b17": 7`,
		"lying":     `{"births": {"31337/0x0000000000000000000000000000000000000b17": 12}}`,
		"beyond":    `{"births": {"31337/0x0000000000000000000000000000000000000b17": 99999999999}}`,
		"oversized": `{"births": {}, "pad": "` + strings.Repeat("x", maxBirthFile) + `"}`,
		"not json":  "<html>",
	} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if n, asked := first(); n != 777_777 || asked < 20 {
			t.Errorf("%s file: %d after %d questions", name, n, asked)
		}
		if n, asked := first(); n != 777_777 || asked != 2 {
			t.Errorf("%s file, mended: %d after %d questions", name, n, asked)
		}
	}
}
