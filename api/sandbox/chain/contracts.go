package chain

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"allot/assets"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// Contract is a compiled sandbox contract (assets/contracts): its parsed ABI
// and creation bytecode. Treat it as read-only.
type Contract struct {
	Name     string
	ABI      abi.ABI
	Bytecode []byte
}

// The sandbox contracts. Their Solidity sources, with every function, event
// and error documented, are in assets/contracts.
var (
	// Token is an ERC-20 with 18 decimals that its deployer can mint.
	Token = mustLoad(assets.TokenContract)
	// Vester is the merkle vester of one distribution (docs/deployment.md D8).
	Vester = mustLoad(assets.VesterContract)
	// Staking is one staking pool (docs/deployment.md D11).
	Staking = mustLoad(assets.StakingContract)
)

// The artifacts are embedded at build time and checked by the assets tests,
// so a failure here is a broken build, not a runtime condition.
func mustLoad(name string) *Contract {
	artifact, err := assets.Contract(name)
	if err != nil {
		panic(fmt.Sprintf("chain: %v", err))
	}
	parsed, err := abi.JSON(bytes.NewReader(artifact.ABI))
	if err != nil {
		panic(fmt.Sprintf("chain: contract %s: abi: %v", name, err))
	}
	return &Contract{Name: name, ABI: parsed, Bytecode: artifact.Bytecode}
}

// deployData is the creation bytecode followed by the constructor arguments.
func (c *Contract) deployData(args ...any) ([]byte, error) {
	packed, err := c.ABI.Pack("", args...)
	if err != nil {
		return nil, fmt.Errorf("deploy %s: %w", c.Name, err)
	}
	return append(bytes.Clone(c.Bytecode), packed...), nil
}

var errNilAmount = errors.New("amount is nil")

// PackWithdraw returns the calldata of the vester's claim call (docs/deployment.md D7, D8):
// withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes decodableArgs, bytes32[] proof).
func PackWithdraw(amount *big.Int, rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	if amount == nil {
		return nil, fmt.Errorf("pack withdraw: %w", errNilAmount)
	}
	nodes := make([][32]byte, len(proof))
	for i, h := range proof {
		nodes[i] = h
	}
	data, err := Vester.ABI.Pack("withdraw", amount, rootIndex, decodableArgs, nodes)
	if err != nil {
		return nil, fmt.Errorf("pack withdraw: %w", err)
	}
	return data, nil
}

// PackStake returns the calldata of a staking pool's stake(uint256 amount)
// (docs/deployment.md D11).
func PackStake(amount *big.Int) ([]byte, error) {
	if amount == nil {
		return nil, fmt.Errorf("pack stake: %w", errNilAmount)
	}
	data, err := Staking.ABI.Pack("stake", amount)
	if err != nil {
		return nil, fmt.Errorf("pack stake: %w", err)
	}
	return data, nil
}

// PackApprove returns the calldata of the token's approve(address spender,
// uint256 value), the transaction a staker sends when its allowance is short.
func PackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	if amount == nil {
		return nil, fmt.Errorf("pack approve: %w", errNilAmount)
	}
	data, err := Token.ABI.Pack("approve", spender, amount)
	if err != nil {
		return nil, fmt.Errorf("pack approve: %w", err)
	}
	return data, nil
}
