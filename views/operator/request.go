package operator

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"allot/api"
	"allot/internal/sanitize"
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
		amount, _ := api.ParseAmount(r.amount.Value())
		req.Data = append(req.Data, api.FundItem{AllocationID: strings.TrimSpace(r.id.Value()), Amount: amount})
	}
	return req
}

// fieldOf maps a field error's path to the form field it names, and a
// prefix that says which item of a list it is about; nil for a path that
// names no field.
func (o *operator) fieldOf(path string) (*widget.FormField, string) {
	if name, index, rest, ok := splitIndexed(path); ok {
		switch {
		case name == "allocationIds" && o.allocationIDs != nil && rest == "":
			return o.allocationIDs, fmt.Sprintf("id %d: ", index+1)
		case name == "data" && index < len(o.rows) && rest == ".amount":
			return o.rows[index].amount, ""
		case name == "data" && index < len(o.rows):
			return o.rows[index].id, ""
		}
		return nil, ""
	}
	if path == "data" && len(o.rows) > 0 {
		return o.rows[0].id, ""
	}
	if path == "" {
		return nil, ""
	}
	return o.form.Field(path), ""
}

// splitIndexed reads "name[i]rest".
func splitIndexed(path string) (name string, index int, rest string, ok bool) {
	open := strings.IndexByte(path, '[')
	end := strings.IndexByte(path, ']')
	if open <= 0 || end < open {
		return "", 0, "", false
	}
	i, err := strconv.Atoi(path[open+1 : end])
	if err != nil || i < 0 {
		return "", 0, "", false
	}
	return path[:open], i, path[end+1:], true
}

// fieldErr is f's error as the api package sees the request now.
func (o *operator) fieldErr(f *widget.FormField) error {
	for _, r := range o.rows {
		if r.amount == f {
			if _, err := views.TokenAmount(f.Value()); err != nil {
				return err
			}
		}
	}
	var msgs []string
	for _, fe := range validationFields(o.build().Validate()) {
		if g, prefix := o.fieldOf(fe.Path); g == f {
			msgs = append(msgs, prefix+fe.Message)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

func validationFields(err error) []api.FieldError {
	var v *api.ValidationError
	if errors.As(err, &v) {
		return v.Fields
	}
	if err != nil {
		return []api.FieldError{{Message: err.Error()}}
	}
	return nil
}

// markFields shows each field error under its field, focuses the first
// marked field and returns the messages that name no field.
func (o *operator) markFields(fields []api.FieldError) []string {
	var loose []string
	msgs := map[*widget.FormField][]string{}
	for _, fe := range fields {
		f, prefix := o.fieldOf(fe.Path)
		if f == nil {
			loose = append(loose, sanitize.Line(fe.String()))
			continue
		}
		msgs[f] = append(msgs[f], prefix+fe.Message)
	}
	first := -1
	for i, f := range o.form.Fields() {
		if m, ok := msgs[f]; ok {
			f.SetErr(errors.New(strings.Join(m, "; ")))
			if first < 0 {
				first = i
			}
		}
	}
	if first >= 0 {
		o.form.Focus(first)
	}
	return loose
}
