package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/internal/isotime"
	"allot/wallet"
	"allot/wallet/history"
)

var historyCommand = command{
	name:    "history",
	args:    "ALLOCATION_ID | --wallet ADDR [--from-block N] [--to-block N] [-o json|csv|koinly|cointracker] [--prices FILE]",
	summary: "what happened on chain to an allocation (claims, cancel, revoke, transfers), or every claim a wallet received (also as Koinly's or CoinTracker's import)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		walletAddr := fs.String("wallet", "", "every claim that reached the wallet `ADDR` from the vesters of the profile's tokens, each with its allocation")
		var from, to blockFlag
		fs.Var(&from, "from-block", "scan from block `N` (default: the first)")
		fs.Var(&to, "to-block", "scan up to block `N` (default: the head when the scan starts)")
		pricesFile := fs.String("prices", "", "with -o koinly: each claim's Net Worth from the CSV `FILE` of prices (date,symbol,price,currency; docs/history.md)")
		out := new(format)
		*out = formatTable
		fs.Var(formatFlag{f: out, withCSV: true, withTax: true}, "o", "output `FORMAT`: table, json or csv (the operation's result, nothing else on stdout; csv: a header row, then one row an item, amounts exact); with --wallet also koinly or cointracker (the claims as those tax tools import them)")
		return func(ctx context.Context, args []string) error {
			addr, err := historyArgs(*walletAddr, args, from, to, *out, *pricesFile)
			if err != nil {
				return err
			}
			var p prices
			if *pricesFile != "" {
				if p, err = readPrices(*pricesFile); err != nil {
					return err
				}
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			opts := history.Options{FromBlock: from.n, ToBlock: to.n, Progress: e.historyProgress()}
			var h *history.History
			if *walletAddr != "" {
				h, err = s.WalletHistory(ctx, addr, opts)
			} else {
				h, err = s.AllocationHistory(ctx, args[0], opts)
				err = withDemoAllocations(s, err)
			}
			if err != nil {
				return err
			}
			for _, w := range h.Warnings {
				fmt.Fprintf(e.Stderr, "allot: warning: %s\n", w)
			}
			if n := h.Skipped - len(h.Warnings); n > 0 {
				fmt.Fprintf(e.Stderr, "allot: warning: %d more skipped\n", n)
			}
			switch *out {
			case formatJSON:
				return writeJSON(e.Stdout, historyJSON(h, args, addr))
			case formatCSV:
				return writeHistoryCSV(e.Stdout, h)
			case formatKoinly:
				return writeKoinly(e.Stdout, e.Stderr, h, addr, p)
			case formatCoinTracker:
				return writeCoinTracker(e.Stdout, h, addr)
			}
			return writeHistoryTable(e.Stdout, h, *walletAddr != "")
		}
	},
}

// historyArgs checks history's arguments before anything is read, and
// returns the wallet's address when --wallet names one.
func historyArgs(walletAddr string, args []string, from, to blockFlag, out format, pricesFile string) (common.Address, error) {
	tax := out == formatKoinly || out == formatCoinTracker
	switch {
	case walletAddr != "" && len(args) > 0:
		return common.Address{}, usagef("takes one allocation id or --wallet, not both")
	case tax && walletAddr == "":
		return common.Address{}, usagef("-o %s is a wallet's tax record: it takes --wallet ADDR (an allocation's history is not one wallet's)", out)
	case walletAddr == "" && len(args) != 1:
		return common.Address{}, usagef("takes one allocation id, or --wallet ADDR")
	case pricesFile != "" && out != formatKoinly:
		return common.Address{}, usagef("--prices fills the Net Worth of -o koinly; no other output has a column for it")
	case to.set && to.n == 0:
		return common.Address{}, usagef("--to-block 0 is the genesis block, which holds no claim")
	case to.set && from.n > to.n:
		return common.Address{}, usagef("--from-block %d is after --to-block %d", from.n, to.n)
	}
	if walletAddr == "" {
		if err := api.CheckUUID("allocation id", args[0]); err != nil {
			return common.Address{}, usageError{msg: err.Error()}
		}
		return common.Address{}, nil
	}
	if err := api.CheckAddress("--wallet", walletAddr); err != nil {
		return common.Address{}, usageError{msg: err.Error()}
	}
	return common.HexToAddress(walletAddr), nil
}

