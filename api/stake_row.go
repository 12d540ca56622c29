package api

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/holiman/uint256"
	"github.com/shopspring/decimal"

	"allot/internal/isotime"
)

// AmountDecimals is the decimals of a stake's amount in base units (D13).
const AmountDecimals = 18

// StakeStatus is a stake's status as a small enum. The interface shows
// only STAKED; UNSTAKING and WITHDRAWN are what a stake goes through after
// it. Any other text is StakeOther, its text kept by the row.
type StakeStatus uint8

// Stake statuses.
const (
	StakeOther StakeStatus = iota
	StakeStaked
	StakeUnstaking
	StakeWithdrawn
)

var stakeStatusText = [...]string{StakeStaked: "STAKED", StakeUnstaking: "UNSTAKING", StakeWithdrawn: "WITHDRAWN"}

// StakeRow is one stake held as fixed-size values, so that a pool of a
// million stakes takes about 100 MB and its rows are formatted only when
// shown. It is read from the service's listing by StreamStakes, which has
// checked every field; the zero StakeRow is no stake.
type StakeRow struct {
	ID        [16]byte // the stake's UUID
	Wallet    [20]byte // the staker's address
	CreatedAt int64    // unix milliseconds; see HasTime
	Status    StakeStatus

	// walletCase has bit i set when hex digit i of the address came in
	// upper case, so that it is written back as the service wrote it
	// (EIP-55 or not) without a keccak per row.
	walletCase [5]byte
	flags      uint8
	// amount is in base units (10^-AmountDecimals), unless odd holds it.
	amount uint256.Int
	// odd holds what fixed-size values cannot: an amount that is
	// negative, finer than base units or past 2^256, and the text of a
	// StakeOther status. nil for every ordinary stake; rows share the
	// status of a stream.
	odd *stakeOdd
}

type stakeOdd struct {
	amount *decimal.Decimal // nil: the row's amount field holds it
	status string
}

// oddOf is a row's odd part: the interned StakeOther status as it is
// (shared by the rows of that status), or a part of its own for an
// amount base units cannot hold, with the status's text if any.
func oddOf(amount *decimal.Decimal, status *stakeOdd) *stakeOdd {
	if amount == nil {
		return status
	}
	odd := &stakeOdd{amount: amount}
	if status != nil {
		odd.status = status.status
	}
	return odd
}

// rowHasTime is the flag of a row with a creation time.
const rowHasTime uint8 = 1

// IDString is the id in the canonical UUID form, lower case.
func (r *StakeRow) IDString() string { return string(r.AppendID(make([]byte, 0, 36))) }

// AppendID appends IDString's text to dst.
func (r *StakeRow) AppendID(dst []byte) []byte {
	var b [36]byte
	hex.Encode(b[0:8], r.ID[0:4])
	hex.Encode(b[9:13], r.ID[4:6])
	hex.Encode(b[14:18], r.ID[6:8])
	hex.Encode(b[19:23], r.ID[8:10])
	hex.Encode(b[24:36], r.ID[10:16])
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
	return append(dst, b[:]...)
}

// WalletString is the staker's address as the service wrote it: 0x and
// 40 hex digits, each letter in the case it came in.
func (r *StakeRow) WalletString() string { return string(r.AppendWallet(make([]byte, 0, 42))) }

// AppendWallet appends WalletString's text to dst.
func (r *StakeRow) AppendWallet(dst []byte) []byte {
	var b [42]byte
	b[0], b[1] = '0', 'x'
	hex.Encode(b[2:], r.Wallet[:])
	for i := range 40 {
		if r.walletCase[i/8]&(1<<(i%8)) != 0 {
			b[2+i] -= 'a' - 'A'
		}
	}
	return append(dst, b[:]...)
}

// StatusText is the status as the service wrote it. It is text from the
// network: sanitize it before it reaches a terminal.
func (r *StakeRow) StatusText() string {
	if r.Status == StakeOther {
		if r.odd == nil {
			return ""
		}
		return r.odd.status
	}
	return stakeStatusText[r.Status]
}

// HasTime reports whether the stake has a creation time (the service may
// send null).
func (r *StakeRow) HasTime() bool { return r.flags&rowHasTime != 0 }

// Time is the creation time, UTC, or the zero time when there is none.
func (r *StakeRow) Time() time.Time {
	if !r.HasTime() {
		return time.Time{}
	}
	return time.UnixMilli(r.CreatedAt).UTC()
}

// AppendCreatedAt appends the creation time in the service's layout
// (D15), or nothing when there is none.
func (r *StakeRow) AppendCreatedAt(dst []byte) []byte {
	if !r.HasTime() {
		return dst
	}
	return appendTimeMilli(dst, r.CreatedAt)
}

