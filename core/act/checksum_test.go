package act

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet"
)

// keySigner signs with a key held in memory.
type keySigner struct{ key *ecdsa.PrivateKey }

func (s keySigner) Address() common.Address { return crypto.PubkeyToAddress(s.key.PublicKey) }
func (s keySigner) SignText(text []byte) ([]byte, error) {
	return crypto.Sign(crypto.Keccak256(text), s.key)
}
func (s keySigner) SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	return types.SignTx(tx, types.LatestSignerForChainID(chainID), s.key)
}

// TestSignedAddressesChecksummed: a signed transaction's sender reads as
// every screen writes it, EIP-55, in what -o json prints and in what the
// journal keeps of the sending (common.Address's own JSON is lower case;
// the journal's signature is this JSON too).
func TestSignedAddressesChecksummed(t *testing.T) {
	key, err := crypto.HexToECDSA(strings.Repeat("4f", 32))
	if err != nil {
		t.Fatal(err)
	}
	signer := keySigner{key}
	from := signer.Address()
	to := common.HexToAddress("0xce21E3bF9417BA504Ac8eEf054cBB3B732BeAd01")
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(31337), To: &to, Gas: 21000, GasFeeCap: big.NewInt(1), GasTipCap: big.NewInt(1)})
	stx, err := signer.SignTx(tx, tx.ChainId())
	if err != nil {
		t.Fatal(err)
	}
	rec, j := newRecorder(t)
	signed := []Signed{{Op: "claim", Hash: stx.Hash(), From: wallet.Checksummed(from), ChainID: 31337, Tx: stx}}
	// The node is gone: the sending is journaled as unknown all the same.
	_, _ = rec.Send(context.Background(), failingNode{}, "a", signed)
	printed, _ := json.Marshal(signed)
	res, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{string(printed)}
	for _, e := range res.Entries {
		texts = append(texts, string(e.Data))
	}
	lower := strings.ToLower(from.Hex())
	for _, text := range texts {
		if strings.Contains(text, lower) || !strings.Contains(text, from.Hex()) {
			t.Errorf("the sender is not written %s:\n%s", from.Hex(), text)
		}
	}
	if len(texts) < 2 {
		t.Fatalf("%d journal entries; want the sending", len(res.Entries))
	}
}

// failingNode takes no transaction: its answer is lost.
type failingNode struct{ wallet.Node }

func (failingNode) SendTransaction(context.Context, *types.Transaction) error {
	return context.DeadlineExceeded
}
