package write

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"allot/api"
	"allot/internal/sanitize"
)

// The operations writes are journaled under, as the command line names
// them: the registry's keys.
const (
	OpTransaction = "transactions/create"
	OpSchedule    = "schedules/create"
	OpUploadURL   = "portals/creatives/upload-url"
	OpCreative    = "portals/creatives/create"
	OpClaim       = "allocations/claim"
)

// cannot begins why a deployment without a ledger cannot tell whether it
// applied a write: the service's interface (docs/deployment.md) creates
// transactions, schedules, creatives and claim transactions, and has no
// operation that lists or reads back any of them.
const cannot = "this service's interface cannot say whether it applied a write"

// field is a described value, made safe for a terminal: a body was typed
// or pasted, and the journal is a file.
func field(label, value string) Field { return Field{Label: label, Value: sanitize.Line(value)} }

// some says how many ids there are, and names the first few: a
// distribution may start with thousands.
func some(ids []string) string {
	const named = 3
	if len(ids) <= named {
		return fmt.Sprintf("%d: %s", len(ids), strings.Join(ids, ", "))
	}
	return fmt.Sprintf("%d: %s, …", len(ids), strings.Join(ids[:named], ", "))
}

// Transaction is a transaction request (transactions/create): its ref is
// its action, which is also its label.
var Transaction = &Def[api.TransactionRequest, *api.TransactionsResult]{
	Op: OpTransaction,
	New: func(action string) (api.TransactionRequest, bool) {
		req := api.NewTransactionRequest(action)
		return req, req != nil
	},
	Describe: func(_ string, req api.TransactionRequest) []Field {
		switch r := req.(type) {
		case *api.InitializeRequest:
			return []Field{field("Contract", r.ContractID), field("Admin wallet", r.AdminWalletID)}
		case *api.StartDistributionRequest:
			return []Field{field("Contract", r.ContractID), field("Token", r.TokenID), field("Allocations", some(r.AllocationIDs))}
		case *api.FundDistributionRequest:
			total := decimal.Zero
			for _, d := range r.Data {
				total = total.Add(d.Amount.Decimal)
			}
			return []Field{field("Token", r.TokenID), field("Allocations funded", fmt.Sprint(len(r.Data))), field("Total", total.String())}
		}
		return nil
	},
	Send: func(ctx context.Context, c *api.Client, _ string, req api.TransactionRequest) (*api.TransactionsResult, error) {
		return c.CreateTransaction(ctx, req)
	},
	Outcome: func(res *api.TransactionsResult) (string, any) { return res.Statuses(), res },
	Said: func(_ string, res *api.TransactionsResult) []string {
		out := []string{fmt.Sprintf("The service created %d transaction(s):", len(res.Transactions))}
		for _, tx := range res.Transactions {
			shown, _ := tx.Shown()
			out = append(out, sanitize.Line(tx.TransactionID)+"  "+sanitize.Line(shown))
		}
		return out
	},
	// Listed as the operator's result page and `allot tx` show them: no
	// call reports a change of the PENDING it answers.
	Lists: func(res *api.TransactionsResult) []Created {
		out := make([]Created, 0, len(res.Transactions))
		for _, tx := range res.Transactions {
			shown, _ := tx.Shown()
			out = append(out, Created{ID: tx.TransactionID, Status: shown})
		}
		return out
	},
	NoReadBack: cannot + ": it creates transactions and has no operation that lists or reads one back",
}

// Schedule is an unlock schedule (schedules/create): its ref is its name.
var Schedule = &Def[api.ScheduleRequest, *api.Schedule]{
	Op:    OpSchedule,
	Label: "schedule",
	Describe: func(_ string, req api.ScheduleRequest) []Field {
		return []Field{field("Schedule", req.Name), field("Token", req.TokenID), field("Pieces", fmt.Sprint(len(req.Pieces)))}
	},
	Send: func(ctx context.Context, c *api.Client, _ string, req api.ScheduleRequest) (*api.Schedule, error) {
		return c.CreateSchedule(ctx, req)
	},
	Outcome: func(res *api.Schedule) (string, any) { return res.Key, res },
	Said: func(_ string, res *api.Schedule) []string {
		return []string{"Created schedule " + sanitize.Line(res.Name) + ".", "Key          " + sanitize.Line(res.Key)}
	},
	NoReadBack: cannot + ": it creates schedules and has no operation that lists them; sent again, a second one may be created",
}

