package sandbox

import (
	"math/big"
	"net/http"
	"testing"
)

func TestCreateTransactions(t *testing.T) {
	e := newEnv(t, Options{})
	fx := e.fx
	for _, tc := range []struct {
		name   string
		body   obj
		action string
		count  int
	}{
		{"initialize", obj{"action": ActionInitialize, "contractId": fx.ContractIDs[0], "adminWalletId": fx.AdminWalletIDs[0]}, ActionInitialize, 1},
		{"start", obj{"action": ActionStart, "contractId": fx.ContractIDs[0], "tokenId": fx.TokenIDs[0],
			"allocationIds": []string{fx.AllocationIDs[0], fx.AllocationIDs[1]}}, ActionStart, 1},
		{"start with optional fields", obj{"action": ActionStart, "contractId": fx.ContractIDs[0], "tokenId": fx.TokenIDs[0],
			"allocationIds": []string{fx.AllocationIDs[0]}, "adminWalletId": fx.AdminWalletIDs[1], "fundTill": nil, "memo": "Q1 unlock"}, ActionStart, 1},
		{"start with nulls", obj{"action": ActionStart, "contractId": fx.ContractIDs[0], "tokenId": fx.TokenIDs[0],
			"allocationIds": []string{fx.AllocationIDs[1]}, "adminWalletId": nil, "memo": nil}, ActionStart, 1},
		{"fund", obj{"action": ActionFund, "tokenId": fx.TokenIDs[0], "isTest": true, "data": []obj{
			{"allocationId": fx.AllocationIDs[0], "amount": 1500.25},
			{"allocationId": fx.AllocationIDs[1], "amount": 1e3},
			{"allocationId": fx.AllocationIDs[2], "amount": 0.000000000000000001},
		}}, ActionFund, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(e.srv.Transactions())
			var result struct {
				Transactions []struct {
					TransactionID string `json:"transactionId"`
					Status        string `json:"status"`
				} `json:"transactions"`
			}
			e.admin("POST", "transactions/create", tc.body).result(t, &result)
			if len(result.Transactions) != tc.count {
				t.Fatalf("%d transactions, want %d", len(result.Transactions), tc.count)
			}
			stored := e.srv.Transactions()[before:]
			for i, tx := range result.Transactions {
				if !isUUID(tx.TransactionID) || tx.Status != StatusPending {
					t.Errorf("transaction %+v", tx)
				}
				if stored[i].ID != tx.TransactionID || stored[i].Action != tc.action {
					t.Errorf("stored %+v", stored[i])
				}
			}
		})
	}
	fund := e.srv.Transactions()[len(e.srv.Transactions())-3:]
	if fund[0].Amount.Cmp(units(1500, 25, 2)) != 0 || fund[2].Amount.Cmp(big.NewInt(1)) != 0 {
		t.Errorf("fund amounts %s, %s: not exact", fund[0].Amount, fund[2].Amount)
	}
}

