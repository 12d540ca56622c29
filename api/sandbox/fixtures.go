package sandbox

// Fixtures describe a running sandbox for its users: where it is, its keys,
// the ids of its seed data and its demo wallets. The first id of each kind
// belongs with the first of the others: the first two allocations are in
// the first contract's distribution of the first token, belong to wallets 0
// and 1, and are partly unlocked, so that requests built from the first ids
// succeed. LifeAllocationIDs show the other states an allocation can be in
// on the vester (AllocationStates).
type Fixtures struct {
	BaseURL        string   `json:"baseUrl"`
	PortalURL      string   `json:"portalUrl"`
	PortalID       string   `json:"portalId"`
	PortalSlug     string   `json:"portalSlug"`
	APIKey         string   `json:"apiKey"`
	ReadOnlyAPIKey string   `json:"readOnlyApiKey"`
	APIKeyHeader   string   `json:"apiKeyHeader"`
	TokenIDs       []string `json:"tokenIds"`
	// Tokens name the tokens of TokenIDs, in the same order: the
	// interface has no call that does.
	Tokens         []FixtureToken `json:"tokens"`
	ContractIDs    []string       `json:"contractIds"`
	AdminWalletIDs []string       `json:"adminWalletIds"`
	// PoolIDs are every pool, token by token, in list order.
	PoolIDs       []string `json:"poolIds"`
	BigPoolID     string   `json:"bigPoolId"`
	AllocationIDs []string `json:"allocationIds"`
	// LifeAllocationIDs are demo allocations the seed did something to
	// after their root was committed (D18), one in each state but
	// StateActive, in this order: StateClaimedInPart, StateCancelled,
	// StateRevoked, StateTransferred, StateUnderfunded,
	// StateThroughHandler.
	LifeAllocationIDs []string `json:"lifeAllocationIds"`
	// AllocationStates names the state of every allocation of
	// AllocationIDs (all StateActive) and LifeAllocationIDs, by id.
	AllocationStates map[string]string `json:"allocationStates"`
	SigninDomain     string            `json:"signinDomain"`
	ChainID          uint64            `json:"chainId"`
	KeystoreDir      string            `json:"keystoreDir"`
	Wallets          []FixtureWallet   `json:"wallets"`
}

// FixtureToken is a seeded token's name and symbol.
type FixtureToken struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
}

// FixtureWallet is a demo wallet: its address, V3 keystore file and the
// file's passphrase.
type FixtureWallet struct {
	Address    string `json:"address"`
	KeyFile    string `json:"keyFile"`
	Passphrase string `json:"passphrase"`
}

// Fixtures returns the sandbox's fixtures. They hold its API keys and the
// wallets' passphrases: write them only where the user alone can read.
func (s *Server) Fixtures() Fixtures {
	w := s.world
	f := Fixtures{
		BaseURL:        s.publicURL,
		PortalURL:      s.publicURL,
		PortalID:       w.Portal.ID,
		PortalSlug:     w.Portal.Slug,
		APIKey:         s.keys.full,
		ReadOnlyAPIKey: s.keys.read,
		APIKeyHeader:   s.apiKeyHeader,
		BigPoolID:      w.BigPool.ID,
		SigninDomain:   s.signinDomain,
		ChainID:        s.chainID(),
		KeystoreDir:    s.keystore.dir,
	}
	for _, t := range w.Tokens {
		f.TokenIDs = append(f.TokenIDs, t.ID)
		f.Tokens = append(f.Tokens, FixtureToken{ID: t.ID, Name: t.Name, Symbol: t.Symbol})
	}
	for _, c := range w.Contracts {
		f.ContractIDs = append(f.ContractIDs, c.ID)
	}
	for _, a := range w.AdminWallets {
		f.AdminWalletIDs = append(f.AdminWalletIDs, a.ID)
	}
	for _, p := range w.Pools {
		f.PoolIDs = append(f.PoolIDs, p.ID)
	}
	f.AllocationStates = map[string]string{}
	for _, a := range w.FixtureAllocations {
		if a.Life != nil {
			f.LifeAllocationIDs = append(f.LifeAllocationIDs, a.ID)
			f.AllocationStates[a.ID] = a.Life.State
			continue
		}
		f.AllocationIDs = append(f.AllocationIDs, a.ID)
		f.AllocationStates[a.ID] = StateActive
	}
	for i, wallet := range w.Wallets {
		f.Wallets = append(f.Wallets, FixtureWallet{
			Address:    wallet.Address.Hex(),
			KeyFile:    s.keystore.files[i],
			Passphrase: wallet.Passphrase,
		})
	}
	return f
}
