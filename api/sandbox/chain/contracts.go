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
	// PostClaimVault is a post-claim handler a vester may whitelist: a
	// claim through it leaves the tokens there, credited to the
	// allocation's withdrawal address (docs/deployment.md D18).
	PostClaimVault = mustLoad(assets.PostClaimVaultContract)
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
	data, err := packMethod(Vester, withdrawSig, amount, rootIndex, decodableArgs, nodes(proof))
	if err != nil {
		return nil, fmt.Errorf("pack withdraw: %w", err)
	}
	return data, nil
}

// The two withdraws, by signature: go-ethereum names overloads after the
// order of the ABI (withdraw, withdraw0), which the compiler chooses.
const (
	withdrawSig        = "withdraw(uint256,uint32,bytes,bytes32[])"
	withdrawThroughSig = "withdraw(uint256,uint32,bytes,bytes32[],address,bytes)"
)

// packMethod packs a call of the contract's method with signature sig.
func packMethod(c *Contract, sig string, args ...any) ([]byte, error) {
	for _, m := range c.ABI.Methods {
		if m.Sig == sig {
			packed, err := m.Inputs.Pack(args...)
			if err != nil {
				return nil, err
			}
			return append(bytes.Clone(m.ID), packed...), nil
		}
	}
	return nil, fmt.Errorf("%s has no method %s", c.Name, sig)
}

// PackWithdrawThrough returns the calldata of the vester's second withdraw
// (docs/deployment.md D18): withdraw(uint256 withdrawalAmount, uint32
// rootIndex, bytes decodableArgs, bytes32[] proof, address
// postClaimHandler, bytes extraData), which pays the handler and then
// calls it. Handler 0 is the direct claim.
func PackWithdrawThrough(amount *big.Int, rootIndex uint32, decodableArgs []byte, proof []common.Hash, handler common.Address, extraData []byte) ([]byte, error) {
	if amount == nil {
		return nil, fmt.Errorf("pack withdraw through %s: %w", handler.Hex(), errNilAmount)
	}
	data, err := packMethod(Vester, withdrawThroughSig, amount, rootIndex, decodableArgs, nodes(proof), handler, extraData)
	if err != nil {
		return nil, fmt.Errorf("pack withdraw through %s: %w", handler.Hex(), err)
	}
	return data, nil
}

// PackCancel returns the calldata of cancel(uint32 rootIndex, bytes
// decodableArgs, bytes32[] proof): a benefactor stops the allocation's
// vesting at the block's time.
func PackCancel(rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	return packLeafCall("cancel", rootIndex, decodableArgs, proof)
}

// PackRevoke returns the calldata of revoke(uint32 rootIndex, bytes
// decodableArgs, bytes32[] proof): a benefactor takes back everything of
// the allocation not withdrawn.
func PackRevoke(rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	return packLeafCall("revoke", rootIndex, decodableArgs, proof)
}

// PackTransferBeneficiary returns the calldata of
// transferBeneficiaryAddress(address newAddress, uint32 rootIndex, bytes
// decodableArgs, bytes32[] proof).
func PackTransferBeneficiary(newAddress common.Address, rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	data, err := Vester.ABI.Pack("transferBeneficiaryAddress", newAddress, rootIndex, decodableArgs, nodes(proof))
	if err != nil {
		return nil, fmt.Errorf("pack transferBeneficiaryAddress: %w", err)
	}
	return data, nil
}

func packLeafCall(method string, rootIndex uint32, decodableArgs []byte, proof []common.Hash) ([]byte, error) {
	data, err := Vester.ABI.Pack(method, rootIndex, decodableArgs, nodes(proof))
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", method, err)
	}
	return data, nil
}

// nodes is a proof as the ABI encoder takes a bytes32[].
func nodes(proof []common.Hash) [][32]byte {
	out := make([][32]byte, len(proof))
	for i, h := range proof {
		out[i] = h
	}
	return out
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
