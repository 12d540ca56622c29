package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// List is a list result: `{items, total}`.
type List[T any] struct {
	Items Items[T] `json:"items"`
	Total int      `json:"total"`
}

// MaxListItems bounds the items of one list held as values: a 64 MiB
// answer of empty objects ({},{},… 20 million of them) cannot become
// gigabytes of structs, and Stakes holds at most this many Stake values
// (StreamStakes, in compact rows, up to MaxStakeRows).
const MaxListItems = 250_000

// Items is the items of a list. It decodes them one at a time and stops
// past MaxListItems.
type Items[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (s *Items[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*s = nil
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errors.New("items is not a list")
	}
	var out Items[T]
	for dec.More() {
		if len(out) == MaxListItems {
			return fmt.Errorf("more than %d items in a list", MaxListItems)
		}
		var item T
		if err := dec.Decode(&item); err != nil {
			return err
		}
		out = append(out, item)
	}
	*s = out
	return nil
}

// Contract is a distribution contract of a token.
type Contract struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	Address   string  `json:"address"`
	Balance   Decimal `json:"balance"`
	CreatedAt Time    `json:"createdAt"`
}

// Pool is a staking pool. Durations are seconds in the embedded sandbox; the
// interface leaves their unit open.
type Pool struct {
	ID                    string  `json:"id"`
	Name                  string  `json:"name"`
	TokenID               string  `json:"tokenId"`
	ContractID            string  `json:"contractId"`
	Status                string  `json:"status"`
	TotalStaked           Decimal `json:"totalStaked"`
	TotalRewardsDeposited Decimal `json:"totalRewardsDeposited"`
	PeriodFinish          Time    `json:"periodFinish"`
	MinimumStakeAmount    Decimal `json:"minimumStakeAmount"`
	MinimumStakeLength    int64   `json:"minimumStakeLength"`
	StakeWithdrawalDelay  int64   `json:"stakeWithdrawalDelay"`
	RewardWithdrawalDelay int64   `json:"rewardWithdrawalDelay"`
	MaxAPY                Decimal `json:"maxApy"`
	ClaimNativeTokenFee   Decimal `json:"claimNativeTokenFee"`
	UnstakeNativeTokenFee Decimal `json:"unstakeNativeTokenFee"`
}

