package session

// Fixtures describe the embedded sandbox's seed to the screens and the
// commands: its ids, demo wallets and the state of each demo allocation,
// as its service knows them. They are the session's own description
// (package embedded fills them from the sandbox), so that what reads a
// session never depends on the sandbox itself.
type Fixtures struct {
	BaseURL        string
	PortalURL      string
	PortalID       string
	PortalSlug     string
	APIKey         string
	ReadOnlyAPIKey string
	APIKeyHeader   string
	TokenIDs       []string
	// Tokens name the tokens of TokenIDs, in the same order.
	Tokens         []FixtureToken
	ContractIDs    []string
	AdminWalletIDs []string
	// PoolIDs are every pool, token by token, in list order.
	PoolIDs       []string
	BigPoolID     string
	AllocationIDs []string
	// LifeAllocationIDs are demo allocations in a state of their own, one
	// in each state but active, in this order: claimed in part,
	// cancelled, revoked, transferred, underfunded, through handler.
	LifeAllocationIDs []string
	// AllocationStates names the state of every demo allocation, by id.
	AllocationStates map[string]string
	SigninDomain     string
	ChainID          uint64
	KeystoreDir      string
	Wallets          []FixtureWallet
}

// FixtureToken is a seeded token's name and symbol.
type FixtureToken struct{ ID, Name, Symbol string }

// FixtureWallet is a demo wallet: its address, keystore file and
// passphrase.
type FixtureWallet struct{ Address, KeyFile, Passphrase string }

// AppliedWrite is a write the embedded sandbox applied, as its journal
// records it.
type AppliedWrite struct {
	// Operation is the path of the operation (transactions/create,
	// allocations/ID/claim, ...); Action a transaction's action;
	// BodySHA256 the hash of the body it was sent (hex).
	Operation, Action, BodySHA256 string
}
