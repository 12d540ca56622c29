// Package vesting encodes and decodes the allocation and unlock schedule that
// a merkle leaf commits to (docs/deployment.md D8), and computes what a schedule has
// unlocked at a given time.
//
// The leaf's preimage, decodableArgs, is
//
//	abi.encode(string allocationType, Allocation, Schedule)
//
// where the Schedule's layout depends on allocationType ("calendar" or
// "interval"). Args.Vested computes what the production vester pays out
// (docs/deployment.md D16); the sandbox's assets/contracts/Vester.sol runs the
// same math on chain, and the two must agree to the wei.
package vesting

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// Allocation types, the first member of decodableArgs.
const (
	Calendar = "calendar"
	Interval = "interval"
)

// PercentScale is 100% in the unit of schedule percents: millionths.
const PercentScale = 1_000_000

// MaxArgsSize bounds decodableArgs accepted by Decode. A calendar schedule of
// a thousand unlocks is about 64 KiB; anything much larger is not a leaf.
const MaxArgsSize = 256 << 10

// Allocation is the allocation record committed to by a leaf.
type Allocation struct {
	ID                        string
	OriginalBeneficiary       common.Address
	TotalAllocation           *big.Int // token base units (18 decimals)
	Cancelable                bool
	Revokable                 bool
	TransferableByAdmin       bool
	TransferableByBeneficiary bool
}

// Piece is one linear part of an interval schedule: Percent (millionths)
// unlocks in NumberOfPeriods equal steps, one at the end of each period of
// PeriodLength seconds counted from StartDate. A one-off unlock is one
// period of at least one second: the production vester divides by
// PeriodLength, so a piece with PeriodLength 0 cannot be claimed from its
// start until the schedule ends (Schedule.Unclaimable).
type Piece struct {
	StartDate       uint32
	PeriodLength    uint32
	NumberOfPeriods uint32
	Percent         uint32
}

// Schedule is a calendar or an interval unlock schedule. Kind selects which
// fields are meaningful.
type Schedule struct {
	Kind             string // Calendar or Interval
	UnlockScheduleID string

	// Calendar: UnlockPercents[i] millionths unlock at UnlockTimestamps[i].
	UnlockTimestamps []uint32
	UnlockPercents   []*big.Int

	// Interval.
	Pieces []Piece
}

// Args is the decoded content of decodableArgs.
type Args struct {
	Allocation Allocation
	Schedule   Schedule
}

// ErrMalformed is wrapped by every Decode error.
var ErrMalformed = errors.New("malformed decodableArgs")

var (
	stringArgs = mustArguments(mustType("string", nil))

	allocationType = mustType("tuple", []abi.ArgumentMarshaling{
		{Name: "id", Type: "string"},
		{Name: "originalBeneficiary", Type: "address"},
		{Name: "totalAllocation", Type: "uint256"},
		{Name: "cancelable", Type: "bool"},
		{Name: "revokable", Type: "bool"},
		{Name: "transferableByAdmin", Type: "bool"},
		{Name: "transferableByBeneficiary", Type: "bool"},
	})
	calendarType = mustType("tuple", []abi.ArgumentMarshaling{
		{Name: "unlockScheduleId", Type: "string"},
		{Name: "unlockTimestamps", Type: "uint32[]"},
		{Name: "unlockPercents", Type: "uint256[]"},
	})
	intervalType = mustType("tuple", []abi.ArgumentMarshaling{
		{Name: "unlockScheduleId", Type: "string"},
		{Name: "pieces", Type: "tuple[]", Components: []abi.ArgumentMarshaling{
			{Name: "startDate", Type: "uint32"},
			{Name: "periodLength", Type: "uint32"},
			{Name: "numberOfPeriods", Type: "uint32"},
			{Name: "percent", Type: "uint32"},
		}},
	})
	calendarArgs = mustArguments(mustType("string", nil), allocationType, calendarType)
	intervalArgs = mustArguments(mustType("string", nil), allocationType, intervalType)
)

// The ABI encoder fills anonymous structs by field name (abi.ToCamelCase of
// the component name), so these mirror the tuple components exactly.
type abiAllocation struct {
	Id                        string
	OriginalBeneficiary       common.Address
	TotalAllocation           *big.Int
	Cancelable                bool
	Revokable                 bool
	TransferableByAdmin       bool
	TransferableByBeneficiary bool
}

type abiCalendar struct {
	UnlockScheduleId string
	UnlockTimestamps []uint32
	UnlockPercents   []*big.Int
}

type abiPiece struct {
	StartDate       uint32
	PeriodLength    uint32
	NumberOfPeriods uint32
	Percent         uint32
}

type abiInterval struct {
	UnlockScheduleId string
	Pieces           []abiPiece
}

