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

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/wallet"
)

// The contracts a hostile service lists beside the real ones, compiled by
// contracts/build.sh. They are for tests only: this package is imported by
// tests alone, so they never reach the binary.
//
//go:embed contracts/build/*.json
var fakeArtifacts embed.FS

// Attacker is where the fake contracts send what they take.
var Attacker = common.HexToAddress("0x00000000000000000000000000000000a77ac4e5")

// DeployFakeStaking deploys a staking contract that states real's
// stakingToken() and platformFee(), so that a stake reads as one in real,
// and whose stake(amount) sends the staker's approved tokens to Attacker.
func (h *Hostile) DeployFakeStaking(t testing.TB, real common.Address) common.Address {
	t.Helper()
	ctx := context.Background()
	token, err := wallet.StakingToken(ctx, h.Session.Chain, real)
	if err != nil {
		t.Fatal(err)
	}
	fee, err := wallet.PlatformFee(ctx, h.Session.Chain, real)
	if err != nil {
		t.Fatal(err)
	}
	return h.deploy(t, "FakeStaking", token, fee, Attacker)
}

// DeploySkimVester deploys a vester that passes every call on to real but
// states real's claim fee plus skim, and keeps the skim of every withdraw
// it passes on.
func (h *Hostile) DeploySkimVester(t testing.TB, real common.Address, skim *big.Int) common.Address {
	t.Helper()
	fake := h.deploy(t, "SkimVester", real, skim, Attacker)
	h.fund(t, real, fake)
	return fake
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

	receipt := h.send(t, nil, code)
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("deploy %s: %+v", name, receipt)
	}
	return receipt.ContractAddress
}

// send signs data to `to` (a deployment when nil) with the sandbox's last
// demo wallet, mines it and returns its receipt.
func (h *Hostile) send(t testing.TB, to *common.Address, data []byte) *types.Receipt {
	t.Helper()
	ctx := context.Background()
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
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 3_000_000, To: to, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	h.Sandbox.Chain.Commit()
	receipt, err := client.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		t.Fatal(fmt.Errorf("send to %v: %w", to, err))
	}
	return receipt
}

// fund gives contract half of what the sandbox's last demo wallet holds of
// the real vester's token, as an attacker's fake would hold tokens to look
// as able to pay as the vester it stands in front of.
func (h *Hostile) fund(t testing.TB, real, contract common.Address) {
	t.Helper()
	ctx := context.Background()
	client := h.Sandbox.Chain.Client()
	call := func(to common.Address, data []byte) []byte {
		out, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
		if err != nil || len(out) < 32 {
			t.Fatalf("call %s: %v", to.Hex(), err)
		}
		return out
	}
	token := common.BytesToAddress(call(real, crypto.Keccak256([]byte("token()"))[:4])[:32])
	fx := h.Session.Fixtures
	holder := common.HexToAddress(fx.Wallets[len(fx.Wallets)-1].Address)
	balance := new(big.Int).SetBytes(call(token, append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(holder.Bytes(), 32)...))[:32])
	amount := new(big.Int).Rsh(balance, 1)
	if amount.Sign() == 0 {
		t.Fatalf("the demo wallet %s holds none of the token %s", holder.Hex(), token.Hex())
	}
	data := append(crypto.Keccak256([]byte("transfer(address,uint256)"))[:4], common.LeftPadBytes(contract.Bytes(), 32)...)
	data = append(data, common.LeftPadBytes(amount.Bytes(), 32)...)
	if r := h.send(t, &token, data); r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("fund %s: %+v", contract.Hex(), r)
	}
}
