package vesting

import (
	"bytes"
	"errors"
	"math/big"
	"reflect"
	"strings"
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
				// A one-off unlock at 1000: one period of one second.
				{StartDate: 999, PeriodLength: 1, NumberOfPeriods: 1, Percent: 100_000},
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

// bigInt parses a decimal written out by hand (or by a calculator).
func bigInt(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad number %q", s)
	}
	return n
}

// oddTotal is 123,456.789012345678901234 tokens: 18 decimals that no
// percent divides evenly.
const oddTotal = "123456789012345678901234"

// TestCalendarVestedD16: min(total, mulDiv(total, P, 1e6)), percents adding
// up to exactly 1e6, on a total that does not divide evenly.
func TestCalendarVestedD16(t *testing.T) {
	a := Args{Allocation: Allocation{TotalAllocation: bigInt(t, oddTotal)}, Schedule: Schedule{
		Kind:             Calendar,
		UnlockTimestamps: []uint32{100, 200, 300},
		UnlockPercents:   []*big.Int{big.NewInt(333_333), big.NewInt(333_333), big.NewInt(333_334)},
	}}
	for _, tc := range []struct {
		ts   int64
		want string
	}{
		{0, "0"},
		{99, "0"},
		{100, "41152221851852222185185"}, // 41152221851852222185185.1...
		{199, "41152221851852222185185"},
		{200, "82304443703704444370370"}, // mulDiv of the sum, not a sum of mulDivs
		{299, "82304443703704444370370"},
		{300, oddTotal},
		{1 << 40, oddTotal},
	} {
		got, err := a.Vested(time.Unix(tc.ts, 0))
		if err != nil || got.String() != tc.want {
			t.Errorf("t=%d: Vested = %v, %v; want %s", tc.ts, got, err, tc.want)
		}
	}
}

// TestCalendarStopsAtFirstLaterUnlock: the vester walks the timestamps in
// order and stops at the first one still to come, even when a later entry
// is out of order; and it never pays more than the total.
func TestCalendarStopsAtFirstLaterUnlock(t *testing.T) {
	a := Args{Allocation: Allocation{TotalAllocation: big.NewInt(1_000_000)}, Schedule: Schedule{
		Kind:             Calendar,
		UnlockTimestamps: []uint32{10, 30, 20},
		UnlockPercents:   []*big.Int{big.NewInt(100_000), big.NewInt(200_000), big.NewInt(900_000)},
	}}
	for _, tc := range []struct {
		ts   int64
		want int64
		ppm  uint64
	}{
		{25, 100_000, 100_000},     // 20 has passed, but 30 comes first
		{30, 1_000_000, 1_000_000}, // 120% capped at the total
	} {
		if got := a.Unlocked(time.Unix(tc.ts, 0)); got.Int64() != tc.want {
			t.Errorf("t=%d: Unlocked = %s, want %d", tc.ts, got, tc.want)
		}
		if got := a.Schedule.UnlockedPPM(time.Unix(tc.ts, 0)); got != tc.ppm {
			t.Errorf("t=%d: UnlockedPPM = %d, want %d", tc.ts, got, tc.ppm)
		}
	}
}

