package sandbox

import (
	"crypto/sha1"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"allot/internal/isotime"
)

// PoolPageSize is the most pools a page holds (D4).
const PoolPageSize = 50

type poolJSON struct {
	ID                    string    `json:"id"`
	Name                  string    `json:"name"`
	TokenID               string    `json:"tokenId"`
	ContractID            string    `json:"contractId"`
	Status                string    `json:"status"`
	TotalStaked           string    `json:"totalStaked"`
	TotalRewardsDeposited string    `json:"totalRewardsDeposited"`
	PeriodFinish          timestamp `json:"periodFinish"`
	MinimumStakeAmount    string    `json:"minimumStakeAmount"`
	MinimumStakeLength    int64     `json:"minimumStakeLength"`
	StakeWithdrawalDelay  int64     `json:"stakeWithdrawalDelay"`
	RewardWithdrawalDelay int64     `json:"rewardWithdrawalDelay"`
	MaxAPY                string    `json:"maxApy"`
	ClaimNativeTokenFee   string    `json:"claimNativeTokenFee"`
	UnstakeNativeTokenFee string    `json:"unstakeNativeTokenFee"`
}

type listResult[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
}

// listPools serves staking/pools: pages of PoolPageSize pools in list
// order; the cursor is the id of the previous page's last pool (D4), and
// total counts all the token's pools.
func (s *Server) listPools(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	tokenID, _ := o.uuid("tokenId", true)
	cursor, _ := o.string("cursor", false)
	if cursor != "" && !isUUID(cursor) {
		p.add("cursor", "must be the id of the last pool of the previous page")
	}
	if !p.ok() {
		return nil, p.err()
	}
	if _, ok := s.world.Token(tokenID); !ok {
		return nil, errNotFound("no token %s", tokenID)
	}
	// Before the deployment no stake is on the chain to follow.
	if !c.early {
		if err := s.catchUp(c.ctx); err != nil {
			return nil, err
		}
	}
	pools := s.world.TokenPools(tokenID)
	from := 0
	if cursor != "" {
		i := slices.IndexFunc(pools, func(p *Pool) bool { return p.ID == normalizeID(cursor) })
		if i < 0 {
			return nil, errInvalid("cursor", "is not a pool of this token")
		}
		from = i + 1
	}
	page := pools[from:min(from+PoolPageSize, len(pools))]
	result := listResult[poolJSON]{Items: make([]poolJSON, len(page)), Total: len(pools)}
	for i, pool := range page {
		result.Items[i] = poolJSON{
			ID:                    pool.ID,
			Name:                  pool.Name,
			TokenID:               pool.TokenID,
			ContractID:            pool.ContractID,
			Status:                pool.Status,
			TotalStaked:           formatUnits(s.totalStaked(pool)),
			TotalRewardsDeposited: formatUnits(pool.TotalRewardsDeposited),
			PeriodFinish:          timestamp(pool.PeriodFinish),
			MinimumStakeAmount:    formatUnits(pool.MinimumStakeAmount),
			MinimumStakeLength:    pool.MinimumStakeLength,
			StakeWithdrawalDelay:  pool.StakeWithdrawalDelay,
			RewardWithdrawalDelay: pool.RewardWithdrawalDelay,
			MaxAPY:                pool.MaxAPY,
			ClaimNativeTokenFee:   formatUnits(pool.ClaimNativeTokenFee),
			UnstakeNativeTokenFee: formatUnits(pool.UnstakeNativeTokenFee),
		}
	}
	return result, nil
}

// listStakes serves staking/stakes: every stake of the pool in one response
// (D4), or those of one wallet; the seeded stakes first, then those made on
// the chain.
func (s *Server) listStakes(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	poolID, _ := o.uuid("stakingPoolId", true)
	wallet, filtered := o.address("walletAddress", false)
	if !p.ok() {
		return nil, p.err()
	}
	pool, ok := s.world.Pool(poolID)
	if !ok {
		return nil, errNotFound("no staking pool %s", poolID)
	}
	if err := s.catchUp(c.ctx); err != nil {
		return nil, err
	}
	onChain := s.chainStakes(pool.ID)
	if !filtered {
		pool.listing.once.Do(func() { pool.listing.items = s.world.renderStakes(pool, -1) })
		return stakesBody(pool.listing.items, onChain), nil
	}
	onChain = slices.DeleteFunc(onChain, func(st chainStake) bool { return st.staker != wallet })
	staker, ok := s.world.stakerIndex[wallet]
	if !ok {
		// A wallet that holds no seeded stake: only the chain's, if any.
		return stakesBody(stakeItems{}, onChain), nil
	}
	return stakesBody(s.world.renderStakes(pool, int(staker)), onChain), nil
}

