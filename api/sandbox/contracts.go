package sandbox

type contractJSON struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	Address   string    `json:"address"`
	Balance   string    `json:"balance"`
	CreatedAt timestamp `json:"createdAt"`
}

// listContracts serves contracts: every contract of the token, in one list.
func (s *Server) listContracts(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	tokenID, _ := o.uuid("tokenId", true)
	if !p.ok() {
		return nil, p.err()
	}
	if _, ok := s.world.Token(tokenID); !ok {
		return nil, errNotFound("no token %s", tokenID)
	}
	contracts := s.world.TokenContracts(tokenID)
	result := listResult[contractJSON]{Items: make([]contractJSON, len(contracts)), Total: len(contracts)}
	for i, contract := range contracts {
		// Before the deployment the seed's balance is the one the chain
		// will hold.
		balance := contract.Balance
		if !c.early {
			var err error
			if balance, err = s.balance(c.ctx, contract); err != nil {
				return nil, err
			}
		}
		result.Items[i] = contractJSON{
			ID:        contract.ID,
			Name:      contract.Name,
			Type:      contract.Type,
			Address:   s.address(contract.ID, contract.Address).Hex(),
			Balance:   formatUnits(balance),
			CreatedAt: timestamp(contract.CreatedAt),
		}
	}
	return result, nil
}
