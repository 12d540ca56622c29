package operator

import (
	"strings"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// splitIDs reads a list of ids separated by commas or white space.
func splitIDs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
}

func optional(f *widget.FormField) *string {
	v := strings.TrimSpace(f.Value())
	if v == "" {
		return nil
	}
	return &v
}

// build makes the request from the form. An amount that does not parse is
// zero here; its field shows the parse error.
func (o *operator) build() api.TransactionRequest {
	switch o.action {
	case api.ActionInitialize:
		return &api.InitializeRequest{
			ContractID:    strings.TrimSpace(o.contractID.Value()),
			AdminWalletID: strings.TrimSpace(o.adminWallet.Value()),
		}
	case api.ActionStartDistribution:
		return &api.StartDistributionRequest{
			ContractID:    strings.TrimSpace(o.contractID.Value()),
			TokenID:       strings.TrimSpace(o.tokenID.Value()),
			AllocationIDs: splitIDs(o.allocationIDs.Value()),
			AdminWalletID: optional(o.adminWallet),
			Memo:          optional(o.memo),
		}
	}
	req := &api.FundDistributionRequest{TokenID: strings.TrimSpace(o.tokenID.Value())}
	if o.isTest.Value() == "yes" {
		yes := true
		req.IsTest = &yes
	}
	for _, r := range o.rows {
		amount, _ := api.ParseTokenAmount(r.amount.Value()) // grouped or not, as its field takes it
		req.Data = append(req.Data, api.FundItem{AllocationID: strings.TrimSpace(r.id.Value()), Amount: amount})
	}
	return req
}

// fieldErr is f's error as the api package sees the request now.
func (o *operator) fieldErr(f *widget.FormField) error {
	for _, r := range o.rows {
		if r.amount == f {
			if _, err := api.ParseTokenAmount(f.Value()); err != nil {
				return err
			}
		}
	}
	return views.ErrorOf(o.form, f, o.build().Validate())
}
