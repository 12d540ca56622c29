package cli

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/history"
)

// TestParsePrices: a price file's rows by token and day; whatever is not
// a good row is refused with its line and what was wanted.
func TestParsePrices(t *testing.T) {
	t.Parallel()
	token := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	good := "\ufeffdate,symbol,price,currency\r\n" +
		"2026-01-02,ALLOT,0.125,USD\r\n" +
		"\r\n" +
		"2026-01-03," + strings.ToLower(token.Hex()) + ",7,EUR\r\n" +
		"2026-01-03,\"A,B\",0,USD\r\n"
	p, err := parsePrices([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	claim := func(day int, symbol string) history.Event {
		return history.Event{Kind: history.Claim, Time: time.Date(2026, 1, day, 23, 59, 59, 0, time.UTC),
			Token: token, Symbol: symbol, Amount: big.NewInt(3_000_000_000_000_000_000)}
	}
	for _, tc := range []struct {
		ev          history.Event
		worth, unit string
		priced      bool
	}{
		{claim(2, "ALLOT"), "0.375", "USD", true},
		{claim(3, "ALLOT"), "21", "EUR", true}, // by address first
		{claim(3, ""), "21", "EUR", true},
		{claim(4, "ALLOT"), "", "", false},
		{claim(2, "allot"), "", "", false}, // symbols are as the chain states them
	} {
		worth, unit, ok := p.worth(tc.ev)
		if worth != tc.worth || unit != tc.unit || ok != tc.priced {
			t.Errorf("%s on %s: %q %q %v, want %q %q %v", tc.ev.Symbol, tc.ev.Time, worth, unit, ok, tc.worth, tc.unit, tc.priced)
		}
	}
	if _, ok := p[priceKey{"2026-01-03", "A,B"}]; !ok || len(p) != 3 {
		t.Errorf("rows %v", p)
	}

	const head = "date,symbol,price,currency\n"
	for _, tc := range []struct{ text, want string }{
		{"", "it is empty"},
		{"date,symbol,price\n", `line 1: the header is "date,symbol,price"`},
		{"Date,Symbol,Price,Currency\n", "line 1: the header is"},
		{head + "2026-01-02,ALLOT,1,USD,x\n", "line 2: wrong number of fields"},
		{head + "2026-01-02,ALLOT,1,USD\n2026-01-02,\"ALLOT,1,USD\n", "line 3"},
		{head + "2026-02-30,ALLOT,1,USD\n", `line 2: date "2026-02-30"`},
		{head + "02/01/2026,ALLOT,1,USD\n", `line 2: date "02/01/2026"`},
		{head + "2026-01-02,,1,USD\n", "line 2: the symbol is empty"},
		{head + "2026-01-02, ALLOT,1,USD\n", `line 2: symbol " ALLOT"`},
		{head + "2026-01-02,AL\x1b]0;x\x07,1,USD\n", "line 2: symbol"},
		{head + "2026-01-02," + strings.Repeat("A", 43) + ",1,USD\n", "line 2: symbol"},
		{head + "2026-01-02,ALLOT,-1,USD\n", `line 2: price "-1"`},
		{head + "2026-01-02,ALLOT,1e3,USD\n", `line 2: price "1e3"`},
		{head + "2026-01-02,ALLOT,\"1,000\",USD\n", `line 2: price "1,000"`},
		{head + "2026-01-02,ALLOT,.5,USD\n", `line 2: price ".5"`},
		{head + "2026-01-02,ALLOT," + strings.Repeat("9", 31) + ",USD\n", "line 2: price"},
		{head + "2026-01-02,ALLOT,1,usd\n", `line 2: currency "usd"`},
		{head + "2026-01-02,ALLOT,1,$\n", `line 2: currency "$"`},
		{head + "2026-01-02,ALLOT,1,USD\n2026-01-03,ALLOT,1,USD\n2026-01-02,ALLOT,2,EUR\n", "line 4: a second price of ALLOT on 2026-01-02 (the first is on line 2)"},
	} {
		_, err := parsePrices([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error saying %q", tc.text, err, tc.want)
		}
	}
}

// TestReadPricesBounded: a price file larger than any needs is refused
// unread past the bound; a missing one says so.
func TestReadPricesBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	large := filepath.Join(dir, "large.csv")
	if err := os.WriteFile(large, []byte("date,symbol,price,currency\n"+strings.Repeat("2026-01-02,ALLOT,1,USD\n", maxPriceFile/20)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readPrices(large); err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Errorf("a file over the bound: %v", err)
	}
	if _, err := readPrices(filepath.Join(dir, "none.csv")); err == nil || !strings.HasPrefix(err.Error(), "--prices: ") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestPricesAmbiguousSymbol: a symbol two tokens of the history share
// cannot price either.
func TestPricesAmbiguousSymbol(t *testing.T) {
	t.Parallel()
	p, err := parsePrices([]byte("date,symbol,price,currency\n2026-01-02,ALLOT,1,USD\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := &history.History{Events: []history.Event{
		{Kind: history.Claim, Token: common.Address{1}, Symbol: "ALLOT"},
		{Kind: history.Claim, Token: common.Address{2}, Symbol: "ALLOT"},
	}}
	if err := p.ambiguous(h); err == nil || !strings.Contains(err.Error(), "name each by its address") {
		t.Errorf("two tokens named ALLOT: %v", err)
	}
	if err := p.ambiguous(&history.History{Events: h.Events[:1]}); err != nil {
		t.Errorf("one token: %v", err)
	}
}

// FuzzParsePrices: no input panics the parser, and what it accepts holds
// only rows it would accept again, with exact non-negative prices.
func FuzzParsePrices(f *testing.F) {
	f.Add([]byte("date,symbol,price,currency\n2026-01-02,ALLOT,0.125,USD\n"))
	f.Add([]byte("\ufeffdate,symbol,price,currency\r\n2026-01-03,0x00000000000000000000000000000000000000bb,7,EUR\r\n"))
	f.Add([]byte("date,symbol,price,currency\n2026-01-02,\"A\"\"B\",1,USD\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePrices(data)
		if err != nil {
			return
		}
		for k, v := range p {
			if _, _, err := priceRow([]string{k.day, k.token, v.value.String(), v.currency}); err != nil {
				t.Errorf("accepted %v %v, which does not check again: %v", k, v, err)
			}
			if v.value.Sign() < 0 {
				t.Errorf("a negative price %v", v.value)
			}
		}
	})
}
