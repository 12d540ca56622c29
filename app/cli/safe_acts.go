package cli

import (
	"context"
	"math/big"

	"allot/api"
	"allot/wallet/safe"
)

// openSafeAct opens the session for a Safe's act (cmd names it), reads the
// Safe --account names from the chain (refusing what is no canonical
// Safe) and finds the owner's key in the keystore.
func openSafeAct(ctx context.Context, e *env, cmd, account string, f safeActFlags, ks keystoreFlags, token *string) (*opened, safe.Info, *signingAccount, error) {
	safeAddr, err := parseAddress("account", account)
	if err != nil {
		return nil, safe.Info{}, nil, err
	}
	ownerAddr, err := parseAddress("owner", f.owner)
	if err != nil {
		return nil, safe.Info{}, nil, err
	}
	s, err := e.open(ctx, opening{write: true, chain: cmd, token: token})
	if err != nil {
		return nil, safe.Info{}, nil, err
	}
	info, err := readSafeOn(ctx, s, cmd, safeAddr)
	if err != nil {
		return nil, safe.Info{}, nil, err
	}
	owner, err := openAccount(ctx, e, ks, ownerAddr)
	if err != nil {
		return nil, safe.Info{}, nil, err
	}
	return s, info, owner, nil
}

// safeStake is `allot stake --account SAFE --owner KEY`: a stake by the
// Safe (an approve of exactly the amount first when its allowance is
// short, both in one MultiSendCallOnly call), proposed and signed by one
// owner.
func (e *env) safeStake(ctx context.Context, a stakeArgs, f safeActFlags) error {
	multiSend, err := f.check(a.tx)
	if err != nil {
		return err
	}
	if a.pool == "" || a.amount == "" {
		return usagef("stake: --pool ID and --amount X are required")
	}
	amount, err := api.ParseTokenAmount(a.amount)
	if err != nil {
		return usagef("--amount: %v", err)
	}
	asked, err := api.BaseUnits(amount.Decimal)
	if err != nil {
		return usagef("--amount: %v", err)
	}
	var token *string
	if api.CheckUUID("--pool", a.pool) != nil {
		token = &a.token
	}
	s, info, owner, err := openSafeAct(ctx, e, "stake", a.account, f, a.ks, token)
	if err != nil {
		return err
	}
	defer owner.lock()
	pool, err := findPool(ctx, s, a.pool, token != nil)
	if err != nil {
		return err
	}
	r, err := s.ProposeStake(ctx, s.rec, info, owner.address, pool, asked, multiSend)
	if err != nil {
		return err
	}
	return e.signProposed(s, r, owner, f, a.tx.yes, a.out)
}

// findPool finds the pool by id, or by name among the token's pools.
func findPool(ctx context.Context, s *opened, poolFlag string, byName bool) (api.Pool, error) {
	if byName {
		return poolNamed(ctx, s, poolFlag)
	}
	return s.Pool(ctx, poolFlag)
}

// safeClaim is `allot claim ID --account SAFE --owner KEY`: a claim sent
// by the Safe, the service's (built for the Safe as sender) or, where the
// service refuses that sender, allot's own from the proof and the chain's
// fee; proposed and signed by one owner.
func (e *env) safeClaim(ctx context.Context, a claimArgs, f safeActFlags) error {
	multiSend, err := f.check(a.tx)
	if err != nil {
		return err
	}
	if a.sign || a.sender != "" {
		return usagef("claim: --owner makes the Safe --account names the sender; no --sign or --sender with it")
	}
	var asked *big.Int
	req := api.ClaimRequest{Sender: a.account, UserCountryCode: a.country}
	if a.amount != "" {
		amount, err := api.ParseTokenAmount(a.amount)
		if err != nil {
			return usagef("--amount: %v", err)
		}
		if asked, err = api.BaseUnits(amount.Decimal); err != nil {
			return usagef("--amount: %v", err)
		}
		req.Amount = &amount
	}
	if err := req.Validate(a.allocation); err != nil {
		return typed(err, map[string]string{"id": "allocation id", "sender": "--account", "userCountryCode": "--country", "amount": "--amount"})
	}
	s, info, owner, err := openSafeAct(ctx, e, "claim", a.account, f, a.ks, nil)
	if err != nil {
		return err
	}
	defer owner.lock()
	r, err := s.ProposeClaim(ctx, s.rec, info, owner.address, a.allocation, req, asked, multiSend)
	if err != nil {
		return withDemoAllocations(s, err)
	}
	return e.signProposed(s, r, owner, f, a.tx.yes, a.out)
}
