package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"allot/api"
)

// txCommand builds one of the `allot tx ACTION` commands: each field of the
// action as a flag, or the whole body from --body FILE.
func txCommand(action, sub, args, summary string, declare func(fs *flag.FlagSet) func() (api.TransactionRequest, error)) command {
	return command{
		name:    "tx " + sub,
		args:    args + " [--body FILE] [-o json]",
		summary: summary,
		flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			global := map[string]bool{}
			fs.VisitAll(func(f *flag.Flag) { global[f.Name] = true })
			a := txArgs{sub: sub, action: action, build: declare(fs)}
			fs.StringVar(&a.body, "body", "", "read the request body from the JSON `FILE` instead of flags")
			declareOutput(fs, &a.out)
			return func(ctx context.Context, rest []string) error {
				if err := noArgs(rest); err != nil {
					return err
				}
				fs.Visit(func(f *flag.Flag) {
					if !global[f.Name] && f.Name != "body" && f.Name != "o" {
						a.fields = append(a.fields, "--"+f.Name)
					}
				})
				return e.createTransaction(ctx, a)
			}
		},
	}
}

// txArgs is what an `allot tx ACTION` command was asked, as its flags
// say it.
type txArgs struct {
	sub    string // the command's name after tx
	action string // the request's action
	// build makes the request from the fields' flags.
	build  func() (api.TransactionRequest, error)
	fields []string // the fields' flags that were set, as --name
	body   string   // the request's file, instead of the fields' flags
	out    format
}

// createTransaction resolves the request, warns of an allocation funded
// twice, and asks the service to create the transaction(s).
func (e *env) createTransaction(ctx context.Context, a txArgs) error {
	req, err := a.resolve(ctx, e)
	if err != nil {
		return err
	}
	if w := repeatedItems(req, a.body != ""); w != "" {
		fmt.Fprintf(e.Stderr, "allot: warning: tx %s: %s\n", a.sub, w)
	}
	s, err := e.open(ctx, opening{write: true})
	if err != nil {
		return err
	}
	res, err := s.rec.CreateTransaction(ctx, s.API, req)
	if err != nil {
		return err
	}
	if a.out == formatJSON {
		return writeJSON(e.Stdout, res)
	}
	return writeCreated(e.Stdout, res)
}

// resolve reads the request from --body, or builds it from the fields'
// flags with a token's name made its id, and checks it. Nothing is sent.
func (a txArgs) resolve(ctx context.Context, e *env) (api.TransactionRequest, error) {
	if a.body != "" {
		// A field's flag beside --body would be dropped without a word:
		// refuse it.
		if len(a.fields) > 0 {
			return nil, usagef("tx %s: --body is the whole request: drop %s, or write it in the file", a.sub, strings.Join(a.fields, " "))
		}
		req, err := readTransactionBody(a.body, a.action)
		if err != nil {
			return nil, err
		}
		if err := req.Validate(); err != nil {
			return nil, err
		}
		return req, nil
	}
	req, err := a.build()
	if err != nil {
		return nil, err
	}
	if err := e.tokenByName(ctx, req); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, typed(err, txFlagNames)
	}
	return req, nil
}

// txTokenHelp is the help of a tx command's --token, which takes what
// contracts, pools and stakes take.
const txTokenHelp = "token `ID`, or a name or symbol from the profile's token_names"

// tokenByName puts the id of the token a request's --token names (MRD,
// Meridian) in its place, as contracts, pools and stakes accept them; an
// id, or no token (which the request's check refuses), stays as it is.
func (e *env) tokenByName(ctx context.Context, req api.TransactionRequest) error {
	var ref *string
	switch r := req.(type) {
	case *api.StartDistributionRequest:
		ref = &r.TokenID
	case *api.FundDistributionRequest:
		ref = &r.TokenID
	}
	if ref == nil || *ref == "" || api.CheckUUID("token", *ref) == nil {
		return nil
	}
	s, err := e.open(ctx, opening{token: ref})
	if err != nil {
		return err
	}
	*ref = s.token
	return nil
}

// txFlagNames names the fields of a transaction request as the tx
// commands' flags set them.
var txFlagNames = map[string]string{
	"contractId":          "--contract",
	"adminWalletId":       "--admin-wallet",
	"tokenId":             "--token",
	"allocationIds":       "--allocation",
	"allocationIds[]":     "--allocation %d",
	"memo":                "--memo",
	"data":                "--item",
	"data[].allocationId": "--item %d's allocation",
	"data[].amount":       "--item %d's amount",
}