// blockFlag is a block number; unset, its help names no default (its
// usage says what unset means).
type blockFlag struct {
	n   uint64
	set bool
}

func (b *blockFlag) String() string {
	if b == nil || !b.set {
		return ""
	}
	return strconv.FormatUint(b.n, 10)
}

func (b *blockFlag) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errors.New("want a block number")
	}
	b.n, b.set = n, true
	return nil
}

// longScan is how many blocks, or events to check, make a scan worth
// telling the progress of.
const (
	longScanBlocks = 5 * history.DefaultSpan
	longScanEvents = 2_000
)

// historyProgress prints a line on stderr at each tenth of a long scan,
// and of its checks, when stderr is a terminal: a script's stderr stays
// quiet.
func (e *env) historyProgress() func(history.Progress) {
	if !e.stderrTerminal {
		return nil
	}
	var scanned, checked int
	return func(p history.Progress) {
		if p.Blocks >= longScanBlocks {
			if tenth := int(p.Scanned * 10 / p.Blocks); tenth > scanned && p.Checked == 0 {
				scanned = tenth
				fmt.Fprintf(e.Stderr, "allot: history: %d%% of %d blocks scanned, %d found\n", tenth*10, p.Blocks, p.Found)
			}
		}
		if p.Found >= longScanEvents && p.Checked > 0 {
			if tenth := p.Checked * 10 / p.Found; tenth > checked {
				checked = tenth
				fmt.Fprintf(e.Stderr, "allot: history: %d of %d checked against their transactions\n", p.Checked, p.Found)
			}
		}
	}
}

// eventJSON is one event as `history -o json` prints it. Amounts are
// exact decimals in token units (ether for the fee), and in base units.
type eventJSON struct {
	Kind        string `json:"kind"`
	Time        string `json:"time"`
	Block       uint64 `json:"block"`
	Transaction string `json:"transaction"`
	LogIndex    uint   `json:"logIndex"`
	Allocation  string `json:"allocation"`
	Vester      string `json:"vester"`
	Sender      string `json:"sender"`
	// A claim's.
	Token          string `json:"token,omitempty"`
	Symbol         string `json:"symbol,omitempty"`
	Amount         string `json:"amount,omitempty"`
	AmountWei      string `json:"amountWei,omitempty"`
	Recipient      string `json:"recipient,omitempty"`
	ThroughHandler *bool  `json:"throughHandler,omitempty"`
	Fee            string `json:"fee,omitempty"`
	FeeWei         string `json:"feeWei,omitempty"`
	Gas            string `json:"gas,omitempty"` // what the claim's gas cost its sender, in ether
	GasWei         string `json:"gasWei,omitempty"`
	// A transfer's.
	NewBeneficiary string `json:"newBeneficiary,omitempty"`
}

type historyOutput struct {
	Allocation string      `json:"allocation,omitempty"`
	Wallet     string      `json:"wallet,omitempty"`
	FromBlock  uint64      `json:"fromBlock"`
	ToBlock    uint64      `json:"toBlock"`
	Events     []eventJSON `json:"events"`
	Warnings   []string    `json:"warnings"`
	Skipped    int         `json:"skipped"`
}