// AmountBase returns the amount in base units, and false when it is not a
// whole number of them below 2^256 (negative, finer than 18 decimals, or
// larger): AmountDecimal has it then, exact.
func (r *StakeRow) AmountBase() (uint256.Int, bool) {
	if r.odd != nil && r.odd.amount != nil {
		return uint256.Int{}, false
	}
	return r.amount, true
}

// AmountDecimal is the amount in token units, exact.
func (r *StakeRow) AmountDecimal() decimal.Decimal {
	if r.odd != nil && r.odd.amount != nil {
		return *r.odd.amount
	}
	return decimal.NewFromBigInt(r.amount.ToBig(), -AmountDecimals)
}

// AmountString is the amount in token units as the shortest exact decimal
// ("1250.5", "0.000000000000000001", "7"): what Decimal.String writes.
func (r *StakeRow) AmountString() string { return string(r.AppendAmount(nil)) }

// AppendAmount appends AmountString's text to dst.
func (r *StakeRow) AppendAmount(dst []byte) []byte {
	if r.odd != nil && r.odd.amount != nil {
		return append(dst, r.odd.amount.String()...)
	}
	var whole uint256.Int
	var frac uint64
	if r.amount.IsUint64() {
		v := r.amount.Uint64()
		whole.SetUint64(v / 1e18)
		frac = v % 1e18
	} else {
		var m uint256.Int
		whole.DivMod(&r.amount, uint256.NewInt(1e18), &m)
		frac = m.Uint64()
	}
	if whole.IsUint64() {
		dst = strconv.AppendUint(dst, whole.Uint64(), 10)
	} else {
		dst = append(dst, whole.Dec()...)
	}
	if frac == 0 {
		return dst
	}
	var digits [AmountDecimals]byte
	for i := AmountDecimals - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := AmountDecimals
	for digits[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, digits[:n]...)
}

// CompareAmounts orders two rows by amount, exactly: -1, 0 or +1.
func CompareAmounts(a, b *StakeRow) int {
	ab, aok := a.AmountBase()
	bb, bok := b.AmountBase()
	if aok && bok {
		return ab.Cmp(&bb)
	}
	return a.AmountDecimal().Cmp(b.AmountDecimal())
}

// AddAmount adds the row's amount, in base units, to sum. An amount finer
// than base units is cut to them (toward zero): a sum of stakes is shown
// in token units with 18 decimals at most.
func (r *StakeRow) AddAmount(sum *big.Int) {
	if r.odd != nil && r.odd.amount != nil {
		sum.Add(sum, r.odd.amount.Shift(AmountDecimals).BigInt())
		return
	}
	sum.Add(sum, r.amount.ToBig())
}

// Stake is the row as a Stake.
func (r *StakeRow) Stake() Stake {
	st := Stake{ID: r.IDString(), Status: r.StatusText(), WalletAddress: r.WalletString(), Amount: Decimal{r.AmountDecimal()}}
	if r.HasTime() {
		st.CreatedAt = Time{r.Time()}
	}
	return st
}

// Row field parsing. Each parser takes the field's text, unescaped, and
// reports what is wrong in a phrase for the row's error.

var errNotUUID = errors.New("is not a UUID")

func (r *StakeRow) setID(b []byte) error {
	if len(b) != 36 || b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' {
		return errNotUUID
	}
	// from, to: the hex digits in the text; at: where their bytes go.
	for _, span := range [5][3]int{{0, 8, 0}, {9, 13, 4}, {14, 18, 6}, {19, 23, 8}, {24, 36, 10}} {
		if _, err := hex.Decode(r.ID[span[2]:], b[span[0]:span[1]]); err != nil {
			return errNotUUID
		}
	}
	return nil
}