// UploadURL asks where to upload a creative (portals/creatives/upload-url):
// its ref names the file. Its answer is not journaled: an upload URL is a
// capability.
var UploadURL = &Def[api.UploadURLRequest, *api.UploadURL]{
	Op:    OpUploadURL,
	Label: "creative upload URL",
	Describe: func(_ string, req api.UploadURLRequest) []Field {
		return []Field{field("File", req.FileName), field("Content type", req.ContentType), field("Portal", req.PortalSlug)}
	},
	Send: func(ctx context.Context, c *api.Client, _ string, req api.UploadURLRequest) (*api.UploadURL, error) {
		return c.CreativeUploadURL(ctx, req)
	},
	Outcome:    func(*api.UploadURL) (string, any) { return "", nil },
	NoReadBack: cannot + ": it lists no upload URLs; one changes nothing by itself",
	NoResend:   "an upload URL changes nothing by itself: upload the file again (:creative, or allot creative upload)",
}

// Creative registers an uploaded creative (portals/creatives/create): its
// ref names the file.
var Creative = &Def[api.CreateCreativeRequest, *api.Creative]{
	Op:    OpCreative,
	Label: "creative",
	Describe: func(file string, req api.CreateCreativeRequest) []Field {
		return []Field{field("File", file), field("Name", req.Name), field("Storage key", req.StorageKey)}
	},
	Send: func(ctx context.Context, c *api.Client, _ string, req api.CreateCreativeRequest) (*api.Creative, error) {
		return c.CreateCreative(ctx, req)
	},
	Outcome: func(res *api.Creative) (string, any) { return "created", res },
	Said: func(file string, res *api.Creative) []string {
		return []string{"Registered " + sanitize.Line(file) + ".", "Public URL   " + sanitize.Line(res.PublicURL), "ID           " + sanitize.Line(res.ID)}
	},
	NoReadBack: cannot + ": it registers creatives and has no operation that lists them; sent again, the asset may be registered twice",
}

// Claim asks for the claim transactions of an allocation
// (allocations/{id}/claim): its ref is the allocation's id. Sending it
// signs nothing: the transactions it answers with are signed from the
// allocation's claim.
var Claim = &Def[api.ClaimRequest, *api.ClaimResult]{
	Op:    OpClaim,
	Label: "claim request",
	Path:  func(allocationID string) string { return "allocations/" + allocationID + "/claim" },
	Describe: func(allocationID string, req api.ClaimRequest) []Field {
		amount := "all that is claimable"
		if req.Amount != nil {
			amount = req.Amount.String()
		}
		out := []Field{field("Allocation", allocationID), field("Sender", req.Sender), field("Amount", amount)}
		if req.UserCountryCode != "" {
			out = append(out, field("Country", req.UserCountryCode))
		}
		return out
	},
	Send: func(ctx context.Context, c *api.Client, allocationID string, req api.ClaimRequest) (*api.ClaimResult, error) {
		return c.Claim(ctx, allocationID, req)
	},
	Outcome: func(res *api.ClaimResult) (string, any) { return "", res },
	Said: func(allocationID string, res *api.ClaimResult) []string {
		return []string{fmt.Sprintf("The service answered with %d transaction(s) to sign for allocation %s. Nothing was signed: "+
			"to review and sign them, look the allocation up and claim.", len(res.Parameters), sanitize.Line(allocationID))}
	},
	NoReadBack: cannot + ": it builds claim transactions and lists none; no tokens moved for this request, " +
		"as they move only once signed and allot signed none for it",
}