func historyJSON(h *history.History, args []string, addr common.Address) historyOutput {
	out := historyOutput{FromBlock: h.FromBlock, ToBlock: h.ToBlock, Events: []eventJSON{}, Warnings: h.Warnings, Skipped: h.Skipped}
	if len(args) == 1 {
		out.Allocation = args[0]
	} else {
		out.Wallet = addr.Hex()
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	for _, ev := range h.Events {
		j := eventJSON{
			Kind:        string(ev.Kind),
			Time:        isotime.Format(ev.Time),
			Block:       ev.Block,
			Transaction: ev.Tx.Hex(),
			LogIndex:    ev.LogIndex,
			Allocation:  ev.Allocation,
			Vester:      ev.Vester.Hex(),
			Sender:      ev.Sender.Hex(),
		}
		switch ev.Kind {
		case history.Claim:
			handler := ev.Handler
			j.Token, j.Symbol = ev.Token.Hex(), ev.Symbol
			j.Amount, j.AmountWei = wallet.FormatUnits(ev.Amount), ev.Amount.String()
			j.Recipient, j.ThroughHandler = ev.Recipient.Hex(), &handler
			j.Fee, j.FeeWei = wallet.FormatUnits(ev.Fee), ev.Fee.String()
			j.Gas, j.GasWei = wallet.FormatUnits(ev.Gas), ev.Gas.String()
		case history.Transfer:
			j.NewBeneficiary = ev.NewBeneficiary.Hex()
		}
		out.Events = append(out.Events, j)
	}
	return out
}

// writeHistoryCSV writes the claims for a stakeholder's records: the
// time (ISO 8601, UTC), block, transaction, allocation, amount in token
// units, the token's address and its symbol (as upcoming -o csv and the
// JSON of both name them), and the fee paid in ether. The cancel, the
// revoke and transfers move no tokens and are not rows.
func writeHistoryCSV(w io.Writer, h *history.History) error {
	t := newCSV(w, "time", "block", "transaction", "allocation", "amount", "token", "symbol", "feeEther")
	for _, ev := range h.Events {
		if ev.Kind != history.Claim {
			continue
		}
		t.row(isotime.Format(ev.Time), strconv.FormatUint(ev.Block, 10), ev.Tx.Hex(),
			csvText(ev.Allocation), wallet.FormatUnits(ev.Amount), tokenHex(ev.Token), csvText(ev.Symbol), wallet.FormatUnits(ev.Fee))
	}
	return t.flush()
}

// tokenLabel names a claim's token: its symbol, else its address.
func tokenLabel(ev history.Event) string {
	if ev.Symbol != "" {
		return ev.Symbol
	}
	return ev.Token.Hex()
}

// writeHistoryTable prints the events, oldest first; a wallet's, each
// with its allocation, an allocation's with what each event is.
func writeHistoryTable(w io.Writer, h *history.History, byWallet bool) error {
	if len(h.Events) == 0 {
		_, err := fmt.Fprintf(w, "nothing on chain in blocks %d to %d\n", h.FromBlock, h.ToBlock)
		return err
	}
	headers := []string{"TIME (UTC)", "BLOCK", "EVENT", "AMOUNT", "TOKEN", "FEE (ETH)", "TO", "SENT BY", "TRANSACTION"}
	if byWallet {
		headers[2] = "ALLOCATION"
	}
	t := newTable(w, headers...)
	t.alignDecimals(3, 5)
	claims := 0
	for _, ev := range h.Events {
		what, amount, token, fee, to := string(ev.Kind), "-", "", "-", "-"
		switch ev.Kind {
		case history.Claim:
			claims++
			amount, token, fee, to = wallet.FormatTokens(ev.Amount), tokenLabel(ev), wallet.FormatUnits(ev.Fee), ev.Recipient.Hex()
			if ev.Handler {
				what, to = "claim via handler", ev.Recipient.Hex()+" (handler)"
			}
		case history.Transfer:
			what, to = "transfer of beneficiary", ev.NewBeneficiary.Hex()
		}
		if byWallet {
			what = ev.Allocation
		}
		t.row(ev.Time.UTC().Format("2006-01-02 15:04:05"), strconv.FormatUint(ev.Block, 10), what, amount, token, fee, to, ev.Sender.Hex(), ev.Tx.Hex())
	}
	if err := t.flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s, %s in blocks %d to %d\n", count(claims, "claim"), count(len(h.Events), "event"), h.FromBlock, h.ToBlock)
	return err
}

// count writes n things: "1 claim", "2 claims".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
