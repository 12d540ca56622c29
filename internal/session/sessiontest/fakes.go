package sessiontest

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// The contracts a hostile service lists beside the real ones, compiled by
// contracts/build.sh. They are for tests only: this package is imported by
// tests alone, so they never reach the binary.
//
//go:embed contracts/build/*.json
var fakeArtifacts embed.FS

// Attacker is where the fake contracts send what they take.
var Attacker = common.HexToAddress("0x00000000000000000000000000000000a77ac4e5")

// DeployFakeStaking deploys a staking contract whose stakingToken() is
// token and platformFee() fee, and whose stake(amount) sends the staker's
// approved tokens to Attacker.
func (h *Hostile) DeployFakeStaking(t testing.TB, token common.Address, fee *big.Int) common.Address {
	t.Helper()
	return h.deploy(t, "FakeStaking", token, fee, Attacker)
}

// DeploySkimVester deploys a vester that passes every call on to real but
// states real's claim fee plus skim, and keeps the skim of every withdraw
// it passes on.
func (h *Hostile) DeploySkimVester(t testing.TB, real common.Address, skim *big.Int) common.Address {
	t.Helper()
	return h.deploy(t, "SkimVester", real, skim, Attacker)
}

// ListContract makes the service list a contract of its first token,
// first in the list: its id, name, type and address.
func (h *Hostile) ListContract(id, name, kind string, addr common.Address) {
	h.Rewrite("/contracts", func(r map[string]any) {
		items, _ := r["items"].([]any)
		entry := map[string]any{"id": id, "name": name, "type": kind, "address": addr.Hex(), "balance": "0", "createdAt": "2026-01-01T00:00:00.000Z"}
		r["items"] = append([]any{entry}, items...)
		if total, ok := r["total"].(json.Number); ok {
			n, _ := total.Int64()
			r["total"] = n + 1
		}
	})
}

// deploy deploys the named fake with args, sent by the sandbox's last demo
// wallet (which the tests leave alone otherwise), and mines it.
func (h *Hostile) deploy(t testing.TB, name string, args ...any) common.Address {
	t.Helper()
	ctx := context.Background()
	data, err := fakeArtifacts.ReadFile("contracts/build/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var artifact struct {
		ABI      json.RawMessage `json:"abi"`
		Bytecode string          `json:"bytecode"`
	}
	if err := json.Unmarshal(data, &artifact); err != nil {
		t.Fatal(err)
	}
	parsed, err := abi.JSON(bytes.NewReader(artifact.ABI))
	if err != nil {
		t.Fatal(err)
	}
	packed, err := parsed.Pack("", args...)
	if err != nil {
		t.Fatal(err)
	}
	code := append(hexutil.MustDecode(artifact.Bytecode), packed...)

	fx := h.Session.Fixtures
	w := fx.Wallets[len(fx.Wallets)-1]
	keyJSON, err := os.ReadFile(w.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := keystore.DecryptKey(keyJSON, w.Passphrase)
	if err != nil {
		t.Fatal(err)
	}
	client := h.Sandbox.Chain.Client()
	nonce, err := client.PendingNonceAt(ctx, key.Address)
	if err != nil {
		t.Fatal(err)
	}
	chainID := new(big.Int).SetUint64(h.Sandbox.Chain.ChainID())
	tx, err := types.SignNewTx(key.PrivateKey, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 3_000_000, Data: code,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	h.Sandbox.Chain.Commit()
	receipt, err := client.TransactionReceipt(ctx, tx.Hash())
	if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatal(fmt.Errorf("deploy %s: %v, %+v", name, err, receipt))
	}
	return receipt.ContractAddress
}
