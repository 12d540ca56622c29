package safe

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// SignatureSize is an owner's signature's size: r ‖ s ‖ v.
const SignatureSize = 65

// ErrSignature: a signature that is not an owner's EIP-712 signature of
// this Safe transaction.
var ErrSignature = errors.New("not a signature of this Safe transaction")

// Signature is an owner's signature of a safeTxHash: 65 bytes r ‖ s ‖ v,
// v 27 or 28, the form execTransaction takes for an EIP-712 signature.
type Signature struct {
	Owner common.Address
	Bytes []byte
}

// secp256k1halfN bounds s: the Safe's ecrecover takes either s, but a
// high s is the same signature made malleable, which allot never writes
// and does not take.
var secp256k1halfN = new(big.Int).Rsh(crypto.S256().Params().N, 1)

// Recover is the address that signed safeTxHash with sig, refusing what
// is not 65 bytes with v 27 or 28 and a low s.
func Recover(safeTxHash common.Hash, sig []byte) (common.Address, error) {
	if len(sig) != SignatureSize {
		return common.Address{}, fmt.Errorf("%d bytes, not %d: %w", len(sig), SignatureSize, ErrSignature)
	}
	v := sig[64]
	if v != 27 && v != 28 {
		return common.Address{}, fmt.Errorf("v is %d, not 27 or 28 (an EIP-712 signature by an owner's key): %w", v, ErrSignature)
	}
	if new(big.Int).SetBytes(sig[32:64]).Cmp(secp256k1halfN) > 0 {
		return common.Address{}, fmt.Errorf("a high s: %w", ErrSignature)
	}
	plain := bytes.Clone(sig)
	plain[64] -= 27
	pub, err := crypto.SigToPub(safeTxHash[:], plain)
	if err != nil {
		return common.Address{}, fmt.Errorf("%v: %w", err, ErrSignature)
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// Verify checks that s is s.Owner's signature of safeTxHash.
func (s Signature) Verify(safeTxHash common.Hash) error {
	signer, err := Recover(safeTxHash, s.Bytes)
	if err != nil {
		return fmt.Errorf("the signature said to be %s's: %w", s.Owner.Hex(), err)
	}
	if signer != s.Owner {
		return fmt.Errorf("the signature said to be %s's was made by %s: %w", s.Owner.Hex(), signer.Hex(), ErrSignature)
	}
	return nil
}

// PackSignatures is execTransaction's signatures argument: each 65 bytes,
// in ascending order of owner address, as the Safe requires.
func PackSignatures(sigs []Signature) []byte {
	sorted := slices.Clone(sigs)
	slices.SortFunc(sorted, func(a, b Signature) int { return bytes.Compare(a.Owner[:], b.Owner[:]) })
	var out []byte
	for _, s := range sorted {
		out = append(out, s.Bytes...)
	}
	return out
}

// ExecData is the calldata of the Safe's execTransaction of tx with
// signatures (PackSignatures).
func ExecData(tx Tx, signatures []byte) ([]byte, error) {
	data, err := ExecABI.Pack("execTransaction", tx.To, orZero(tx.Value), tx.Data, uint8(tx.Operation),
		orZero(tx.SafeTxGas), orZero(tx.BaseGas), orZero(tx.GasPrice), tx.GasToken, tx.RefundReceiver, signatures)
	if err != nil {
		return nil, fmt.Errorf("execTransaction: %w", err)
	}
	return data, nil
}

// ExecABI is the Safe's execTransaction, the same in 1.3.0 and 1.4.1.
var ExecABI = mustParse(`[{"type":"function","name":"execTransaction","stateMutability":"payable","inputs":[
{"name":"to","type":"address"},{"name":"value","type":"uint256"},{"name":"data","type":"bytes"},{"name":"operation","type":"uint8"},
{"name":"safeTxGas","type":"uint256"},{"name":"baseGas","type":"uint256"},{"name":"gasPrice","type":"uint256"},
{"name":"gasToken","type":"address"},{"name":"refundReceiver","type":"address"},{"name":"signatures","type":"bytes"}],
"outputs":[{"name":"success","type":"bool"}]}]`)
