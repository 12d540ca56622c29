package vesting

import (
	"bytes"
	"errors"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

var beneficiary = common.HexToAddress("0x1111111111111111111111111111111111111111")

func token(n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18))
}

func calendarArgsFixture() Args {
	return Args{
		Allocation: Allocation{
			ID:                  "0b7d9d4a-0000-4000-8000-000000000001",
			OriginalBeneficiary: beneficiary,
			TotalAllocation:     token(1000),
			Revokable:           true,
		},
		Schedule: Schedule{
			Kind:             Calendar,
			UnlockScheduleID: "S-ABCDEF12",
			UnlockTimestamps: []uint32{1_700_000_000, 1_710_000_000, 1_720_000_000},
			UnlockPercents:   []*big.Int{big.NewInt(250_000), big.NewInt(250_000), big.NewInt(500_000)},
		},
	}
}

func intervalArgsFixture() Args {
	return Args{
		Allocation: Allocation{
			ID:                        "0b7d9d4a-0000-4000-8000-000000000002",
			OriginalBeneficiary:       beneficiary,
			TotalAllocation:           big.NewInt(1_000_003),
			Cancelable:                true,
			TransferableByBeneficiary: true,
		},
		Schedule: Schedule{
			Kind:             Interval,
			UnlockScheduleID: "S-INTERVAL",
			Pieces: []Piece{
				{StartDate: 1000, PeriodLength: 0, NumberOfPeriods: 1, Percent: 100_000},
				{StartDate: 1000, PeriodLength: 100, NumberOfPeriods: 3, Percent: 900_000},
			},
		},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, a := range []Args{calendarArgsFixture(), intervalArgsFixture()} {
		t.Run(a.Schedule.Kind, func(t *testing.T) {
			data, err := Encode(a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, a) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, a)
			}
			again, err := Encode(got)
			if err != nil || !bytes.Equal(again, data) {
				t.Errorf("re-encoding differs (err %v)", err)
			}
		})
	}
}

// TestEncodeLayout pins the head of the encoding: three offsets (string,
// dynamic tuple, dynamic tuple), then the type string. A change here breaks
// every leaf already on chain.
func TestEncodeLayout(t *testing.T) {
	data, err := Encode(calendarArgsFixture())
	if err != nil {
		t.Fatal(err)
	}
	word := func(i int) *big.Int { return new(big.Int).SetBytes(data[32*i : 32*i+32]) }
	if word(0).Int64() != 96 {
		t.Errorf("offset of allocationType = %d, want 96", word(0))
	}
	if word(3).Int64() != int64(len(Calendar)) {
		t.Errorf("allocationType length = %d", word(3))
	}
	if !bytes.HasPrefix(data[128:], []byte(Calendar)) {
		t.Errorf("allocationType bytes = %q", data[128:136])
	}
}

func TestDecodeRejects(t *testing.T) {
	valid, _ := Encode(calendarArgsFixture())
	unknown := calendarArgsFixture()
	unknown.Schedule.Kind = "calendar"
	other, _ := calendarArgs.Pack("linear", abiAllocation{TotalAllocation: big.NewInt(1)}, abiCalendar{})
	tests := map[string][]byte{
		"empty":        nil,
		"short":        valid[:40],
		"truncated":    valid[:len(valid)-32],
		"unknown type": other,
		"garbage":      bytes.Repeat([]byte{0xff}, 200),
		"too large":    make([]byte, MaxArgsSize+1),
		"huge offset":  append(common.LeftPadBytes(big.NewInt(1<<40).Bytes(), 32), valid[32:]...),
		"interval as calendar": func() []byte {
			b, _ := Encode(intervalArgsFixture())
			copy(b[128:], "calendar")
			return b
		}(),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(data)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Decode error = %v, want ErrMalformed", err)
			}
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	a := calendarArgsFixture()
	a.Schedule.UnlockPercents = a.Schedule.UnlockPercents[:1]
	if _, err := Encode(a); err == nil {
		t.Error("mismatched calendar lengths encoded")
	}
	a = calendarArgsFixture()
	a.Schedule.Kind = "linear"
	if _, err := Encode(a); err == nil {
		t.Error("unknown kind encoded")
	}
	a = calendarArgsFixture()
	a.Allocation.TotalAllocation = nil
	if _, err := Encode(a); err == nil {
		t.Error("nil total encoded")
	}
}

func TestCalendarUnlocked(t *testing.T) {
	a := calendarArgsFixture()
	at := func(ts int64) time.Time { return time.Unix(ts, 0) }
	tests := []struct {
		name string
		at   time.Time
		ppm  uint64
		amt  *big.Int
	}{
		{"before start", at(1_699_999_999), 0, big.NewInt(0)},
		{"at first unlock", at(1_700_000_000), 250_000, token(250)},
		{"between", at(1_705_000_000), 250_000, token(250)},
		{"at second unlock", at(1_710_000_000), 500_000, token(500)},
		{"at last unlock", at(1_720_000_000), PercentScale, token(1000)},
		{"long after the end", at(4_000_000_000), PercentScale, token(1000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := a.Schedule.UnlockedPPM(tt.at); got != tt.ppm {
				t.Errorf("UnlockedPPM = %d, want %d", got, tt.ppm)
			}
			if got := a.Unlocked(tt.at); got.Cmp(tt.amt) != 0 {
				t.Errorf("Unlocked = %s, want %s", got, tt.amt)
			}
		})
	}
}

