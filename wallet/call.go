package wallet

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"allot/internal/sanitize"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
)

// Call is an unsigned contract call for the user to sign: an instruction
// of a claim (D7), the parameters of a stake (D11), or an approve allot adds
// before a stake.
type Call struct {
	// ChainID is the chain the call is meant for; 0 when its source does
	// not say (stake parameters), and then the profile's chain is used.
	ChainID uint64
	From    common.Address
	To      common.Address
	Data    []byte
	Value   *big.Int // wei
}

// MaxCalldata bounds calldata taken from the service: a withdraw carries
// decodableArgs and a proof.
const MaxCalldata = 2*vesting.MaxArgsSize + 8<<10

// ErrCall is wrapped by the errors of ParseInstruction and ParseStake.
var ErrCall = errors.New("invalid transaction parameters")

// maxUint256 bounds a value in wei.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// ParseInstruction reads a claim instruction (D7) as the service sends it:
// addresses, calldata in hex, and the value in wei as a decimal string.
func ParseInstruction(chainID uint64, from, to, data, valueWei string) (Call, error) {
	c, err := parseCall(from, to, data)
	if err != nil {
		return Call{}, err
	}
	c.ChainID = chainID
	valueWei = strings.TrimSpace(valueWei)
	var v *big.Int
	if len(valueWei) <= 80 { // 2^256 has 78 digits
		v, _ = new(big.Int).SetString(valueWei, 10)
	}
	if v == nil || v.Sign() < 0 || v.Cmp(maxUint256) > 0 {
		return Call{}, fmt.Errorf("%w: value %q is not an amount of wei", ErrCall, sanitize.Truncate(valueWei, 40))
	}
	c.Value = v
	return c, nil
}

// ParseStake reads stake parameters (D11): the platform fee, the
// transaction's value, is a decimal amount of the native coin (18
// decimals). The chain is the profile's.
func ParseStake(from, to, data, platformFee string) (Call, error) {
	c, err := parseCall(from, to, data)
	if err != nil {
		return Call{}, err
	}
	fee, err := ParseUnits(strings.TrimSpace(platformFee))
	if err != nil {
		return Call{}, fmt.Errorf("%w: platform fee: %w", ErrCall, err)
	}
	c.Value = fee
	return c, nil
}

func parseCall(from, to, data string) (Call, error) {
	var c Call
	for _, f := range []struct {
		name, value string
		into        *common.Address
	}{{"from", from, &c.From}, {"to", to, &c.To}} {
		v := strings.TrimSpace(f.value)
		if !common.IsHexAddress(v) {
			return Call{}, fmt.Errorf("%w: %s %q is not an address", ErrCall, f.name, sanitize.Truncate(v, 50))
		}
		*f.into = common.HexToAddress(v)
	}
	if len(data) > 2+2*MaxCalldata {
		return Call{}, fmt.Errorf("%w: calldata of %d characters, more than %d", ErrCall, len(data), 2+2*MaxCalldata)
	}
	b, err := decodeHex(strings.TrimSpace(data))
	if err != nil {
		return Call{}, fmt.Errorf("%w: calldata: %v", ErrCall, err)
	}
	c.Data = b
	return c, nil
}