func (r *StakeRow) setWallet(b []byte) error {
	if len(b) != 42 || b[0] != '0' || b[1] != 'x' {
		return errors.New("is not an address (0x and 40 hex digits)")
	}
	var lower [40]byte
	r.walletCase = [5]byte{}
	for i, c := range b[2:] {
		if c >= 'A' && c <= 'F' {
			r.walletCase[i/8] |= 1 << (i % 8)
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	if _, err := hex.Decode(r.Wallet[:], lower[:]); err != nil {
		return errors.New("is not an address (0x and 40 hex digits)")
	}
	return nil
}

// tenPow18 is 10^18, a base unit's inverse.
var tenPow18 = uint256.NewInt(1e18)

// setAmount reads an amount: a decimal string or, number true, the text
// of a JSON number. The common amount (digits, a point, at most 18
// decimals) is read into base units without allocating; anything else
// goes through the exact decimal parsers, digits bounded first, and is
// returned when base units cannot hold it.
func (r *StakeRow) setAmount(b []byte, number bool) (*decimal.Decimal, error) {
	if parseBaseUnits(b, &r.amount) {
		return nil, nil
	}
	var d decimal.Decimal
	var err error
	if number {
		d, err = parseJSONNumber(string(b))
	} else {
		d, err = parseDecimal(string(b))
	}
	if err != nil {
		return nil, err
	}
	r.amount.Clear()
	// An amount that fits base units after all ("1.50000000000000000000",
	// "+1", 1e3) is held as they are.
	if shifted := d.Shift(AmountDecimals); shifted.IsInteger() && shifted.Sign() >= 0 {
		if v, overflow := uint256.FromBig(shifted.BigInt()); !overflow {
			r.amount = *v
			return nil, nil
		}
	}
	return &d, nil
}

// parseBaseUnits reads digits with an optional point and at most 18
// decimals into v, in base units, and reports whether b had that form and
// the value fits 256 bits.
func parseBaseUnits(b []byte, v *uint256.Int) bool {
	point := -1
	for i, c := range b {
		if c == '.' && point < 0 {
			point = i
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	whole, frac := b, b[len(b):]
	if point >= 0 {
		whole, frac = b[:point], b[point+1:]
	}
	if len(whole) == 0 || (point >= 0 && len(frac) == 0) || len(frac) > AmountDecimals {
		return false
	}
	var f uint64
	for _, c := range frac {
		f = f*10 + uint64(c-'0')
	}
	for range AmountDecimals - len(frac) {
		f *= 10
	}
	if len(whole) <= 19 {
		var w uint64
		for _, c := range whole {
			w = w*10 + uint64(c-'0')
		}
		if w <= (1<<64-1-f)/1e18 {
			v.SetUint64(w*1e18 + f)
			return true
		}
		v.SetUint64(w)
	} else {
		if len(whole) > 78 {
			return false
		}
		v.Clear()
		var ten, digit uint256.Int
		ten.SetUint64(10)
		for _, c := range whole {
			if _, overflow := v.MulOverflow(v, &ten); overflow {
				return false
			}
			digit.SetUint64(uint64(c - '0'))
			if _, overflow := v.AddOverflow(v, &digit); overflow {
				return false
			}
		}
	}
	if _, overflow := v.MulOverflow(v, tenPow18); overflow {
		return false
	}
	var fv uint256.Int
	fv.SetUint64(f)
	_, overflow := v.AddOverflow(v, &fv)
	return !overflow
}

// setTime reads a timestamp: D15's layout without allocating, any other
// RFC 3339 time through time.Parse. It is kept to the millisecond, as
// D15 writes it.
func (r *StakeRow) setTime(b []byte) error {
	if ms, ok := parseTimeMilli(b); ok {
		r.CreatedAt = ms
		r.flags |= rowHasTime
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return errors.New("is not an ISO 8601 time")
	}
	r.CreatedAt = t.UnixMilli()
	r.flags |= rowHasTime
	return nil
}

// parseTimeMilli reads D15's layout (isotime.Layout) exactly.
func parseTimeMilli(b []byte) (int64, bool) {
	if len(b) != 24 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[19] != '.' || b[23] != 'Z' {
		return 0, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for _, c := range b[from:to] {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	milli, ok7 := num(20, 23)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(year, month) || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	days := daysFromCivil(year, month, day)
	return ((days*24+int64(hour))*60+int64(minute))*60*1000 + int64(sec)*1000 + int64(milli), true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the days from 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// appendTimeMilli appends unix milliseconds in D15's layout, as
// isotime.Append would.
func appendTimeMilli(dst []byte, ms int64) []byte {
	t := time.UnixMilli(ms).UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return isotime.Append(dst, t)
	}
	hour, minute, sec := t.Clock()
	milli := t.Nanosecond() / 1e6
	var b [24]byte
	put := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, year, 4)
	put(5, int(month), 2)
	put(8, day, 2)
	put(11, hour, 2)
	put(14, minute, 2)
	put(17, sec, 2)
	put(20, milli, 3)
	b[4], b[7], b[10], b[13], b[16], b[19], b[23] = '-', '-', 'T', ':', ':', '.', 'Z'
	return append(dst, b[:]...)
}

// maxStatusText bounds a status's text: a word, not a paragraph.
const maxStatusText = 64

// MaxStakeStatuses bounds the distinct statuses one listing may use: a
// status is an enum of a few values, and every odd one is kept.
const MaxStakeStatuses = 64

// statuses interns the texts of a stream's StakeOther statuses, so that
// rows of one status share one *stakeOdd.
type statuses map[string]*stakeOdd

// set reads a status into r; a StakeOther status's text comes back,
// interned.
func (s statuses) set(r *StakeRow, b []byte) (*stakeOdd, error) {
	if st, ok := knownStatus(b); ok {
		r.Status = st
		return nil, nil
	}
	if len(b) == 0 || len(b) > maxStatusText {
		return nil, fmt.Errorf("is not a status of at most %d bytes", maxStatusText)
	}
	if !utf8.Valid(b) {
		b = validUTF8(b)
	}
	r.Status = StakeOther
	if odd, ok := s[string(b)]; ok {
		return odd, nil
	}
	if len(s) == MaxStakeStatuses {
		return nil, &LimitError{Op: "staking/stakes", Reason: fmt.Sprintf("the stakes hold more than %d different statuses", MaxStakeStatuses)}
	}
	odd := &stakeOdd{status: string(b)}
	s[odd.status] = odd
	return odd, nil
}

// knownStatus is the status of the text the service sends for it, when it
// is one of those allot knows (the interface shows STAKED; the others are
// the sandbox's, docs/deployment.md).
func knownStatus(b []byte) (StakeStatus, bool) {
	switch string(b) {
	case "STAKED":
		return StakeStaked, true
	case "UNSTAKING":
		return StakeUnstaking, true
	case "WITHDRAWN":
		return StakeWithdrawn, true
	}
	return StakeOther, false
}

// StakeRowOf returns st as a row, with the checks StreamStakes makes: an
// id that is a UUID, an address, an amount of at most MaxAmountDigits
// digits, a status of at most 64 characters. A time is kept to the
// millisecond.
func StakeRowOf(st Stake) (StakeRow, error) {
	var r StakeRow
	if err := r.setID([]byte(st.ID)); err != nil {
		return StakeRow{}, fmt.Errorf("id %s %w", excerpt(st.ID), err)
	}
	if err := r.setWallet([]byte(st.WalletAddress)); err != nil {
		return StakeRow{}, fmt.Errorf("walletAddress %s %w", excerpt(st.WalletAddress), err)
	}
	amount, err := r.setAmount([]byte(st.Amount.String()), false)
	if err != nil {
		return StakeRow{}, fmt.Errorf("amount: %w", err)
	}
	status, err := statuses{}.set(&r, []byte(st.Status))
	if err != nil {
		return StakeRow{}, fmt.Errorf("status %s %w", excerpt(st.Status), err)
	}
	if !st.CreatedAt.IsZero() {
		r.CreatedAt = st.CreatedAt.UnixMilli()
		r.flags |= rowHasTime
	}
	r.odd = oddOf(amount, status)
	return r, nil
}

// validUTF8 is b with each byte that is not UTF-8 replaced by U+FFFD, as
// encoding/json reads a string.
func validUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// Sort keys. Sorting a million rows by comparing them reads two rows at
// random per comparison across ~100 MB, and waits on memory most of the
// time. A key is what a comparison needs of a row, in 24 bytes a sort
// holds side by side: keys compare word by word, and a < b implies
// key(a) <= key(b). exact says that equal keys mean equal rows; keys of
// rows that are not exact and tie must be told apart by the row's compare.

// AmountKey is the amount's sort key, in the order of CompareAmounts: the
// base units when they fit 192 bits (every amount of 10^36 tokens and
// less), exact; else a bound of the amount that keeps the order.
func (r *StakeRow) AmountKey() (key [3]uint64, exact bool) {
	if r.odd != nil && r.odd.amount != nil {
		// Negative: the least key, with zero; finer than base units: its
		// whole base units; past 192 bits: the greatest key. The compare
		// orders those that tie.
		d := r.odd.amount
		if d.Sign() <= 0 {
			return [3]uint64{}, false
		}
		if v, overflow := uint256.FromBig(d.Shift(AmountDecimals).BigInt()); !overflow && v[3] == 0 {
			return [3]uint64{v[2], v[1], v[0]}, false
		}
		return [3]uint64{^uint64(0), ^uint64(0), ^uint64(0)}, false
	}
	if r.amount[3] != 0 {
		return [3]uint64{^uint64(0), ^uint64(0), ^uint64(0)}, false
	}
	return [3]uint64{r.amount[2], r.amount[1], r.amount[0]}, true
}

// WalletKey is the address's sort key, in the order of its 20 bytes,
// exact.
func (r *StakeRow) WalletKey() (key [3]uint64, exact bool) {
	w := &r.Wallet
	return [3]uint64{binary.BigEndian.Uint64(w[0:8]), binary.BigEndian.Uint64(w[8:16]), uint64(binary.BigEndian.Uint32(w[16:20]))}, true
}

// CreatedKey is the creation time's sort key, those without one first,
// exact.
func (r *StakeRow) CreatedKey() (key [3]uint64, exact bool) {
	if !r.HasTime() {
		return [3]uint64{}, true
	}
	return [3]uint64{1, uint64(r.CreatedAt) ^ 1<<63, 0}, true
}
