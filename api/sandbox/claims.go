package sandbox

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// EvmTransactionGroup is the __type of a claim result on an EVM chain (D7).
const EvmTransactionGroup = "EvmTransactionGroupParameters"

type claimResult struct {
	Type       string            `json:"__type"`
	Parameters []claimParameters `json:"parameters"`
}

type claimParameters struct {
	TransactionID string        `json:"transactionId"`
	Instructions  []instruction `json:"instructions"`
}

// instruction is an unsigned EVM call: value in wei, as a decimal string.
type instruction struct {
	ChainID uint64 `json:"chainId"`
	From    string `json:"from"`
	To      string `json:"to"`
	Data    string `json:"data"`
	Value   string `json:"value"`
}

// claim serves allocations/{id}/claim (D7): one transaction calling the
// vester's withdraw for what the sender asks, by default everything
// claimable now. The sender may be anyone, as on the production vester
// (D19): it pays the fee, and the tokens go to the withdrawal address
// (D18) whoever sends the claim. Claimable is what the vester would pay at the
// unlock time (Chain.Now, else the clock): see vesterState.claimable. A
// distribution with a post-claim handler is claimed through it.
func (s *Server) claim(c *call) (any, error) {
	var p problems
	id := c.r.PathValue("id")
	if !isUUID(id) {
		p.add("id", "must be a UUID")
	}
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	sender, _ := o.address("sender", true)
	if code, ok := o.string("userCountryCode", false); ok && !isCountryCode(code) {
		p.add("userCountryCode", "must be an ISO 3166-1 alpha-2 country code, like DE")
	}
	amount, hasAmount := positiveAmount(o, "amount", false)
	if !p.ok() {
		return nil, p.err()
	}
	a, ok := s.world.Allocation(id)
	if !ok {
		return nil, errNotFound("no allocation %s", id)
	}
	now, err := s.unlockTime(c.ctx)
	if err != nil {
		return nil, err
	}
	state, err := s.vesterState(c.ctx, a)
	if err != nil {
		return nil, err
	}
	claimable, why := state.claimable(a, now)
	switch {
	case !hasAmount && claimable.Sign() == 0:
		return nil, errInvalid("amount", withReason("nothing of this allocation is claimable now", why))
	case !hasAmount:
		amount = claimable
	case amount.Cmp(claimable) > 0:
		return nil, errInvalid("amount", withReason(fmt.Sprintf("is more than the %s claimable now", formatUnits(claimable)), why))
	}
	proof, err := a.Proof()
	if err != nil {
		return nil, err
	}
	d := a.distribution
	var data []byte
	if d.Handler != nil {
		data, err = packWithdrawThrough(amount, a.RootIndex, a.DecodableArgs, proof, s.address(d.Handler.ID, d.Handler.Address))
	} else {
		data, err = packWithdraw(amount, a.RootIndex, a.DecodableArgs, proof)
	}
	if err != nil {
		return nil, err
	}
	ids := s.addTransactions(ActionClaim, []Transaction{{
		ContractID:    d.ContractID,
		TokenID:       d.TokenID,
		AllocationIDs: []string{a.ID},
		Amount:        new(big.Int).Set(amount),
	}})
	return claimResult{Type: EvmTransactionGroup, Parameters: []claimParameters{{
		TransactionID: ids[0],
		Instructions: []instruction{{
			ChainID: s.chainID(),
			From:    sender.Hex(),
			To:      s.vesterAddress(d).Hex(),
			Data:    hexutil.Encode(data),
			Value:   d.ClaimFee.String(),
		}},
	}}}, nil
}

// withReason is msg, followed by why when there is one.
func withReason(msg, why string) string {
	if why == "" {
		return msg
	}
	return msg + ": " + why
}

// SetWithdrawn records that total base units of an allocation have been
// withdrawn so far, across all its claims, for a sandbox whose vester is
// not on a chain it reads (with one it reads the vester's schedules(id),
// and the larger of the two totals counts). Totals only grow: a smaller
// total than the one recorded is ignored, so reports may repeat or arrive
// out of order.
func (s *Server) SetWithdrawn(allocationID string, total *big.Int) error {
	a, ok := s.world.Allocation(allocationID)
	if !ok {
		return fmt.Errorf("set withdrawn: no allocation %q", allocationID)
	}
	if total == nil || total.Sign() < 0 {
		return errors.New("set withdrawn: total must be a non-negative amount")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev := s.withdrawn[a.ID]; prev == nil || total.Cmp(prev) > 0 {
		s.withdrawn[a.ID] = new(big.Int).Set(total)
	}
	return nil
}

// countryCodes are the officially assigned ISO 3166-1 alpha-2 codes.
const countryCodes = "" +
	"AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ " +
	"BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ " +
	"DE DJ DK DM DO DZ " +
	"EC EE EG EH ER ES ET " +
	"FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY " +
	"HK HM HN HR HT HU " +
	"ID IE IL IM IN IO IQ IR IS IT " +
	"JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ " +
	"LA LB LC LI LK LR LS LT LU LV LY " +
	"MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ " +
	"NA NC NE NF NG NI NL NO NP NR NU NZ " +
	"OM " +
	"PA PE PF PG PH PK PL PM PN PR PS PT PW PY " +
	"QA " +
	"RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ " +
	"TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ " +
	"UA UG UM US UY UZ " +
	"VA VC VE VG VI VN VU " +
	"WF WS " +
	"YE YT " +
	"ZA ZM ZW"

func isCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && strings.Contains(countryCodes, s)
}
