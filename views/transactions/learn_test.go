package transactions

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"allot/api/sandbox"
	"allot/core/journal"
	"allot/views/reopen"
	"allot/viewstest"
	"allot/wallet"
)

// laterNode is a node that mined one transaction after allot stopped
// following it, and holds another in its queue, behind nonce 1.
type laterNode struct {
	wallet.Node // every other method: not called
	mined       common.Hash
	queued      common.Hash
}

func (n laterNode) TransactionReceipt(_ context.Context, hash common.Hash) (*types.Receipt, error) {
	if hash == n.mined {
		return &types.Receipt{Status: types.ReceiptStatusSuccessful, TxHash: hash, BlockNumber: big.NewInt(5), GasUsed: 50_000}, nil
	}
	return nil, ethereum.NotFound
}

func (n laterNode) TransactionByHash(_ context.Context, hash common.Hash) (*types.Transaction, bool, error) {
	if hash == n.queued {
		return types.NewTx(&types.DynamicFeeTx{Nonce: 3}), true, nil
	}
	return nil, false, ethereum.NotFound
}

func (laterNode) BlockNumber(context.Context) (uint64, error) { return 7, nil }
func (laterNode) NonceAt(context.Context, common.Address, *big.Int) (uint64, error) {
	return 1, nil
}
func (laterNode) PendingNonceAt(context.Context, common.Address) (uint64, error) { return 1, nil }

// TestTransactionsLearnOutcomes: a chain transaction the journal holds as
// pending, mined since, is shown mined when the screen reads the journal,
// and the journal records it; one the node queues is shown queued behind
// the nonce it waits for. Before, both stayed pending forever.
func TestTransactionsLearnOutcomes(t *testing.T) {
	ctx := viewstest.Journaled(t, sandbox.Options{})
	j, d := ctx.Journal, ctx.Session.Deployment()
	from := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	mined, queued := common.HexToHash("0x01"), common.HexToHash("0x02")
	ctx.Session.Chain = laterNode{mined: mined, queued: queued}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i, hash := range []common.Hash{mined, queued} {
		signed, _ := json.Marshal(map[string]any{"from": from, "nonce": 2 + i, "chainId": ctx.Session.Profile.ChainID})
		for k, e := range []journal.Entry{
			{Kind: journal.KindSignature, Op: "claim", Ref: hash.Hex(), Data: signed},
			{Kind: journal.KindTransaction, Op: "claim", Ref: hash.Hex(), Status: "sending"},
			{Kind: journal.KindTransaction, Op: "claim", Ref: hash.Hex(), Status: "pending"},
		} {
			e.At = at.Add(time.Duration(3*i+k) * time.Second)
			if err := j.Append(d.Stamp(e)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tr := New(ctx, reopen.Unknown).(*transactions)
	drv := viewstest.NewSyncDriver(t, tr, 120, 30, viewstest.DropWaiting)
	drv.Run(tr.Init())
	status := map[string]string{}
	rows, shown := tr.Table.Shown()
	for _, i := range shown {
		status[rows.At(i).ID] = rows.At(i).StatusText()
	}
	if status[mined.Hex()] != "success, block 5" || status[queued.Hex()] != "queued behind nonce 1" {
		t.Errorf("statuses %v; want the mined one success in block 5, the other queued behind nonce 1", status)
	}
	for _, i := range shown {
		if r := rows.At(i); r.ID == queued.Hex() && !strings.Contains(fmt.Sprint(r.Fields(at)), "another transaction from this account must be mined first") {
			t.Errorf("the queued transaction's details do not say what it waits for: %v", r.Fields(at))
		}
	}
	list, err := Read(j, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.ID == mined.Hex() && (r.Status != "success" || r.Block != 5 || r.Confirmations != 3) {
			t.Errorf("the journal did not learn the mined transaction: %+v", r)
		}
		if r.ID == queued.Hex() && r.Status != "pending" {
			t.Errorf("the journal records the queued transaction as %s; it has no end yet", r.Status)
		}
	}
}
