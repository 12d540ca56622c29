package sandbox

import (
	"math/big"
	"slices"
	"time"

	"github.com/google/uuid"
)

// Transaction actions of transactions/create, and the status every created
// transaction has: the sandbox sends nothing to a chain, so a transaction
// stays PENDING.
const (
	ActionInitialize = "INITIALIZE"
	ActionStart      = "START_DISTRIBUTION"
	ActionFund       = "FUND_DISTRIBUTION"

	StatusPending = "PENDING"
)

// ActionClaim is the action of a Transaction created by a claim.
const ActionClaim = "CLAIM"

// Transaction is a transaction the sandbox created, for a chain integration
// to act on (start or fund a distribution on its chain) and for tests.
type Transaction struct {
	ID            string
	Action        string // ActionInitialize, ActionStart, ActionFund or ActionClaim
	Status        string
	ContractID    string   // INITIALIZE, START_DISTRIBUTION, CLAIM
	TokenID       string   // START_DISTRIBUTION, FUND_DISTRIBUTION, CLAIM
	AllocationIDs []string // START_DISTRIBUTION; the one of FUND_DISTRIBUTION and CLAIM
	Amount        *big.Int // FUND_DISTRIBUTION and CLAIM, base units
	CreatedAt     time.Time
}

// Transactions returns the transactions created so far, oldest first.
func (s *Server) Transactions() []Transaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.transactions)
}

// addTransactions stamps and stores txs and returns their ids.
func (s *Server) addTransactions(action string, txs []Transaction) []string {
	now := s.clock()
	ids := make([]string, len(txs))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range txs {
		txs[i].ID, txs[i].Action, txs[i].Status, txs[i].CreatedAt = uuid.NewString(), action, StatusPending, now
		s.transactions = append(s.transactions, txs[i])
		ids[i] = txs[i].ID
	}
	return ids
}

type transactionJSON struct {
	TransactionID string `json:"transactionId"`
	Status        string `json:"status"`
}

type transactionsResult struct {
	Transactions []transactionJSON `json:"transactions"`
}

// createTransactions serves transactions/create (D5): one transaction for
// INITIALIZE and START_DISTRIBUTION, one per data item for FUND_DISTRIBUTION.
func (s *Server) createTransactions(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	action, ok := o.string("action", true)
	if !ok {
		return nil, p.err()
	}
	var txs []Transaction
	var err error
	switch action {
	case ActionInitialize:
		txs, err = s.initialize(o)
	case ActionStart:
		txs, err = s.startDistribution(o)
	case ActionFund:
		txs, err = s.fundDistribution(o)
	default:
		return nil, errInvalid("action", "must be one of INITIALIZE, START_DISTRIBUTION, FUND_DISTRIBUTION")
	}
	if err != nil {
		return nil, err
	}
	c.action = action
	result := transactionsResult{Transactions: []transactionJSON{}}
	for _, id := range s.addTransactions(action, txs) {
		result.Transactions = append(result.Transactions, transactionJSON{id, StatusPending})
	}
	return result, nil
}

func (s *Server) initialize(o object) ([]Transaction, error) {
	contractID, _ := o.uuid("contractId", true)
	walletID, _ := o.uuid("adminWalletId", true)
	if !o.p.ok() {
		return nil, o.p.err()
	}
	if _, ok := s.world.Contract(contractID); !ok {
		return nil, errNotFound("no contract %s", contractID)
	}
	if _, ok := s.world.AdminWallet(walletID); !ok {
		return nil, errNotFound("no admin wallet %s", walletID)
	}
	return []Transaction{{ContractID: contractID}}, nil
}