// stakeItems are the items of a listing, rendered: the stakes' JSON
// objects, comma-separated, and how many they are.
type stakeItems struct {
	json []byte
	n    int
}

// stakesBody is the response listing items and then extra. The total
// comes before the items (a JSON object's keys have no order), so that a
// client that streams the body can say "N of M" from the first rows. It
// returns the body's parts: the items as they are, not copied, between a
// head and a tail made for this response.
func stakesBody(items stakeItems, extra []chainStake) rawResult {
	head := []byte(`{"isProcessed":true,"result":{"total":`)
	head = strconv.AppendInt(head, int64(items.n+len(extra)), 10)
	head = append(head, `,"items":[`...)
	tail := make([]byte, 0, len(extra)*200+3)
	for i, st := range extra {
		if items.n > 0 || i > 0 {
			tail = append(tail, ',')
		}
		tail = appendStake(tail, []byte(st.id), []byte(formatUnits(st.amount)), StakeStaked, st.at, st.staker.Hex())
	}
	return rawResult{head, items.json, append(tail, "]}}"...)}
}

// renderStakes writes the items listing the pool's stakes, or only those
// of stakers[staker] when staker >= 0. It writes JSON by hand: encoding/json
// would take several times longer over 100,000 stakes.
func (w *World) renderStakes(p *Pool, staker int) stakeItems {
	size := 0
	if staker < 0 {
		size = len(p.stakes) * 200
	}
	buf := make([]byte, 0, size)
	ids := newStakeIDs(p)
	var id [36]byte
	var amount [24]byte // a uint64's 20 digits, a point and two more
	n := 0
	for i, st := range p.stakes {
		if staker >= 0 && int(st.staker) != staker {
			continue
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = appendStake(buf, ids.append(id[:0], i), appendCents(amount[:0], st.cents), stakeStatuses[st.status],
			time.Unix(int64(st.at), 0).UTC(), w.stakers[st.staker].hex)
	}
	return stakeItems{json: buf, n: n}
}

// appendStake writes one stake's JSON object: the one layout of a listed
// stake, seeded or made on the chain.
func appendStake(buf, id, amount []byte, status string, at time.Time, wallet string) []byte {
	buf = append(buf, `{"id":"`...)
	buf = append(buf, id...)
	buf = append(buf, `","amount":"`...)
	buf = append(buf, amount...)
	buf = append(buf, `","status":"`...)
	buf = append(buf, status...)
	buf = append(buf, `","createdAt":"`...)
	buf = isotime.Append(buf, at)
	buf = append(buf, `","walletAddress":"`...)
	buf = append(buf, wallet...)
	return append(buf, `"}`...)
}

// stakeIDs derives the ids of a pool's stakes: the version 5 UUID of
// "POOL/stake/N" in the seed namespace, as seedID would, without allocating
// per stake.
type stakeIDs struct {
	h      hash.Hash
	prefix []byte
	name   []byte
	sum    []byte
	text   [36]byte
}

func newStakeIDs(p *Pool) *stakeIDs {
	return &stakeIDs{h: sha1.New(), prefix: []byte(p.ID + "/stake/"), sum: make([]byte, 0, sha1.Size)}
}

// append writes the id of stake number i to buf.
func (s *stakeIDs) append(buf []byte, i int) []byte {
	s.name = strconv.AppendInt(append(s.name[:0], s.prefix...), int64(i), 10)
	s.h.Reset()
	s.h.Write(namespace[:])
	s.h.Write(s.name)
	s.sum = s.h.Sum(s.sum[:0])
	var u uuid.UUID
	copy(u[:], s.sum)
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	hex.Encode(s.text[0:8], u[0:4])
	hex.Encode(s.text[9:13], u[4:6])
	hex.Encode(s.text[14:18], u[6:8])
	hex.Encode(s.text[19:23], u[8:10])
	hex.Encode(s.text[24:36], u[10:16])
	s.text[8], s.text[13], s.text[18], s.text[23] = '-', '-', '-', '-'
	return append(buf, s.text[:]...)
}

// appendCents writes hundredths as a decimal without trailing zeros.
func appendCents(buf []byte, cents uint64) []byte {
	buf = strconv.AppendUint(buf, cents/100, 10)
	switch frac := cents % 100; {
	case frac == 0:
	case frac%10 == 0:
		buf = append(buf, '.', byte('0'+frac/10))
	default:
		buf = append(buf, '.', byte('0'+frac/10), byte('0'+frac%10))
	}
	return buf
}
