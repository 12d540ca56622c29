package safe

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The EIP-712 type hashes of Safe 1.3.0 and later. Before 1.3.0 the domain
// had no chainId; allot reads no such Safe (canonical.go).
var (
	domainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(uint256 chainId,address verifyingContract)"))
	safeTxTypeHash = crypto.Keccak256Hash([]byte("SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)"))
)

// Hashes are what an owner's signature of a Safe transaction is over:
// the domain separator (the Safe on its chain), the message (the SafeTx
// struct) hash, and the safeTxHash signed, keccak256(0x19 0x01 ‖ domain ‖
// message). Safe{Wallet} and hardware wallets show all three.
type Hashes struct {
	Domain  common.Hash
	Message common.Hash
	SafeTx  common.Hash
}

// Hash computes the hashes of tx for the Safe at safe on the chain
// chainID. It refuses numbers that do not fit a uint256 (negative or too
// large) and an operation other than call or delegatecall.
func Hash(chainID *big.Int, safe common.Address, tx Tx) (Hashes, error) {
	domain, err := DomainSeparator(chainID, safe)
	if err != nil {
		return Hashes{}, err
	}
	message, err := structHash(tx)
	if err != nil {
		return Hashes{}, err
	}
	return Hashes{
		Domain:  domain,
		Message: message,
		SafeTx:  crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], message[:]),
	}, nil
}

// DomainSeparator is the Safe's EIP-712 domain separator, what its
// domainSeparator() returns.
func DomainSeparator(chainID *big.Int, safe common.Address) (common.Hash, error) {
	id, err := word("chain id", chainID)
	if err != nil {
		return common.Hash{}, err
	}
	return crypto.Keccak256Hash(domainTypeHash[:], id, addressWord(safe)), nil
}

func structHash(tx Tx) (common.Hash, error) {
	if tx.Operation != Call && tx.Operation != DelegateCall {
		return common.Hash{}, fmt.Errorf("safe transaction: operation %d is neither a call (0) nor a delegatecall (1)", tx.Operation)
	}
	numbers := []struct {
		name string
		v    *big.Int
	}{{"value", tx.Value}, {"safeTxGas", tx.SafeTxGas}, {"baseGas", tx.BaseGas}, {"gasPrice", tx.GasPrice}, {"nonce", tx.Nonce}}
	words := make(map[string][]byte, len(numbers))
	for _, n := range numbers {
		w, err := word(n.name, n.v)
		if err != nil {
			return common.Hash{}, err
		}
		words[n.name] = w
	}
	return crypto.Keccak256Hash(
		safeTxTypeHash[:],
		addressWord(tx.To),
		words["value"],
		crypto.Keccak256(tx.Data), // EIP-712 encodes bytes by their hash
		common.LeftPadBytes([]byte{byte(tx.Operation)}, 32),
		words["safeTxGas"],
		words["baseGas"],
		words["gasPrice"],
		addressWord(tx.GasToken),
		addressWord(tx.RefundReceiver),
		words["nonce"],
	), nil
}

// word is n as a uint256 word; nil is zero.
func word(name string, n *big.Int) ([]byte, error) {
	if n == nil {
		return make([]byte, 32), nil
	}
	if n.Sign() < 0 || n.BitLen() > 256 {
		return nil, fmt.Errorf("safe transaction: %s %s does not fit a uint256", name, n)
	}
	return common.LeftPadBytes(n.Bytes(), 32), nil
}

func addressWord(a common.Address) []byte { return common.LeftPadBytes(a[:], 32) }