// PoolPage is one page of pools, with the cursor the service gave for the
// next page, if any (D4).
type PoolPage struct {
	List[Pool]
	NextCursor string `json:"nextCursor,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
}

// Stake is one stake in a pool.
type Stake struct {
	ID            string  `json:"id"`
	Amount        Decimal `json:"amount"`
	Status        string  `json:"status"`
	CreatedAt     Time    `json:"createdAt"`
	WalletAddress string  `json:"walletAddress"`
}

// MerkleProof is the proof of an allocation (D8).
type MerkleProof struct {
	ID             string          `json:"id"`
	DecodableArgs  string          `json:"decodableArgs"`
	Hash           *string         `json:"hash"`
	WalletAddress  string          `json:"walletAddress"`
	Proof          []string        `json:"proof"`
	Input          json.RawMessage `json:"input"`
	MerkleTreeID   string          `json:"merkleTreeId"`
	DistributionID string          `json:"distributionId"`
	RootIndex      uint32          `json:"rootIndex"`
	CreatedAt      Time            `json:"createdAt"`
	UpdatedAt      Time            `json:"updatedAt"`
}

// Transaction is a transaction the service created.
type Transaction struct {
	TransactionID string `json:"transactionId"`
	Status        string `json:"status"`
}

// TransactionsResult is the result of transaction creation (D5).
type TransactionsResult struct {
	Transactions []Transaction `json:"transactions"`
}

// Cliff of a schedule.
type Cliff struct {
	Value    Number `json:"value"`
	Duration Number `json:"duration"`
	Period   string `json:"period,omitempty"`
}

// Schedule is a created unlock schedule.
type Schedule struct {
	ID            string  `json:"id"`
	Key           string  `json:"key"`
	Name          string  `json:"name"`
	Description   *string `json:"description"`
	UnlockAtStart *Number `json:"unlockAtStart"`
	Cliff         Cliff   `json:"cliff"`
	RoundingMode  string  `json:"roundingMode"`
	CreatedAt     Time    `json:"createdAt"`
}

// UploadURL is where a creative's bytes go.
type UploadURL struct {
	UploadURL  string `json:"uploadUrl"`
	StorageKey string `json:"storageKey"`
	PublicURL  string `json:"publicUrl"`
}

// Creative is a registered portal asset.
type Creative struct {
	ID         string `json:"id"`
	StorageKey string `json:"storageKey"`
	PublicURL  string `json:"publicUrl"`
}

// ClaimResult holds the unsigned claim transactions of an allocation (D7).
type ClaimResult struct {
	Type       string       `json:"__type"`
	Parameters []ClaimGroup `json:"parameters"`
}

// ClaimGroup is one service transaction and the chain calls it needs.
type ClaimGroup struct {
	TransactionID string        `json:"transactionId"`
	Instructions  []Instruction `json:"instructions"`
}

// Instruction is one instruction of a claim, kept as it came: an EVM call
// is recognised by its shape (EVM), anything else is shown raw.
type Instruction struct {
	Raw json.RawMessage
}

// UnmarshalJSON implements json.Unmarshaler.
func (i *Instruction) UnmarshalJSON(data []byte) error {
	i.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (i Instruction) MarshalJSON() ([]byte, error) {
	if len(i.Raw) == 0 {
		return []byte("null"), nil
	}
	return i.Raw, nil
}

// EVMInstruction is an EVM call to sign (D7).
type EVMInstruction struct {
	ChainID uint64 `json:"chainId"`
	From    string `json:"from"`
	To      string `json:"to"`
	Data    string `json:"data"`
	Value   string `json:"value"` // wei, a decimal string
}

// maxWeiDigits bounds a wei value: a uint256 has at most 78 digits.
const maxWeiDigits = 78

// EVM returns the instruction as an EVM call when it has that shape: a `to`
// address, hex `data`, a chain id and a wei value (a whole number, as a
// decimal string, that fits 256 bits' digits).
func (i Instruction) EVM() (EVMInstruction, bool) {
	var e EVMInstruction
	if err := json.Unmarshal(i.Raw, &e); err != nil {
		return EVMInstruction{}, false
	}
	if !isAddress(e.To) || !strings.HasPrefix(e.Data, "0x") || !isHex(e.Data[2:]) || e.ChainID == 0 {
		return EVMInstruction{}, false
	}
	if e.Value == "" {
		e.Value = "0"
	}
	if len(e.Value) > maxWeiDigits || !allDigits(e.Value) {
		return EVMInstruction{}, false
	}
	return e, true
}

// SignInResult is a portal session (D9).
type SignInResult struct {
	AccessToken string `json:"accessToken"`
	Expiration  Time   `json:"expiration"`
}

// String hides the token, so that printing a result cannot leak it.
func (s SignInResult) String() string {
	return "access token (hidden), expires " + FormatTime(s.Expiration)
}

// HumanityResult says whether a wallet passed proof of humanity.
type HumanityResult struct {
	Verified bool `json:"verified"`
}

// SubmissionAccount is an account of a portal submission.
type SubmissionAccount struct {
	Value       string  `json:"value"`
	Type        string  `json:"type"`
	IsEligible  bool    `json:"isEligible"`
	Description *string `json:"description"`
}

// SubmissionAccounts is the submission of the signed-in wallet.
type SubmissionAccounts struct {
	ClaimWallet *string             `json:"claimWallet"`
	Submitted   bool                `json:"submitted"`
	PohPassed   bool                `json:"pohPassed"`
	Accounts    []SubmissionAccount `json:"accounts"`
}

// StakeParameters is the unsigned stake call (D11).
type StakeParameters struct {
	StakeID     string  `json:"stakeId"`
	From        string  `json:"from"`
	To          string  `json:"to"`
	Data        string  `json:"data"`
	PlatformFee Decimal `json:"platformFee"` // ether; the transaction's value
}