// TestIntervalVestedD16 walks every edge of two overlapping pieces whose
// last piece (in the leaf's order) ends before the first: each piece is
// rounded down on its own, in wei, and the full total is due from the end
// of the last piece on. The wants were computed outside Go; the old
// formula (total*summed ppm/1e6) paid up to 13,717 tokens less.
func TestIntervalVestedD16(t *testing.T) {
	const s = 2_000_000_000
	a := Args{Allocation: Allocation{TotalAllocation: bigInt(t, oddTotal)}, Schedule: Schedule{
		Kind: Interval,
		Pieces: []Piece{
			{StartDate: s, PeriodLength: 100, NumberOfPeriods: 3, Percent: 333_333},
			{StartDate: s + 50, PeriodLength: 30, NumberOfPeriods: 7, Percent: 666_667}, // ends at s+260
		},
	}}
	for _, tc := range []struct {
		d    int64 // seconds after s
		want string
	}{
		{-1, "0"},
		{0, "0"},  // started, no whole period yet
		{50, "0"}, // the second piece starts
		{79, "0"},
		{80, "11757795308641922388006"}, // second piece, period 1 of 7
		{99, "11757795308641922388006"},
		{100, "25475202592592663116401"}, // first piece, period 1 of 3
		{199, "60748588518518430280422"},
		{200, "86223791111111093396824"},
		{259, "97981586419753015784831"}, // one second before the last piece's end
		{260, oddTotal},                  // at it: everything, though the first piece runs to s+300
		{300, oddTotal},
		{1 << 33, oddTotal},
	} {
		got, err := a.Vested(time.Unix(s+tc.d, 0))
		if err != nil || got.String() != tc.want {
			t.Errorf("s%+d: Vested = %v, %v; want %s", tc.d, got, err, tc.want)
		}
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
		{1000, 100_000, 100_000}, // the one-off piece's one period
		{1099, 100_000, 100_000}, // first period not complete
		{1100, 400_000, 400_000}, // 100000 + floor(900002*1/3) = 100000 + 300000
		{1200, 700_000, 700_001}, // 100000 + floor(900002*2/3)
		{1299, 700_000, 700_001},
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

func TestIntervalCapsAtTotal(t *testing.T) {
	a := Args{Allocation: Allocation{TotalAllocation: big.NewInt(1000)}, Schedule: Schedule{Kind: Interval, Pieces: []Piece{
		{StartDate: 0, PeriodLength: 10, NumberOfPeriods: 2, Percent: 900_000},
		{StartDate: 0, PeriodLength: 10, NumberOfPeriods: 4, Percent: 900_000},
	}}}
	if got := a.Unlocked(time.Unix(20, 0)); got.Int64() != 1000 { // 900 + 450, capped
		t.Errorf("Unlocked = %s, want the total 1000", got)
	}
}

// TestPeriodLengthZeroIsUnclaimable: the production vester divides by zero
// from the start of a piece with periods of length 0 until the end of the
// last piece; before it and after that end it pays as usual.
func TestPeriodLengthZeroIsUnclaimable(t *testing.T) {
	a := Args{Allocation: Allocation{TotalAllocation: big.NewInt(1_000_000)}, Schedule: Schedule{Kind: Interval, Pieces: []Piece{
		{StartDate: 100, PeriodLength: 10, NumberOfPeriods: 2, Percent: 200_000},
		{StartDate: 150, PeriodLength: 0, NumberOfPeriods: 1, Percent: 300_000},
		{StartDate: 200, PeriodLength: 100, NumberOfPeriods: 5, Percent: 500_000}, // ends at 700
	}}}
	end := time.Unix(700, 0).UTC()
	for _, tc := range []struct {
		ts      int64
		blocked bool
		want    int64
		ppm     uint64
	}{
		{149, false, 200_000, 200_000},
		{150, true, 0, 200_000}, // the percent shown stays where it was
		{450, true, 0, 200_000},
		{699, true, 0, 200_000},
		{700, false, 1_000_000, PercentScale},
	} {
		at := time.Unix(tc.ts, 0)
		until, blocked := a.Schedule.Unclaimable(at)
		if blocked != tc.blocked || (blocked && !until.Equal(end)) {
			t.Errorf("t=%d: Unclaimable = %s, %v; want %s, %v", tc.ts, until, blocked, end, tc.blocked)
		}
		got, err := a.Vested(at)
		var ue *UnclaimableError
		switch {
		case tc.blocked && (!errors.As(err, &ue) || !errors.Is(err, ErrDivisionByZero) || !ue.Until.Equal(end)):
			t.Errorf("t=%d: Vested = %v, %v; want an UnclaimableError until %s", tc.ts, got, err, end)
		case !tc.blocked && (err != nil || got.Int64() != tc.want):
			t.Errorf("t=%d: Vested = %v, %v; want %d", tc.ts, got, err, tc.want)
		}
		if got := a.Unlocked(at); got.Int64() != tc.want {
			t.Errorf("t=%d: Unlocked = %s, want %d", tc.ts, got, tc.want)
		}
		if got := a.Schedule.UnlockedPPM(at); got != tc.ppm {
			t.Errorf("t=%d: UnlockedPPM = %d, want %d", tc.ts, got, tc.ppm)
		}
	}
	wantTimeline := []Point{
		{time.Unix(110, 0).UTC(), 100_000},
		{time.Unix(120, 0).UTC(), 200_000},
		{end, PercentScale}, // nothing moves while the vester cannot pay
	}
	if got := a.Schedule.Timeline(); !reflect.DeepEqual(got, wantTimeline) {
		t.Errorf("Timeline = %v, want %v", got, wantTimeline)
	}
	want := "this schedule cannot be claimed on the production vester until 1970-01-01 00:11:40 UTC"
	if _, err := a.Vested(time.Unix(150, 0)); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	if _, blocked := calendarArgsFixture().Schedule.Unclaimable(time.Unix(1_710_000_000, 0)); blocked {
		t.Error("a calendar schedule is never unclaimable")
	}
}

// TestVestedOverflow: a hostile leaf whose amounts do not fit in 256 bits
// makes the vester's checked arithmetic revert; Vested says so instead of
// an amount nobody can claim.
func TestVestedOverflow(t *testing.T) {
	maxTotal := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	full := Args{Allocation: Allocation{TotalAllocation: maxTotal}, Schedule: Schedule{
		Kind: Calendar, UnlockTimestamps: []uint32{1}, UnlockPercents: []*big.Int{big.NewInt(PercentScale)}}}
	if got, err := full.Vested(time.Unix(1, 0)); err != nil || got.Cmp(maxTotal) != 0 {
		t.Errorf("100%% of 2^256-1 = %v, %v; want it whole", got, err)
	}
	over := full
	over.Schedule.UnlockPercents = []*big.Int{big.NewInt(PercentScale + 1)}
	if _, err := over.Vested(time.Unix(1, 0)); !errors.Is(err, ErrOverflow) {
		t.Errorf("101%% of 2^256-1: %v, want ErrOverflow", err)
	}
	if got := over.Unlocked(time.Unix(1, 0)); got.Sign() != 0 {
		t.Errorf("Unlocked = %s, want 0 when the vester reverts", got)
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
		for _, at := range []time.Time{time.Unix(0, 0), time.Unix(1<<31, 0), time.Unix(1<<40, 0)} {
			args.Schedule.UnlockedPPM(at)
			if v, err := args.Vested(at); err == nil && v.Cmp(args.Allocation.TotalAllocation) > 0 {
				t.Fatalf("vested %s of a total of %s", v, args.Allocation.TotalAllocation)
			}
		}
		args.Schedule.Timeline()
		_ = args.Schedule.Validate()
		if _, err := Encode(args); err != nil {
			t.Fatalf("decoded args do not re-encode: %v", err)
		}
	})
}

// TestTimelineStartsAtFirstUnlock: steps that unlock nothing (here, while
// the vester cannot pay) make no point of 0%.
func TestTimelineStartsAtFirstUnlock(t *testing.T) {
	s := Schedule{Kind: Interval, Pieces: []Piece{
		{StartDate: 100, PeriodLength: 0, NumberOfPeriods: 1, Percent: 300_000},
		{StartDate: 100, PeriodLength: 10, NumberOfPeriods: 3, Percent: 700_000},
	}}
	want := []Point{{time.Unix(130, 0).UTC(), PercentScale}}
	if got := s.Timeline(); !reflect.DeepEqual(got, want) {
		t.Errorf("Timeline = %v, want %v", got, want)
	}
}
