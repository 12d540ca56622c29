// Package assets holds the data built into the binary with go:embed.
package assets

import (
	"bytes"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// The compiled sandbox contracts, written by contracts/build.sh from the
// Solidity sources next to it.
//
//go:embed contracts/build/*.json
var contractFiles embed.FS

// Names of the compiled contracts.
const (
	TokenContract   = "Token"
	VesterContract  = "Vester"
	StakingContract = "Staking"
	// PostClaimVaultContract is the sandbox's post-claim handler, which
	// a vester may whitelist (docs/deployment.md D18).
	PostClaimVaultContract = "PostClaimVault"
)

// ContractArtifact is one compiled contract: its ABI as JSON and its
// creation bytecode (constructor arguments are appended to it on deploy).
type ContractArtifact struct {
	ABI      json.RawMessage
	Bytecode []byte
}

// Contract returns the compiled artifact of the named contract.
func Contract(name string) (ContractArtifact, error) {
	data, err := contractFiles.ReadFile("contracts/build/" + name + ".json")
	if err != nil {
		return ContractArtifact{}, fmt.Errorf("contract %s: %w", name, err)
	}
	var file struct {
		ABI      json.RawMessage `json:"abi"`
		Bytecode string          `json:"bytecode"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return ContractArtifact{}, fmt.Errorf("contract %s: %w", name, err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(file.Bytecode, "0x"))
	if err != nil {
		return ContractArtifact{}, fmt.Errorf("contract %s: bytecode: %w", name, err)
	}
	if len(file.ABI) == 0 || len(code) == 0 {
		return ContractArtifact{}, fmt.Errorf("contract %s: %w", name, errors.New("artifact without abi or bytecode"))
	}
	return ContractArtifact{ABI: file.ABI, Bytecode: code}, nil
}

// ABI returns the parsed ABI of the named contract.
func ABI(name string) (abi.ABI, error) {
	artifact, err := Contract(name)
	if err != nil {
		return abi.ABI{}, err
	}
	parsed, err := abi.JSON(bytes.NewReader(artifact.ABI))
	if err != nil {
		return abi.ABI{}, fmt.Errorf("contract %s: abi: %w", name, err)
	}
	return parsed, nil
}
