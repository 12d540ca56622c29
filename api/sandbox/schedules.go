package sandbox

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/google/uuid"
)

// Schedule rules of D6.
const (
	// RoundingFloor is the only rounding mode.
	RoundingFloor = "FLOOR"
	// CliffPeriod is the unit of cliff.duration, and of every month value of
	// a schedule request; the request carries no period.
	CliffPeriod = "MONTH"
	// maxMonths bounds month values: a hundred years.
	maxMonths = 1200
	// keyAlphabet and keyLength make schedule keys: "S-" and 8 of these.
	keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	keyLength   = 8
)

// sumTolerance is how far unlockAtStart + cliff.value + the portions may be
// from 1 (D6).
var sumTolerance = big.NewRat(1, 1_000_000_000)

type scheduleJSON struct {
	ID            string       `json:"id"`
	Key           string       `json:"key"`
	Name          string       `json:"name"`
	Description   *string      `json:"description"`
	UnlockAtStart *json.Number `json:"unlockAtStart"`
	Cliff         cliffJSON    `json:"cliff"`
	RoundingMode  string       `json:"roundingMode"`
	CreatedAt     timestamp    `json:"createdAt"`
}

type cliffJSON struct {
	Value    json.Number `json:"value"`
	Duration json.Number `json:"duration"`
	Period   string      `json:"period"`
}

// createSchedule serves schedules/create with the validation of D6.
func (s *Server) createSchedule(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	tokenID, _ := o.uuid("tokenId", true)
	name, _ := o.text("name", true)
	description, _ := o.text("description", true)
	if mode, ok := o.string("roundingMode", false); ok && mode != RoundingFloor {
		p.add("roundingMode", "must be FLOOR")
	}
	sum := new(big.Rat)
	sumOK := true
	out := scheduleJSON{Name: name, Description: &description, RoundingMode: RoundingFloor,
		Cliff: cliffJSON{Value: "0", Duration: "0", Period: CliffPeriod}}
	if n, ok := fraction(o, "unlockAtStart", false); ok {
		sum.Add(sum, n.value)
		out.UnlockAtStart = &n.literal
	} else {
		sumOK = sumOK && !o.has("unlockAtStart")
	}
	if cliff, ok := o.object("cliff", false); ok {
		if n, ok := fraction(cliff, "value", true); ok {
			sum.Add(sum, n.value)
			out.Cliff.Value = n.literal
		} else {
			sumOK = false
		}
		if n, ok := months(cliff, "duration", true, 0); ok {
			out.Cliff.Duration = n
		}
	} else {
		sumOK = sumOK && !o.has("cliff")
	}
	if pieces, ok := o.array("pieces", true, 1); ok {
		for i, v := range pieces {
			piece, ok := o.asObject(o.item("pieces", i), v)
			if !ok {
				sumOK = false
				continue
			}
			if portion, ok := checkPiece(piece); ok {
				sum.Add(sum, portion)
			} else {
				sumOK = false
			}
		}
	} else {
		sumOK = false
	}
	if sumOK {
		diff := new(big.Rat).Sub(sum, big.NewRat(1, 1))
		if diff.Abs(diff).Cmp(sumTolerance) > 0 {
			p.addf("pieces", "unlockAtStart, cliff.value and the portions add up to %s, not 1", sum.FloatString(9))
		}
	}
	if !p.ok() {
		return nil, p.err()
	}
	if _, ok := s.world.Token(tokenID); !ok {
		return nil, errNotFound("no token %s", tokenID)
	}
	out.ID = uuid.NewString()
	out.CreatedAt = timestamp(s.clock())
	s.mu.Lock()
	defer s.mu.Unlock()
	out.Key = s.newScheduleKey()
	return out, nil
}

// checkPiece validates one piece and returns its portion.
func checkPiece(piece object) (*big.Rat, bool) {
	piece.text("name", true)
	portion, portionOK := fraction(piece, "portion", true)
	if delay, ok := piece.object("startDelay", false); ok {
		months(delay, "value", true, 0)
	}
	oneOff, periodic := piece.has("oneOffPieceConfiguration"), piece.has("periodicPieceConfiguration")
	switch {
	case oneOff == periodic:
		piece.p.add(piece.path, "must have exactly one of oneOffPieceConfiguration and periodicPieceConfiguration")
	case oneOff:
		if conf, ok := piece.object("oneOffPieceConfiguration", true); ok {
			if offset, ok := conf.object("offset", true); ok {
				months(offset, "value", true, 0)
			}
			dayOfMonth(conf)
		}
	default:
		if conf, ok := piece.object("periodicPieceConfiguration", true); ok {
			if length, ok := conf.object("length", true); ok {
				months(length, "value", true, 1)
			}
			if frequency, ok := conf.object("frequency", true); ok {
				months(frequency, "value", true, 1)
			}
			dayOfMonth(conf)
		}
	}
	if !portionOK {
		return nil, false
	}
	return portion.value, true
}

// exactNumber is a JSON number as written and as an exact value.
type exactNumber struct {
	literal json.Number
	value   *big.Rat
}

// fraction reads a number in [0, 1].
func fraction(o object, name string, required bool) (exactNumber, bool) {
	lit, ok := o.number(name, required)
	if !ok {
		return exactNumber{}, false
	}
	r, err := parseDecimal(lit)
	if err != nil {
		o.p.add(o.at(name), err.Error())
		return exactNumber{}, false
	}
	if r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
		o.p.add(o.at(name), "must be a fraction from 0 to 1")
		return exactNumber{}, false
	}
	return exactNumber{json.Number(lit), r}, true
}

// months reads a whole number of months from least to maxMonths.
func months(o object, name string, required bool, least int64) (json.Number, bool) {
	n, ok := wholeNumber(o, name, required, least, maxMonths)
	if !ok {
		return "", false
	}
	return json.Number(fmt.Sprint(n)), true
}

func dayOfMonth(conf object) {
	wholeNumber(conf, "dayOfMonth", true, 1, 28)
}

// wholeNumber reads an integer in [least, most].
func wholeNumber(o object, name string, required bool, least, most int64) (int64, bool) {
	lit, ok := o.number(name, required)
	if !ok {
		return 0, false
	}
	r, err := parseDecimal(lit)
	if err != nil || !r.IsInt() || r.Num().Cmp(big.NewInt(least)) < 0 || r.Num().Cmp(big.NewInt(most)) > 0 {
		o.p.addf(o.at(name), "must be a whole number from %d to %d", least, most)
		return 0, false
	}
	return r.Num().Int64(), true
}

// newScheduleKey draws a key no schedule has. Callers hold s.mu.
func (s *Server) newScheduleKey() string {
	for {
		b := make([]byte, keyLength)
		for i := range b {
			var r [1]byte
			// Rejection sampling keeps the alphabet's letters equally likely.
			for {
				rand.Read(r[:])
				if int(r[0]) < 256-256%len(keyAlphabet) {
					break
				}
			}
			b[i] = keyAlphabet[int(r[0])%len(keyAlphabet)]
		}
		key := "S-" + string(b)
		if !s.scheduleKeys[key] {
			s.scheduleKeys[key] = true
			return key
		}
	}
}