// Encode returns decodableArgs for a. It checks the schedule's shape (not its
// percent sum, so that tests can build deliberately odd leaves).
func Encode(a Args) ([]byte, error) {
	if a.Allocation.TotalAllocation == nil || a.Allocation.TotalAllocation.Sign() < 0 {
		return nil, errors.New("encode allocation: total allocation must be a non-negative amount")
	}
	alloc := abiAllocation{
		Id:                        a.Allocation.ID,
		OriginalBeneficiary:       a.Allocation.OriginalBeneficiary,
		TotalAllocation:           a.Allocation.TotalAllocation,
		Cancelable:                a.Allocation.Cancelable,
		Revokable:                 a.Allocation.Revokable,
		TransferableByAdmin:       a.Allocation.TransferableByAdmin,
		TransferableByBeneficiary: a.Allocation.TransferableByBeneficiary,
	}
	s := a.Schedule
	switch s.Kind {
	case Calendar:
		if len(s.UnlockTimestamps) != len(s.UnlockPercents) {
			return nil, fmt.Errorf("encode calendar schedule: %d timestamps but %d percents", len(s.UnlockTimestamps), len(s.UnlockPercents))
		}
		out, err := calendarArgs.Pack(Calendar, alloc, abiCalendar{s.UnlockScheduleID, s.UnlockTimestamps, s.UnlockPercents})
		if err != nil {
			return nil, fmt.Errorf("encode calendar schedule: %w", err)
		}
		return out, nil
	case Interval:
		pieces := make([]abiPiece, len(s.Pieces))
		for i, p := range s.Pieces {
			pieces[i] = abiPiece(p)
		}
		out, err := intervalArgs.Pack(Interval, alloc, abiInterval{s.UnlockScheduleID, pieces})
		if err != nil {
			return nil, fmt.Errorf("encode interval schedule: %w", err)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("encode schedule: unknown allocation type %q", s.Kind)
	}
}

// Decode parses decodableArgs. Input comes from the network: it is bounded
// in size and every failure is an error wrapping ErrMalformed, never a panic.
func Decode(data []byte) (args Args, err error) {
	if len(data) > MaxArgsSize {
		return Args{}, fmt.Errorf("%w: %d bytes, more than %d", ErrMalformed, len(data), MaxArgsSize)
	}
	// The ABI decoder trusts offsets more than it should on some inputs;
	// a panic there must not take the program down.
	defer func() {
		if r := recover(); r != nil {
			args, err = Args{}, fmt.Errorf("%w: %v", ErrMalformed, r)
		}
	}()
	head, err := stringArgs.Unpack(data)
	if err != nil {
		return Args{}, fmt.Errorf("%w: allocation type: %v", ErrMalformed, err)
	}
	kind, _ := head[0].(string)
	var arguments abi.Arguments
	switch kind {
	case Calendar:
		arguments = calendarArgs
	case Interval:
		arguments = intervalArgs
	default:
		return Args{}, fmt.Errorf("%w: unknown allocation type %q", ErrMalformed, kind)
	}
	values, err := arguments.Unpack(data)
	if err != nil {
		return Args{}, fmt.Errorf("%w: %s schedule: %v", ErrMalformed, kind, err)
	}
	// ConvertType panics on a shape mismatch; the recover above turns that
	// into ErrMalformed.
	alloc := abi.ConvertType(values[1], new(abiAllocation)).(*abiAllocation)
	args.Allocation = Allocation{
		ID:                        alloc.Id,
		OriginalBeneficiary:       alloc.OriginalBeneficiary,
		TotalAllocation:           alloc.TotalAllocation,
		Cancelable:                alloc.Cancelable,
		Revokable:                 alloc.Revokable,
		TransferableByAdmin:       alloc.TransferableByAdmin,
		TransferableByBeneficiary: alloc.TransferableByBeneficiary,
	}
	args.Schedule.Kind = kind
	if kind == Calendar {
		cal := abi.ConvertType(values[2], new(abiCalendar)).(*abiCalendar)
		if len(cal.UnlockTimestamps) != len(cal.UnlockPercents) {
			return Args{}, fmt.Errorf("%w: calendar schedule has %d timestamps but %d percents", ErrMalformed, len(cal.UnlockTimestamps), len(cal.UnlockPercents))
		}
		args.Schedule.UnlockScheduleID = cal.UnlockScheduleId
		args.Schedule.UnlockTimestamps = cal.UnlockTimestamps
		args.Schedule.UnlockPercents = cal.UnlockPercents
		return args, nil
	}
	iv := abi.ConvertType(values[2], new(abiInterval)).(*abiInterval)
	args.Schedule.UnlockScheduleID = iv.UnlockScheduleId
	args.Schedule.Pieces = make([]Piece, len(iv.Pieces))
	for i, p := range iv.Pieces {
		args.Schedule.Pieces[i] = Piece(p)
	}
	return args, nil
}

func mustType(t string, components []abi.ArgumentMarshaling) abi.Type {
	typ, err := abi.NewType(t, "", components)
	if err != nil {
		panic(fmt.Sprintf("vesting: abi type %s: %v", t, err))
	}
	return typ
}

func mustArguments(types ...abi.Type) abi.Arguments {
	args := make(abi.Arguments, len(types))
	for i, t := range types {
		args[i] = abi.Argument{Type: t}
	}
	return args
}