func TestIntervalUnlockedRoundsDown(t *testing.T) {
	a := intervalArgsFixture() // total 1,000,003 base units
	tests := []struct {
		ts  int64
		ppm uint64
		amt int64
	}{
		{999, 0, 0},
		{1000, 100_000, 100_000}, // one-off piece at its start date
		{1099, 100_000, 100_000}, // first period not complete
		{1100, 400_000, 400_001}, // 100000 + 900000/3; 1000003*0.4 = 400001.2
		{1200, 700_000, 700_002}, // 1000003*0.7 = 700002.1
		{1300, 1_000_000, 1_000_003},
		{99999, 1_000_000, 1_000_003},
	}
	for _, tt := range tests {
		if got := a.Schedule.UnlockedPPM(time.Unix(tt.ts, 0)); got != tt.ppm {
			t.Errorf("t=%d: UnlockedPPM = %d, want %d", tt.ts, got, tt.ppm)
		}
		if got := a.Unlocked(time.Unix(tt.ts, 0)); got.Int64() != tt.amt {
			t.Errorf("t=%d: Unlocked = %s, want %d", tt.ts, got, tt.amt)
		}
	}
}

func TestPiecePercentRoundsPerPiece(t *testing.T) {
	s := Schedule{Kind: Interval, Pieces: []Piece{{StartDate: 0, PeriodLength: 10, NumberOfPeriods: 3, Percent: 1_000_000}}}
	if got := s.UnlockedPPM(time.Unix(10, 0)); got != 333_333 {
		t.Errorf("one third = %d, want 333333", got)
	}
	if got := s.UnlockedPPM(time.Unix(20, 0)); got != 666_666 {
		t.Errorf("two thirds = %d, want 666666", got)
	}
}

func TestUnlockedCapsOversizedPercents(t *testing.T) {
	s := Schedule{Kind: Calendar, UnlockTimestamps: []uint32{1, 2}, UnlockPercents: []*big.Int{big.NewInt(900_000), big.NewInt(900_000)}}
	if got := s.UnlockedPPM(time.Unix(5, 0)); got != PercentScale {
		t.Errorf("UnlockedPPM = %d, want cap", got)
	}
	huge := Schedule{Kind: Calendar, UnlockTimestamps: []uint32{1}, UnlockPercents: []*big.Int{new(big.Int).Lsh(big.NewInt(1), 200)}}
	if got := huge.UnlockedPPM(time.Unix(5, 0)); got != PercentScale {
		t.Errorf("huge percent = %d, want cap", got)
	}
}

func TestTimeline(t *testing.T) {
	got := intervalArgsFixture().Schedule.Timeline()
	want := []Point{
		{time.Unix(1000, 0).UTC(), 100_000},
		{time.Unix(1100, 0).UTC(), 400_000},
		{time.Unix(1200, 0).UTC(), 700_000},
		{time.Unix(1300, 0).UTC(), 1_000_000},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Timeline = %v, want %v", got, want)
	}
}

func TestTimelineIsBounded(t *testing.T) {
	s := Schedule{Kind: Interval, Pieces: []Piece{{StartDate: 0, PeriodLength: 1, NumberOfPeriods: 4_000_000_000, Percent: PercentScale}}}
	points := s.Timeline()
	if len(points) > MaxTimelinePoints {
		t.Fatalf("%d points, more than %d", len(points), MaxTimelinePoints)
	}
	if last := points[len(points)-1]; last.PPM != PercentScale {
		t.Errorf("last point %d ppm, want 100%%", last.PPM)
	}
}

func TestValidate(t *testing.T) {
	if err := calendarArgsFixture().Schedule.Validate(); err != nil {
		t.Errorf("valid calendar: %v", err)
	}
	if err := intervalArgsFixture().Schedule.Validate(); err != nil {
		t.Errorf("valid interval: %v", err)
	}
	short := calendarArgsFixture().Schedule
	short.UnlockPercents = []*big.Int{big.NewInt(1), big.NewInt(1), big.NewInt(1)}
	if err := short.Validate(); err == nil || err.Error() != "percents add up to 0.0003%, not 100%" {
		t.Errorf("short sum: %v", err)
	}
	unordered := calendarArgsFixture().Schedule
	unordered.UnlockTimestamps = []uint32{3, 2, 1}
	if err := unordered.Validate(); err == nil {
		t.Error("unordered timestamps accepted")
	}
}

func TestFormatPPM(t *testing.T) {
	for ppm, want := range map[uint64]string{0: "0", 1_000_000: "100", 333_333: "33.3333", 250_000: "25", 5: "0.0005"} {
		if got := FormatPPM(ppm); got != want {
			t.Errorf("FormatPPM(%d) = %q, want %q", ppm, got, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, a := range []Args{calendarArgsFixture(), intervalArgsFixture()} {
		data, _ := Encode(a)
		f.Add(data)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			return
		}
		// Whatever decodes must be usable without panics.
		args.Schedule.UnlockedPPM(time.Unix(1<<31, 0))
		args.Schedule.Timeline()
		_ = args.Schedule.Validate()
		if _, err := Encode(args); err != nil {
			t.Fatalf("decoded args do not re-encode: %v", err)
		}
	})
}
