package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"allot/wallet/vesting"
)

// encodeArgs returns an allocation's decodableArgs (D8):
// abi.encode(string allocationType, Allocation, Schedule), written word by
// word. It makes the bytes vesting.Encode makes (TestEncodeArgs holds them
// to it over every seeded allocation) at a tenth of the cost: the seed
// encodes thousands at every start, and the chain's deployment waits for
// their roots, while go-ethereum's Pack finds each tuple's fields by
// reflection every time.
func encodeArgs(args vesting.Args) ([]byte, error) {
	a, s := args.Allocation, args.Schedule
	if a.TotalAllocation == nil || a.TotalAllocation.Sign() < 0 || a.TotalAllocation.BitLen() > 256 {
		return nil, errors.New("encode allocation: total allocation must be an amount of at most 256 bits")
	}
	// The three parts' sizes, which their offsets are made of.
	kindSize := stringSize(s.Kind)
	allocationSize := 7*32 + stringSize(a.ID)
	var scheduleSize int
	switch s.Kind {
	case vesting.Calendar:
		if len(s.UnlockTimestamps) != len(s.UnlockPercents) {
			return nil, fmt.Errorf("encode calendar schedule: %d timestamps but %d percents", len(s.UnlockTimestamps), len(s.UnlockPercents))
		}
		for _, p := range s.UnlockPercents {
			if p == nil || p.Sign() < 0 || p.BitLen() > 256 {
				return nil, errors.New("encode calendar schedule: a percent must be an amount of at most 256 bits")
			}
		}
		scheduleSize = 3*32 + stringSize(s.UnlockScheduleID) + 2*(32+32*len(s.UnlockPercents))
	case vesting.Interval:
		scheduleSize = 2*32 + stringSize(s.UnlockScheduleID) + 32 + 4*32*len(s.Pieces)
	default:
		return nil, fmt.Errorf("encode schedule: unknown allocation type %q", s.Kind)
	}
	out := make([]byte, 0, 3*32+kindSize+allocationSize+scheduleSize)
	out = abiUint(out, 3*32)
	out = abiUint(out, uint64(3*32+kindSize))
	out = abiUint(out, uint64(3*32+kindSize+allocationSize))
	out = abiString(out, s.Kind)

	// (string id, address originalBeneficiary, uint256 totalAllocation,
	// bool cancelable, bool revokable, bool transferableByAdmin,
	// bool transferableByBeneficiary)
	out = abiUint(out, 7*32)
	var address [32]byte
	copy(address[12:], a.OriginalBeneficiary[:])
	out = append(out, address[:]...)
	out = abiBig(out, a.TotalAllocation)
	for _, b := range []bool{a.Cancelable, a.Revokable, a.TransferableByAdmin, a.TransferableByBeneficiary} {
		out = abiBool(out, b)
	}
	out = abiString(out, a.ID)

	idSize := uint64(stringSize(s.UnlockScheduleID))
	if s.Kind == vesting.Calendar {
		// (string unlockScheduleId, uint32[] unlockTimestamps, uint256[] unlockPercents)
		out = abiUint(out, 3*32)
		out = abiUint(out, 3*32+idSize)
		out = abiUint(out, 3*32+idSize+32+32*uint64(len(s.UnlockTimestamps)))
		out = abiString(out, s.UnlockScheduleID)
		out = abiUint(out, uint64(len(s.UnlockTimestamps)))
		for _, t := range s.UnlockTimestamps {
			out = abiUint(out, uint64(t))
		}
		out = abiUint(out, uint64(len(s.UnlockPercents)))
		for _, p := range s.UnlockPercents {
			out = abiBig(out, p)
		}
		return out, nil
	}
	// (string unlockScheduleId, (uint32 startDate, uint32 periodLength,
	// uint32 numberOfPeriods, uint32 percent)[] pieces)
	out = abiUint(out, 2*32)
	out = abiUint(out, 2*32+idSize)
	out = abiString(out, s.UnlockScheduleID)
	out = abiUint(out, uint64(len(s.Pieces)))
	for _, p := range s.Pieces {
		out = abiUint(out, uint64(p.StartDate))
		out = abiUint(out, uint64(p.PeriodLength))
		out = abiUint(out, uint64(p.NumberOfPeriods))
		out = abiUint(out, uint64(p.Percent))
	}
	return out, nil
}

// stringSize is the size of a string's tail: its length, then its bytes
// padded with zeros to whole words.
func stringSize(s string) int { return 32 + (len(s)+31)/32*32 }

// abiUint appends n as one 32-byte word.
func abiUint(buf []byte, n uint64) []byte {
	var word [32]byte
	binary.BigEndian.PutUint64(word[24:], n)
	return append(buf, word[:]...)
}

// abiBig appends n, non-negative and of at most 256 bits, as one word.
func abiBig(buf []byte, n *big.Int) []byte {
	var word [32]byte
	return append(buf, n.FillBytes(word[:])...)
}

func abiBool(buf []byte, b bool) []byte {
	if b {
		return abiUint(buf, 1)
	}
	return abiUint(buf, 0)
}

// abiString appends a string's tail (stringSize).
func abiString(buf []byte, s string) []byte {
	buf = abiUint(buf, uint64(len(s)))
	buf = append(buf, s...)
	var pad [32]byte
	return append(buf, pad[:(32-len(s)%32)%32]...)
}
