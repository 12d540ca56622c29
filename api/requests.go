package api

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Transaction actions (the tagged union of transaction creation).
const (
	ActionInitialize        = "INITIALIZE"
	ActionStartDistribution = "START_DISTRIBUTION"
	ActionFundDistribution  = "FUND_DISTRIBUTION"
)

// TransactionRequest is one variant of the transaction creation body.
type TransactionRequest interface {
	Action() string
	Validate() error
}

// InitializeRequest initializes a contract.
type InitializeRequest struct {
	ContractID    string `json:"contractId"`
	AdminWalletID string `json:"adminWalletId"`
}

// StartDistributionRequest starts a distribution.
type StartDistributionRequest struct {
	ContractID    string   `json:"contractId"`
	TokenID       string   `json:"tokenId"`
	AllocationIDs []string `json:"allocationIds"`
	AdminWalletID *string  `json:"adminWalletId,omitempty"`
	Memo          *string  `json:"memo,omitempty"`
}

// FundItem funds one allocation.
type FundItem struct {
	AllocationID string `json:"allocationId"`
	Amount       Number `json:"amount"`
}

// FundDistributionRequest funds allocations directly.
type FundDistributionRequest struct {
	TokenID string     `json:"tokenId"`
	Data    []FundItem `json:"data"`
	IsTest  *bool      `json:"isTest,omitempty"`
}

// NewTransactionRequest returns an empty request of action to decode a
// body into, or nil for an action there is none of.
func NewTransactionRequest(action string) TransactionRequest {
	switch action {
	case ActionInitialize:
		return &InitializeRequest{}
	case ActionStartDistribution:
		return &StartDistributionRequest{}
	case ActionFundDistribution:
		return &FundDistributionRequest{}
	}
	return nil
}

// Action implements TransactionRequest.
func (*InitializeRequest) Action() string { return ActionInitialize }

// Action implements TransactionRequest.
func (*StartDistributionRequest) Action() string { return ActionStartDistribution }

// Action implements TransactionRequest.
func (*FundDistributionRequest) Action() string { return ActionFundDistribution }

// withAction writes v's fields with the union's tag in front.
func withAction(action string, v any) ([]byte, error) {
	fields, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	tag := fmt.Sprintf(`{"action":%q`, action)
	if string(fields) == "{}" {
		return []byte(tag + "}"), nil
	}
	return append([]byte(tag+","), fields[1:]...), nil
}

// The aliases drop the methods, so that marshalling does not recurse.
type (
	initializeFields InitializeRequest
	startFields      StartDistributionRequest
	fundFields       FundDistributionRequest
)

// MarshalJSON writes the body with its action.
func (r *InitializeRequest) MarshalJSON() ([]byte, error) {
	return withAction(ActionInitialize, (*initializeFields)(r))
}

// MarshalJSON writes the body with its action.
func (r *StartDistributionRequest) MarshalJSON() ([]byte, error) {
	return withAction(ActionStartDistribution, (*startFields)(r))
}

// MarshalJSON writes the body with its action.
func (r *FundDistributionRequest) MarshalJSON() ([]byte, error) {
	return withAction(ActionFundDistribution, (*fundFields)(r))
}

// UnmarshalJSON reads a body that may carry its action.
func (r *InitializeRequest) UnmarshalJSON(data []byte) error {
	return unmarshalWithAction(data, ActionInitialize, (*initializeFields)(r))
}

// UnmarshalJSON reads a body that may carry its action.
func (r *StartDistributionRequest) UnmarshalJSON(data []byte) error {
	return unmarshalWithAction(data, ActionStartDistribution, (*startFields)(r))
}

// UnmarshalJSON reads a body that may carry its action.
func (r *FundDistributionRequest) UnmarshalJSON(data []byte) error {
	return unmarshalWithAction(data, ActionFundDistribution, (*fundFields)(r))
}

// unmarshalWithAction reads a request body that may carry its action (a body
// file written by hand): the action must match, every other field must be
// known, so that a misspelt field is not silently dropped from a write.
func unmarshalWithAction(data []byte, action string, fields any) error {
	var tag struct {
		Action *string `json:"action"`
	}
	if err := json.Unmarshal(data, &tag); err != nil {
		return err
	}
	if tag.Action != nil && *tag.Action != action {
		return fmt.Errorf("action is %q, expected %s", *tag.Action, action)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	delete(raw, "action")
	rest, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	return dec.Decode(fields)
}

// ScheduleRequest creates an unlock schedule (D6).
type ScheduleRequest struct {
	TokenID       string          `json:"tokenId"`
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	UnlockAtStart Number          `json:"unlockAtStart"`
	Cliff         CliffRequest    `json:"cliff"`
	RoundingMode  string          `json:"roundingMode"`
	Pieces        []SchedulePiece `json:"pieces"`
}

// CliffRequest is the cliff of a new schedule: Value is a fraction,
// Duration counts months (D6).
type CliffRequest struct {
	Value    Number `json:"value"`
	Duration Number `json:"duration"`
}

// ValueOf is the `{value: number}` object of schedule pieces.
type ValueOf struct {
	Value Number `json:"value"`
}

// SchedulePiece is one piece of a new schedule: exactly one of OneOff and
// Periodic is set.
type SchedulePiece struct {
	Name       string      `json:"name"`
	Portion    Number      `json:"portion"`
	StartDelay ValueOf     `json:"startDelay"`
	OneOff     *OneOffConf `json:"oneOffPieceConfiguration,omitempty"`
	Periodic   *PeriodConf `json:"periodicPieceConfiguration,omitempty"`
}

// OneOffConf unlocks a piece at once, Offset months after its start.
type OneOffConf struct {
	Offset     ValueOf `json:"offset"`
	DayOfMonth int     `json:"dayOfMonth"`
}

// PeriodConf unlocks a piece over Length months, every Frequency months.
type PeriodConf struct {
	Length     ValueOf `json:"length"`
	Frequency  ValueOf `json:"frequency"`
	DayOfMonth int     `json:"dayOfMonth"`
}

// StakesRequest lists the stakes of a pool, optionally of one wallet.
type StakesRequest struct {
	StakingPoolID string `json:"stakingPoolId"`
	WalletAddress string `json:"walletAddress,omitempty"`
}

// UploadURLRequest asks where to upload a creative (D12).
type UploadURLRequest struct {
	FileName    string `json:"fileName"`
	ContentType string `json:"contentType"`
	PortalSlug  string `json:"portalSlug"`
}

// CreateCreativeRequest registers an uploaded creative.
type CreateCreativeRequest struct {
	StorageKey string `json:"storageKey"`
	Name       string `json:"name"`
}

// ClaimRequest builds the claim of an allocation (D7).
type ClaimRequest struct {
	Sender          string  `json:"sender"`
	UserCountryCode string  `json:"userCountryCode,omitempty"`
	Amount          *Number `json:"amount,omitempty"`
}