func TestCreateTransactionsValidation(t *testing.T) {
	e := newEnv(t, Options{})
	fx := e.fx
	const wellFormed = "00000000-0000-4000-8000-000000000000"
	otherToken := fx.TokenIDs[1]
	// The first distribution of the second token.
	var otherAllocation string
	for _, a := range e.srv.World().Allocations {
		if a.Distribution().TokenID == otherToken {
			otherAllocation = a.ID
			break
		}
	}
	start := func(change func(obj)) obj {
		b := obj{"action": ActionStart, "contractId": fx.ContractIDs[0], "tokenId": fx.TokenIDs[0],
			"allocationIds": []any{fx.AllocationIDs[0], fx.AllocationIDs[1]}}
		change(b)
		return b
	}
	fund := func(change func(obj)) obj {
		b := obj{"action": ActionFund, "tokenId": fx.TokenIDs[0], "data": []any{
			obj{"allocationId": fx.AllocationIDs[0], "amount": 10},
			obj{"allocationId": fx.AllocationIDs[1], "amount": 20},
		}}
		change(b)
		return b
	}
	item := func(b obj, i int) obj { return b["data"].([]any)[i].(obj) }
	for _, tc := range []struct {
		name   string
		body   any
		status int
		path   string
	}{
		{"no action", obj{"contractId": fx.ContractIDs[0]}, 400, "action"},
		{"unknown action", obj{"action": "BURN"}, 400, "action"},
		{"action not a string", obj{"action": 1}, 400, "action"},

		{"initialize without contract", obj{"action": ActionInitialize, "adminWalletId": fx.AdminWalletIDs[0]}, 400, "contractId"},
		{"initialize with empty contract", obj{"action": ActionInitialize, "contractId": "", "adminWalletId": fx.AdminWalletIDs[0]}, 400, "contractId"},
		{"initialize without admin wallet", obj{"action": ActionInitialize, "contractId": fx.ContractIDs[0]}, 400, "adminWalletId"},
		{"initialize unknown contract", obj{"action": ActionInitialize, "contractId": wellFormed, "adminWalletId": fx.AdminWalletIDs[0]}, 404, ""},
		{"initialize token id as contract", obj{"action": ActionInitialize, "contractId": fx.TokenIDs[0], "adminWalletId": fx.AdminWalletIDs[0]}, 404, ""},
		{"initialize contract id as admin wallet", obj{"action": ActionInitialize, "contractId": fx.ContractIDs[0], "adminWalletId": fx.ContractIDs[0]}, 404, ""},

		{"start without allocations", start(func(b obj) { delete(b, "allocationIds") }), 400, "allocationIds"},
		{"start with no allocations", start(func(b obj) { b["allocationIds"] = []any{} }), 400, "allocationIds"},
		{"start allocation malformed", start(func(b obj) { b["allocationIds"].([]any)[1] = "x" }), 400, "allocationIds[1]"},
		{"start allocation not a string", start(func(b obj) { b["allocationIds"].([]any)[0] = 7 }), 400, "allocationIds[0]"},
		{"start allocation twice", start(func(b obj) { b["allocationIds"].([]any)[1] = fx.AllocationIDs[0] }), 400, "allocationIds[1]"},
		{"start without token", start(func(b obj) { delete(b, "tokenId") }), 400, "tokenId"},
		{"start fundTill set", start(func(b obj) { b["fundTill"] = "2026-01-01T00:00:00.000Z" }), 400, "fundTill"},
		{"start empty memo", start(func(b obj) { b["memo"] = "" }), 400, "memo"},
		{"start memo not a string", start(func(b obj) { b["memo"] = 5 }), 400, "memo"},
		{"start admin wallet malformed", start(func(b obj) { b["adminWalletId"] = "w" }), 400, "adminWalletId"},
		{"start unknown admin wallet", start(func(b obj) { b["adminWalletId"] = wellFormed }), 404, ""},
		{"start unknown allocation", start(func(b obj) { b["allocationIds"].([]any)[1] = wellFormed }), 404, ""},
		{"start pool id as allocation", start(func(b obj) { b["allocationIds"].([]any)[1] = fx.PoolIDs[0] }), 404, ""},
		{"start unknown token", start(func(b obj) { b["tokenId"] = wellFormed }), 404, ""},
		{"start contract of another token", start(func(b obj) { b["tokenId"] = otherToken }), 400, "contractId"},
		{"start staking contract", start(func(b obj) { b["contractId"] = stakingContract(e, fx.TokenIDs[0]) }), 400, "contractId"},
		{"start allocation of another contract", start(func(b obj) { b["allocationIds"].([]any)[1] = fx.AllocationIDs[2] }), 400, "allocationIds[1]"},

		{"fund without data", fund(func(b obj) { delete(b, "data") }), 400, "data"},
		{"fund with no data", fund(func(b obj) { b["data"] = []any{} }), 400, "data"},
		{"fund item not an object", fund(func(b obj) { b["data"].([]any)[1] = "x" }), 400, "data[1]"},
		{"fund zero amount", fund(func(b obj) { item(b, 1)["amount"] = 0 }), 400, "data[1].amount"},
		{"fund negative amount", fund(func(b obj) { item(b, 0)["amount"] = -5 }), 400, "data[0].amount"},
		{"fund amount as string", fund(func(b obj) { item(b, 0)["amount"] = "5" }), 400, "data[0].amount"},
		{"fund amount too precise", fund(func(b obj) { item(b, 0)["amount"] = 0.0000000000000000001 }), 400, "data[0].amount"},
		{"fund missing amount", fund(func(b obj) { delete(item(b, 1), "amount") }), 400, "data[1].amount"},
		{"fund missing allocation", fund(func(b obj) { delete(item(b, 1), "allocationId") }), 400, "data[1].allocationId"},
		{"fund isTest not a boolean", fund(func(b obj) { b["isTest"] = "yes" }), 400, "isTest"},
		{"fund unknown allocation", fund(func(b obj) { item(b, 1)["allocationId"] = wellFormed }), 404, ""},
		{"fund unknown token", fund(func(b obj) { b["tokenId"] = fx.ContractIDs[0] }), 404, ""},
		{"fund allocation of another token", fund(func(b obj) { item(b, 1)["allocationId"] = otherAllocation }), 400, "data[1].allocationId"},
		{"fund huge exponent", `{"action":"FUND_DISTRIBUTION","tokenId":"` + fx.TokenIDs[0] + `","data":[{"allocationId":"` + fx.AllocationIDs[0] + `","amount":1e999999999}]}`, 400, "data[0].amount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.admin("POST", "transactions/create", tc.body)
			switch tc.status {
			case 400:
				r.wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
			case 404:
				r.wantAdminError(t, http.StatusNotFound, kindNotFound, "")
			}
		})
	}
	if n := len(e.srv.Journal()); n != 0 {
		t.Errorf("refused requests were journaled: %d entries", n)
	}
	if n := len(e.srv.Transactions()); n != 0 {
		t.Errorf("refused requests created %d transactions", n)
	}
}

func stakingContract(e *env, tokenID string) string {
	for _, c := range e.srv.World().TokenContracts(tokenID) {
		if c.Type == ContractStaking {
			return c.ID
		}
	}
	e.t.Fatal("no staking contract")
	return ""
}