// writeCreated prints the transactions the service created as the
// dashboard's Transactions screen shows them: CREATED for the PENDING the
// interface never updates, and what that means. Any other status is the
// service's own word, printed as it came.
func writeCreated(w io.Writer, res *api.TransactionsResult) error {
	if len(res.Transactions) == 0 {
		_, err := fmt.Fprintln(w, "The service answered with no transactions.")
		return err
	}
	t := newTable(w, "TRANSACTION", "STATUS")
	created := false
	for _, tx := range res.Transactions {
		status, isCreated := tx.Shown()
		created = created || isCreated
		t.row(tx.TransactionID, status)
	}
	if err := t.flush(); err != nil {
		return err
	}
	if created {
		if _, err := fmt.Fprintf(w, "%s: %s.\n", api.TransactionCreated, api.TransactionCreatedNote); err != nil {
			return err
		}
	}
	return nil
}

func readTransactionBody(path, action string) (api.TransactionRequest, error) {
	req := api.NewTransactionRequest(action)
	if err := readBody(path, req); err != nil {
		return nil, err
	}
	if got := req.Action(); got != action {
		return nil, usagef("--body %s is a %s request, not %s", path, got, action)
	}
	return req, nil
}

var txInitializeCommand = txCommand(api.ActionInitialize, "initialize",
	"--contract ID --admin-wallet ID", "create the transaction that initializes a contract",
	func(fs *flag.FlagSet) func() (api.TransactionRequest, error) {
		contract := fs.String("contract", "", "contract `ID`")
		admin := fs.String("admin-wallet", "", "admin wallet `ID`")
		return func() (api.TransactionRequest, error) {
			return &api.InitializeRequest{ContractID: *contract, AdminWalletID: *admin}, nil
		}
	})

var txStartCommand = txCommand(api.ActionStartDistribution, "start",
	"--contract ID --token ID --allocation ID... [--admin-wallet ID] [--memo TEXT]",
	"create the transaction that starts a distribution",
	func(fs *flag.FlagSet) func() (api.TransactionRequest, error) {
		contract := fs.String("contract", "", "contract `ID`")
		token := fs.String("token", "", txTokenHelp)
		var allocations listFlag
		fs.Var(&allocations, "allocation", "allocation `ID` (repeat, or separate with commas)")
		admin := fs.String("admin-wallet", "", "admin wallet `ID` (optional)")
		memo := fs.String("memo", "", "memo `TEXT` (optional)")
		return func() (api.TransactionRequest, error) {
			req := &api.StartDistributionRequest{ContractID: *contract, TokenID: *token, AllocationIDs: allocations}
			if *admin != "" {
				req.AdminWalletID = admin
			}
			if *memo != "" {
				req.Memo = memo
			}
			return req, nil
		}
	})

var txFundCommand = txCommand(api.ActionFundDistribution, "fund",
	"--token ID --item ALLOCATION_ID=AMOUNT... [--test]",
	"create the transactions that fund allocations directly",
	func(fs *flag.FlagSet) func() (api.TransactionRequest, error) {
		token := fs.String("token", "", txTokenHelp)
		var items listFlag
		fs.Var(&items, "item", "`ALLOCATION_ID=AMOUNT` to fund (repeat, or separate by commas, for several; amounts without grouping: 1000)")
		test := fs.Bool("test", false, "mark the funding as a test (isTest)")
		return func() (api.TransactionRequest, error) {
			req := &api.FundDistributionRequest{TokenID: *token}
			if *test {
				req.IsTest = test
			}
			for i, item := range items {
				id, amount, ok := strings.Cut(item, "=")
				if !ok && i > 0 && strings.Contains(items[i-1], "=") {
					// "ID=1,000" was split at its grouping comma.
					return nil, usagef("--item %q: want ALLOCATION_ID=AMOUNT; a comma separates items, so write an amount without grouping: 1000, not 1,000", item)
				}
				if !ok {
					return nil, usagef("--item %q: want ALLOCATION_ID=AMOUNT", item)
				}
				a, err := api.ParseAmount(amount)
				if err != nil {
					return nil, usagef("--item %d (%s): %v", i+1, id, err)
				}
				req.Data = append(req.Data, api.FundItem{AllocationID: id, Amount: a})
			}
			return req, nil
		}
	})

// repeatedItems warns of two items of a funding for one allocation
// (api.RepeatedAllocation), as the dashboard's form and review do, naming
// them as they were given: --item flags counted from 1, or the body's
// data entries.
func repeatedItems(req api.TransactionRequest, fromBody bool) string {
	fund, ok := req.(*api.FundDistributionRequest)
	if !ok {
		return ""
	}
	ids := make([]string, len(fund.Data))
	for i, item := range fund.Data {
		ids[i] = item.AllocationID
	}
	i, j, ok := api.RepeatedAllocation(ids)
	switch {
	case !ok:
		return ""
	case fromBody:
		return fmt.Sprintf("data[%d] and data[%d] fund the same allocation: it is funded twice", i, j)
	}
	return fmt.Sprintf("--item %d and --item %d fund the same allocation: it is funded twice", i+1, j+1)
}

// listFlag is a flag that may be repeated, and whose values may also be
// comma-separated: --allocation A --allocation B, or --allocation A,B.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}