func (s *Server) startDistribution(o object) ([]Transaction, error) {
	contractID, _ := o.uuid("contractId", true)
	tokenID, _ := o.uuid("tokenId", true)
	walletID, hasWallet := o.uuid("adminWalletId", false)
	if o.has("fundTill") {
		o.p.add("fundTill", "must be null")
	}
	if o.has("memo") {
		o.text("memo", false)
	}
	var allocationIDs []string
	if items, ok := o.array("allocationIds", true, 1); ok {
		seen := map[string]bool{}
		for i, item := range items {
			id, isString := item.(string)
			switch {
			case !isString:
				o.p.add(o.item("allocationIds", i), "must be a string")
			case !isUUID(id):
				o.p.add(o.item("allocationIds", i), "must be a UUID")
			case seen[normalizeID(id)]:
				o.p.add(o.item("allocationIds", i), "is listed twice")
			default:
				seen[normalizeID(id)] = true
				allocationIDs = append(allocationIDs, normalizeID(id))
			}
		}
	}
	if !o.p.ok() {
		return nil, o.p.err()
	}
	contract, ok := s.world.Contract(contractID)
	if !ok {
		return nil, errNotFound("no contract %s", contractID)
	}
	if _, ok := s.world.Token(tokenID); !ok {
		return nil, errNotFound("no token %s", tokenID)
	}
	if hasWallet {
		if _, ok := s.world.AdminWallet(walletID); !ok {
			return nil, errNotFound("no admin wallet %s", walletID)
		}
	}
	allocations := make([]*Allocation, len(allocationIDs))
	for i, id := range allocationIDs {
		if allocations[i], ok = s.world.Allocation(id); !ok {
			return nil, errNotFound("no allocation %s", id)
		}
	}
	switch {
	case contract.TokenID != tokenID:
		return nil, errInvalid("contractId", "is not a contract of token "+tokenID)
	case contract.Distribution == nil:
		return nil, errInvalid("contractId", "is a "+contract.Type+" contract, which holds no distribution")
	}
	for i, a := range allocations {
		if a.DistributionID != contract.Distribution.ID {
			o.p.add(o.item("allocationIds", i), "belongs to the distribution of another contract")
		}
	}
	if !o.p.ok() {
		return nil, o.p.err()
	}
	return []Transaction{{ContractID: contractID, TokenID: tokenID, AllocationIDs: allocationIDs}}, nil
}

func (s *Server) fundDistribution(o object) ([]Transaction, error) {
	tokenID, _ := o.uuid("tokenId", true)
	o.boolean("isTest", false)
	type item struct {
		path         string
		allocationID string
		amount       *big.Int
	}
	var items []item
	if data, ok := o.array("data", true, 1); ok {
		for i, v := range data {
			entry, ok := o.asObject(o.item("data", i), v)
			if !ok {
				continue
			}
			id, idOK := entry.uuid("allocationId", true)
			amount, amountOK := positiveAmount(entry, "amount", true)
			if idOK && amountOK {
				items = append(items, item{entry.path, id, amount})
			}
		}
	}
	if !o.p.ok() {
		return nil, o.p.err()
	}
	if _, ok := s.world.Token(tokenID); !ok {
		return nil, errNotFound("no token %s", tokenID)
	}
	txs := make([]Transaction, len(items))
	for i, it := range items {
		a, ok := s.world.Allocation(it.allocationID)
		if !ok {
			return nil, errNotFound("no allocation %s", it.allocationID)
		}
		if a.distribution.TokenID != tokenID {
			o.p.add(it.path+".allocationId", "belongs to a distribution of another token")
		}
		txs[i] = Transaction{TokenID: tokenID, AllocationIDs: []string{a.ID}, Amount: it.amount}
	}
	if !o.p.ok() {
		return nil, o.p.err()
	}
	return txs, nil
}

// positiveAmount reads a token amount (a JSON number) greater than zero, in
// base units.
func positiveAmount(o object, name string, required bool) (*big.Int, bool) {
	n, ok := o.number(name, required)
	if !ok {
		return nil, false
	}
	amount, err := parsePositiveAmount(n)
	if err != nil {
		o.p.add(o.at(name), err.Error())
		return nil, false
	}
	return amount, true
}
