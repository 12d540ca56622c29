package cli

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/history"
)

// A price file (history --prices FILE) gives what a token was worth on a
// day, for the Net Worth of a Koinly export: allot asks no price service,
// so the figures are the user's own, from the source their tax office
// accepts. It is CSV, the header row then a row a token and day:
//
//	date,symbol,price,currency
//	2026-01-02,ALLOT,0.125,USD
//
// date is a UTC day (YYYY-MM-DD), the day a claim's block is dated in;
// symbol is the token's symbol as the history shows it, or its address for
// a token that states none; price is what one token was worth, a plain
// decimal; currency is an ISO 4217 code (USD, EUR).
const priceHeader = "date,symbol,price,currency"

// maxPriceFile bounds a price file: a row is some 40 bytes, so ten years
// of daily prices of a few tokens fit many times over.
const maxPriceFile = 1 << 20

var (
	priceNumber  = regexp.MustCompile(`^\d{1,30}(\.\d{1,30})?$`)
	currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)
)

// maxPriceSymbol is the longest symbol a row may name: an address (42).
const maxPriceSymbol = 42

// priceKey is a token on a UTC day: its symbol, or its checksummed
// address for a token that states none.
type priceKey struct{ day, token string }

type price struct {
	value    decimal.Decimal
	currency string
}

// prices are a price file's rows by token and day.
type prices map[priceKey]price

// readPrices reads and checks the price file at path. Every error names
// the file and, for a row, its line.
func readPrices(path string) (prices, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--prices: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPriceFile+1))
	if err != nil {
		return nil, fmt.Errorf("--prices: %w", err)
	}
	if len(data) > maxPriceFile {
		return nil, fmt.Errorf("--prices: %s is more than %d bytes, more than a price file needs", sanitize.Line(path), maxPriceFile)
	}
	p, err := parsePrices(data)
	if err != nil {
		return nil, fmt.Errorf("--prices %s: %w", sanitize.Line(path), err)
	}
	return p, nil
}

// parsePrices reads a price file's text. A spreadsheet's byte order mark
// is passed over; anything else that is not a row of four good cells is
// an error naming its line.
func parsePrices(data []byte) (prices, error) {
	// The header fixes the number of fields every row must have; a
	// header of other than four is refused for what it says.
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	header, err := r.Read()
	switch {
	case errors.Is(err, io.EOF):
		return nil, fmt.Errorf("it is empty: want the header %s, then a row a token and day", priceHeader)
	case err != nil:
		return nil, csvLineError(err)
	case strings.Join(header, ",") != priceHeader:
		return nil, fmt.Errorf("line 1: the header is %q, want %s", sanitize.Truncate(strings.Join(header, ","), 80), priceHeader)
	}
	out := prices{}
	lines := map[priceKey]int{}
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, csvLineError(err)
		}
		line, _ := r.FieldPos(0)
		key, p, err := priceRow(row)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if first, ok := lines[key]; ok {
			return nil, fmt.Errorf("line %d: a second price of %s on %s (the first is on line %d)", line, key.token, key.day, first)
		}
		lines[key], out[key] = line, p
	}
}

// csvLineError says where the CSV itself is broken: encoding/csv's
// error names the line, in its own words.
func csvLineError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d: %v", pe.Line, pe.Err)
	}
	return err
}

// priceRow checks one row's cells.
func priceRow(row []string) (priceKey, price, error) {
	day, symbol, value, currency := row[0], row[1], row[2], row[3]
	if t, err := time.Parse(time.DateOnly, day); err != nil || t.Format(time.DateOnly) != day {
		return priceKey{}, price{}, fmt.Errorf("date %q: want a day as YYYY-MM-DD", sanitize.Truncate(day, 40))
	}
	token, err := priceToken(symbol)
	if err != nil {
		return priceKey{}, price{}, err
	}
	if !priceNumber.MatchString(value) {
		return priceKey{}, price{}, fmt.Errorf("price %q: want a plain decimal like 0.125 (digits, a point, no sign, grouping or exponent)", sanitize.Truncate(value, 40))
	}
	if !currencyCode.MatchString(currency) {
		return priceKey{}, price{}, fmt.Errorf("currency %q: want an ISO 4217 code like USD or EUR", sanitize.Truncate(currency, 40))
	}
	return priceKey{day: day, token: token}, price{value: decimal.RequireFromString(value), currency: currency}, nil
}

// priceToken is the token a row names: an address, checksummed, or a
// symbol as the chain states it (sanitized as the history shows it).
func priceToken(symbol string) (string, error) {
	switch {
	case symbol == "":
		return "", errors.New("the symbol is empty: name the token by its symbol, or by its address when it states none")
	case common.IsHexAddress(symbol) && strings.HasPrefix(symbol, "0x"):
		return common.HexToAddress(symbol).Hex(), nil
	case len(symbol) > maxPriceSymbol || sanitize.Line(symbol) != symbol || strings.TrimSpace(symbol) != symbol:
		return "", fmt.Errorf("symbol %q: want a token's symbol as allot history shows it, or its address", sanitize.Truncate(symbol, 40))
	}
	return symbol, nil
}

// worth is what a claim's tokens were worth on the UTC day of its block,
// by the row naming the token by its address, else by its symbol; ok is
// false when no row prices it.
func (p prices) worth(ev history.Event) (amount, currency string, ok bool) {
	day := ev.Time.UTC().Format(time.DateOnly)
	pr, ok := p[priceKey{day: day, token: ev.Token.Hex()}]
	if !ok && ev.Symbol != "" {
		pr, ok = p[priceKey{day: day, token: ev.Symbol}]
	}
	if !ok {
		return "", "", false
	}
	return decimal.NewFromBigInt(ev.Amount, -wallet.Decimals).Mul(pr.value).String(), pr.currency, true
}

// ambiguous names a symbol the price file prices that two tokens of the
// history share: a row naming it could be either's, so they must be named
// by address.
func (p prices) ambiguous(h *history.History) error {
	priced := map[string]bool{}
	for k := range p {
		priced[k.token] = true
	}
	tokens := map[string]common.Address{}
	for _, ev := range h.Events {
		if ev.Kind != history.Claim || ev.Symbol == "" || !priced[ev.Symbol] {
			continue
		}
		if other, ok := tokens[ev.Symbol]; ok && other != ev.Token {
			return fmt.Errorf("--prices: symbol %s names two tokens of the history, %s and %s: name each by its address", ev.Symbol, other.Hex(), ev.Token.Hex())
		}
		tokens[ev.Symbol] = ev.Token
	}
	return nil
}
