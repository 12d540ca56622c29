package cli

import (
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet"
	"allot/wallet/history"
)

// The tax exports write a wallet's claims as two tax tools import a
// generic file: Koinly's universal template and CoinTracker's CSV. A claim
// is a receipt of the token. Its fee column holds what the wallet paid for
// it in the chain's coin, the claim fee and the gas, when the wallet sent
// the claim itself; a claim someone else sent cost the wallet nothing, so
// its fee columns are empty.
//
// Neither export tags the receipt (Koinly's Label, CoinTracker's Tag).
// Both tools read an untagged receipt as a plain acquisition, and a tag
// such as Koinly's "Income" changes the tax: whether a vesting claim is
// pay (an employee's grant), an acquisition paid for earlier (an
// investor's purchase) or something else depends on the holder and the
// country, which allot cannot know. The holder tags the rows in the tool.

// feeCurrency is the unit of the fee column: the fee and the gas are paid
// in the chain's coin, ether, as everywhere else allot shows fees.
const feeCurrency = "ETH"

// The tools' documented date layouts, in UTC: Koinly's "YYYY-MM-DD HH:MM
// UTC" (its custom CSV guide), CoinTracker's "MM/DD/YYYY HH:MM:SS".
const (
	koinlyDate      = "2006-01-02 15:04 UTC"
	coinTrackerDate = "01/02/2006 15:04:05"
)

var (
	koinlyHeader      = []string{"Date", "Sent Amount", "Sent Currency", "Received Amount", "Received Currency", "Fee Amount", "Fee Currency", "Net Worth Amount", "Net Worth Currency", "Label", "Description", "TxHash"}
	coinTrackerHeader = []string{"Date", "Received Quantity", "Received Currency", "Sent Quantity", "Sent Currency", "Fee Amount", "Fee Currency", "Tag"}
)

// claimCost is what a claim cost the wallet, in ether, and its unit: the
// claim fee and the gas when the wallet sent it, nothing ("", "") when
// another did.
func claimCost(ev history.Event, holder common.Address) (amount, currency string) {
	if ev.Sender != holder {
		return "", ""
	}
	return wallet.FormatUnits(new(big.Int).Add(ev.Fee, ev.Gas)), feeCurrency
}

// claimDescription says what the row is, and who paid for it when the
// wallet did not.
func claimDescription(ev history.Event, holder common.Address) string {
	d := fmt.Sprintf("vesting claim of allocation %s from vester %s", ev.Allocation, ev.Vester.Hex())
	if ev.Sender != holder {
		d += fmt.Sprintf("; sent by %s, who paid its claim fee and gas: no fee to this wallet", ev.Sender.Hex())
	}
	return d
}

// writeKoinly writes the wallet's claims in Koinly's universal template.
// With prices, a claim's Net Worth is its tokens' worth on the day; a
// claim no row prices is left blank and said on warn, once a token and
// day.
func writeKoinly(w, warn io.Writer, h *history.History, holder common.Address, p prices) error {
	if err := p.ambiguous(h); err != nil {
		return err
	}
	t := newCSV(w, koinlyHeader...)
	var missing []priceKey
	seen := map[priceKey]bool{}
	for _, ev := range h.Events {
		if ev.Kind != history.Claim {
			continue
		}
		fee, feeUnit := claimCost(ev, holder)
		worth, worthUnit, ok := p.worth(ev)
		if key := (priceKey{ev.Time.UTC().Format(time.DateOnly), tokenLabel(ev)}); !ok && p != nil && !seen[key] {
			seen[key] = true
			missing = append(missing, key)
		}
		t.row(ev.Time.UTC().Format(koinlyDate), "", "", wallet.FormatUnits(ev.Amount), csvText(tokenLabel(ev)),
			fee, feeUnit, worth, worthUnit, "", csvText(claimDescription(ev, holder)), ev.Tx.Hex())
	}
	if err := t.flush(); err != nil {
		return err
	}
	warnUnpriced(warn, missing)
	return nil
}

// maxPriceWarnings bounds the days without a price named one by one.
const maxPriceWarnings = 10

func warnUnpriced(warn io.Writer, missing []priceKey) {
	for i, k := range missing {
		if i == maxPriceWarnings {
			fmt.Fprintf(warn, "allot: warning: --prices: %d more tokens and days without a price\n", len(missing)-i)
			return
		}
		fmt.Fprintf(warn, "allot: warning: --prices has no price of %s on %s: its claims' Net Worth is blank\n", k.token, k.day)
	}
}

// writeCoinTracker writes the wallet's claims in CoinTracker's CSV. It
// has no column to say who sent a claim: a claim without a fee is one
// another sent.
func writeCoinTracker(w io.Writer, h *history.History, holder common.Address) error {
	t := newCSV(w, coinTrackerHeader...)
	for _, ev := range h.Events {
		if ev.Kind != history.Claim {
			continue
		}
		fee, feeUnit := claimCost(ev, holder)
		t.row(ev.Time.UTC().Format(coinTrackerDate), wallet.FormatUnits(ev.Amount), csvText(tokenLabel(ev)), "", "", fee, feeUnit, "")
	}
	return t.flush()
}
