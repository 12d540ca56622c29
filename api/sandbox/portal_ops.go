package sandbox

import (
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/google/uuid"
)

type humanityResult struct {
	Verified bool `json:"verified"`
}

// humanityStatus serves humanity/status: whether the wallet passed the
// portal's proof of humanity. It needs no token (D10).
func (s *Server) humanityStatus(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	var verified bool
	if value, ok := o.object("value", true); ok {
		if wallet, ok := value.address("value", true); ok {
			sub := s.world.Portal.Submissions[wallet]
			verified = sub != nil && sub.PoHPassed
		}
	}
	if !p.ok() {
		return nil, p.err()
	}
	return humanityResult{Verified: verified}, nil
}

type submissionResult struct {
	ClaimWallet *string       `json:"claimWallet"`
	Submitted   bool          `json:"submitted"`
	PohPassed   bool          `json:"pohPassed"`
	Accounts    []accountJSON `json:"accounts"`
}

type accountJSON struct {
	Value       string  `json:"value"`
	Type        string  `json:"type"`
	IsEligible  bool    `json:"isEligible"`
	Description *string `json:"description"`
}

// submissionAccounts serves submission/accounts: the signed-in wallet's
// submission to the portal; a wallet that submitted nothing has no
// accounts.
func (s *Server) submissionAccounts(c *call) (any, error) {
	result := submissionResult{Accounts: []accountJSON{}}
	sub := s.world.Portal.Submissions[c.wallet]
	if sub == nil {
		return result, nil
	}
	if sub.ClaimWallet != nil {
		hex := sub.ClaimWallet.Hex()
		result.ClaimWallet = &hex
	}
	result.Submitted, result.PohPassed = sub.Submitted, sub.PoHPassed
	for _, a := range sub.Accounts {
		result.Accounts = append(result.Accounts, accountJSON(a))
	}
	return result, nil
}

type stakeParameters struct {
	StakeID     string `json:"stakeId"`
	From        string `json:"from"`
	To          string `json:"to"`
	Data        string `json:"data"`
	PlatformFee string `json:"platformFee"`
}

// stakeParameters serves parameters/stake (D11): the call of stake(amount)
// on the pool's staking contract, from the signed-in wallet, whose value is
// the platform fee in ether.
func (s *Server) stakeParameters(c *call) (any, error) {
	var p problems
	q := c.r.URL.Query()
	poolID := q.Get("stakingPoolId")
	switch {
	case poolID == "":
		p.add("stakingPoolId", "is required")
	case !isUUID(poolID):
		p.add("stakingPoolId", "must be a UUID")
	}
	amount, err := parsePositiveAmount(q.Get("amount"))
	switch {
	case q.Get("amount") == "":
		p.add("amount", "is required")
	case err != nil:
		p.add("amount", err.Error())
	}
	if !p.ok() {
		return nil, p.err()
	}
	pool, ok := s.world.Pool(poolID)
	if !ok {
		return nil, errPoolNotFound
	}
	if pool.Status != PoolActive {
		return nil, errInvalid("stakingPoolId", "the pool is "+pool.Status+" and takes no stakes")
	}
	if amount.Cmp(pool.MinimumStakeAmount) < 0 {
		return nil, errInvalid("amount", "must be at least the pool's minimum stake of "+formatUnits(pool.MinimumStakeAmount))
	}
	data, err := packStake(amount)
	if err != nil {
		return nil, err
	}
	contract, _ := s.world.Contract(pool.ContractID)
	s.askedStake(pool, c.wallet, amount)
	return stakeParameters{
		StakeID:     uuid.NewString(),
		From:        c.wallet.Hex(),
		To:          s.poolAddress(pool).Hex(),
		Data:        hexutil.Encode(data),
		PlatformFee: formatUnits(contract.PlatformFee),
	}, nil
}
