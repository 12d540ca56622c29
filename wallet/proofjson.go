package wallet

import (
	"encoding/json"
	"errors"
	"math/big"
	"time"

	"allot/internal/isotime"
	"allot/internal/sanitize"
	"allot/wallet/vesting"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

type verificationJSON struct {
	Proof        json.RawMessage `json:"proof"`
	Outcome      CheckState      `json:"outcome"`
	Checks       checksJSON      `json:"checks"`
	LeafOK       bool            `json:"leafOk"`
	ComputedRoot common.Hash     `json:"computedRoot"`
	OnChainRoot  *common.Hash    `json:"onChainRoot"`
	OnChainOK    *bool           `json:"onChainOk"`
	Vester       *Checksummed    `json:"vester"`
	// State is "active", "cancelled" or "revoked" (D18); Transferred:
	// the tokens go to another address than the leaf's beneficiary;
	// Underfunded: the vester holds less than is owed.
	State       *string      `json:"state"`
	Transferred *bool        `json:"transferred"`
	Underfunded *bool        `json:"underfunded"`
	Withdrawn   *string      `json:"withdrawn"`
	Recipient   *Checksummed `json:"recipient"`
	CancelledAt *string      `json:"cancelledAt"`
	Revoked     *bool        `json:"revoked"`
	// Vested is what the vester counts as vested: at the cancel time of a
	// cancelled allocation, nothing of a revoked one; Unlocked is the
	// leaf's schedule alone.
	Vested *string `json:"vested"`
	// DirectClaim: the vester pays a claim to the recipient itself;
	// PostClaimHandlers are the contracts it may pay instead (D18).
	DirectClaim        *bool           `json:"directClaim"`
	PostClaimHandlers  []Checksummed   `json:"postClaimHandlers"`
	VesterBalance      *string         `json:"vesterBalance"`
	Claimable          *string         `json:"claimable"`
	ClaimableBaseUnits *string         `json:"claimableBaseUnits"`
	Allocation         *allocationJSON `json:"allocation"`
	Schedule           *scheduleJSON   `json:"schedule"`
	Unlocked           *amountJSON     `json:"unlocked"`
	Unclaimable        string          `json:"unclaimable,omitempty"`
}

type checksJSON struct {
	Leaf     checkJSON `json:"leaf"`
	Root     checkJSON `json:"onChainRoot"`
	Schedule checkJSON `json:"schedule"`
	State    checkJSON `json:"onChainState"`
}

type checkJSON struct {
	State  CheckState `json:"state"`
	Reason string     `json:"reason,omitempty"`
}

func newCheckJSON(c Check) checkJSON { return checkJSON{c.State, sanitize.Line(c.Reason)} }

type allocationJSON struct {
	ID                        string `json:"id"`
	Beneficiary               string `json:"beneficiary"`
	Total                     string `json:"total"`
	TotalBaseUnits            string `json:"totalBaseUnits"`
	Cancelable                bool   `json:"cancelable"`
	Revokable                 bool   `json:"revokable"`
	TransferableByAdmin       bool   `json:"transferableByAdmin"`
	TransferableByBeneficiary bool   `json:"transferableByBeneficiary"`
}

type scheduleJSON struct {
	Kind             string         `json:"kind"`
	UnlockScheduleID string         `json:"unlockScheduleId"`
	Valid            bool           `json:"valid"`
	Problem          string         `json:"problem,omitempty"`
	Unlocks          []unlockJSON   `json:"unlocks,omitempty"`
	Pieces           []pieceJSON    `json:"pieces,omitempty"`
	Timeline         []timelineJSON `json:"timeline"`
}

type unlockJSON struct {
	At       string `json:"at"`
	Fraction string `json:"fraction"`
}

type pieceJSON struct {
	Start               string `json:"start"`
	PeriodLengthSeconds uint32 `json:"periodLengthSeconds"`
	NumberOfPeriods     uint32 `json:"numberOfPeriods"`
	Fraction            string `json:"fraction"`
}

type timelineJSON struct {
	At       string `json:"at"`
	Fraction string `json:"fraction"`
	Amount   string `json:"amount"`
}

type amountJSON struct {
	Fraction string `json:"fraction"`
	Amount   string `json:"amount"`
}

// MarshalJSON writes the verification as `allot proof --verify -o json`
// prints it:
//
//	{"proof": RESULT, "outcome": STATE,
//	 "checks": {"leaf": CHECK, "onChainRoot": CHECK, "schedule": CHECK},
//	 "leafOk": bool, "computedRoot": HEX, "onChainRoot": HEX|null,
//	 "onChainOk": bool|null, "vester": ADDR|null,
//	 "state": "active"|"cancelled"|"revoked"|null,
//	 "transferred": bool|null, "underfunded": bool|null,
//	 "withdrawn": DECIMAL|null, "recipient": ADDR|null,
//	 "cancelledAt": TIME|null, "revoked": bool|null, "vested": DECIMAL|null,
//	 "vesterBalance": DECIMAL|null, "claimable": DECIMAL|null,
//	 "claimableBaseUnits": INTEGER|null, "directClaim": bool|null,
//	 "postClaimHandlers": [ADDR]|null,
//	 "allocation": {...}, "schedule": {...},
//	 "unlocked": {"fraction": DECIMAL, "amount": DECIMAL}, "unclaimable": TEXT}
//
// STATE is "PASS", "FAIL" or "NOT CHECKED"; a CHECK is {"state": STATE,
// "reason": TEXT}, the reason absent on a pass; checks has a fourth,
// "onChainState": the allocation's record on the vester was read (D18).
// onChainOk is null when the root was not checked. state to claimable are
// null when that record was not read; claimable is what a withdraw(0)
// pays now (vested at the cancel time, or nothing when revoked, less what
// was withdrawn, at most the vester's balance), null too when the vester
// cannot compute it. directClaim is false when the vester pays claims only
// to the postClaimHandlers contracts. unlocked is the leaf's schedule
// alone. Amounts are decimals in token units, fractions
// decimals of 1, times ISO 8601 UTC; allocation, schedule and unlocked are
// null when decodableArgs do not decode. When the production vester cannot
// pay the leaf out now, unlocked is null and unclaimable says until when.
func (v *Verification) MarshalJSON() ([]byte, error) {
	if v == nil || v.Proof == nil {
		return nil, errors.New("marshal verification: no proof")
	}
	out := verificationJSON{
		Proof:   v.Proof.Source,
		Outcome: v.Outcome(),
		Checks: checksJSON{
			Leaf:     newCheckJSON(v.LeafCheck),
			Root:     newCheckJSON(v.RootCheck),
			Schedule: newCheckJSON(v.ScheduleCheck),
			State:    newCheckJSON(v.StateCheck),
		},
		LeafOK:       v.LeafCheck.State == Pass,
		ComputedRoot: v.ComputedRoot,
		OnChainRoot:  v.OnChainRoot,
	}
	if v.RootCheck.State != NotChecked {
		ok := v.RootCheck.State == Pass
		out.OnChainOK = &ok
	}
	if v.Vester != (common.Address{}) {
		vester := Checksummed(v.Vester)
		out.Vester = &vester
	}
	out.addStanding(v)
	if len(out.Proof) == 0 {
		out.Proof = json.RawMessage("null")
	}
	if a := v.Args; a != nil {
		out.Allocation = newAllocationJSON(a.Allocation)
		out.Schedule = newScheduleJSON(a, v.ScheduleErr, v.Timeline)
		if v.Unclaimable != nil {
			out.Unclaimable = v.Unclaimable.Error()
		} else {
			out.Unlocked = &amountJSON{Fraction: formatPPM(v.UnlockedPPM), Amount: FormatUnits(v.Unlocked)}
		}
	}
	return json.Marshal(out)
}

// addStanding writes the allocation's record on the vester and what a
// claim pays; all null when it was not read.
func (out *verificationJSON) addStanding(v *Verification) {
	s := v.Standing
	if s == nil || v.Args == nil {
		return
	}
	units := func(x *big.Int) *string { u := FormatUnits(x); return &u }
	beneficiary := v.Args.Allocation.OriginalBeneficiary
	recipient, revoked := Checksummed(s.Recipient(beneficiary)), s.Revoked()
	state, transferred := s.State(), s.Transferred(beneficiary)
	underfunded := v.Payout.Unclaimable == nil && v.Payout.Underfunded()
	out.State, out.Transferred, out.Underfunded = &state, &transferred, &underfunded
	out.Withdrawn, out.Recipient, out.Revoked = units(s.Withdrawn), &recipient, &revoked
	if at, ok := s.CancelledAt(); ok {
		t := isotime.Format(at)
		out.CancelledAt = &t
	}
	out.VesterBalance = units(s.VesterBalance)
	direct := s.DirectClaim()
	out.DirectClaim, out.PostClaimHandlers = &direct, []Checksummed{}
	for _, h := range s.ViaHandlers() {
		out.PostClaimHandlers = append(out.PostClaimHandlers, Checksummed(h))
	}
	if c := v.Claimable(); c != nil {
		base := c.String()
		out.Vested, out.Claimable, out.ClaimableBaseUnits = units(v.Payout.Vested), units(c), &base
	}
}

func newAllocationJSON(a vesting.Allocation) *allocationJSON {
	return &allocationJSON{
		ID:                        sanitize.Line(a.ID),
		Beneficiary:               a.OriginalBeneficiary.Hex(),
		Total:                     FormatUnits(a.TotalAllocation),
		TotalBaseUnits:            bigString(a.TotalAllocation),
		Cancelable:                a.Cancelable,
		Revokable:                 a.Revokable,
		TransferableByAdmin:       a.TransferableByAdmin,
		TransferableByBeneficiary: a.TransferableByBeneficiary,
	}
}

func newScheduleJSON(a *vesting.Args, problem error, timeline []vesting.Point) *scheduleJSON {
	s := a.Schedule
	out := &scheduleJSON{
		Kind:             s.Kind,
		UnlockScheduleID: sanitize.Line(s.UnlockScheduleID),
		Valid:            problem == nil,
		Timeline:         make([]timelineJSON, len(timeline)),
	}
	if problem != nil {
		out.Problem = sanitize.Line(problem.Error())
	}
	for i, ts := range s.UnlockTimestamps {
		u := unlockJSON{At: formatUnix(ts)}
		if i < len(s.UnlockPercents) {
			u.Fraction = formatPPMBig(s.UnlockPercents[i])
		}
		out.Unlocks = append(out.Unlocks, u)
	}
	for _, p := range s.Pieces {
		out.Pieces = append(out.Pieces, pieceJSON{
			Start:               formatUnix(p.StartDate),
			PeriodLengthSeconds: p.PeriodLength,
			NumberOfPeriods:     p.NumberOfPeriods,
			Fraction:            formatPPM(uint64(p.Percent)),
		})
	}
	for i, p := range timeline {
		out.Timeline[i] = timelineJSON{
			At:       isotime.Format(p.At),
			Fraction: formatPPM(p.PPM),
			Amount:   FormatUnits(a.Unlocked(p.At)),
		}
	}
	return out
}

// formatPPM writes millionths as an exact decimal fraction of 1: 250000 ->
// "0.25".
func formatPPM(ppm uint64) string {
	return decimal.NewFromBigInt(new(big.Int).SetUint64(ppm), -6).String()
}

func formatPPMBig(ppm *big.Int) string {
	if ppm == nil {
		return "0"
	}
	return decimal.NewFromBigInt(ppm, -6).String()
}

func formatUnix(ts uint32) string {
	return isotime.Format(time.Unix(int64(ts), 0))
}

func bigString(x *big.Int) string {
	if x == nil {
		return "0"
	}
	return x.String()
}
