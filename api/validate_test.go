package api

import (
	"encoding/json"
	"strings"
	"testing"
)

func num(s string) Number { n, _ := ParseAmount(s); return n }

func ptr[T any](v T) *T { return &v }

func validSchedule() ScheduleRequest {
	return ScheduleRequest{
		TokenID: tokenID, Name: "Team", Description: "4y", UnlockAtStart: num("0.1"),
		Cliff: CliffRequest{Value: num("0.2"), Duration: num("12")}, RoundingMode: "FLOOR",
		Pieces: []SchedulePiece{{Name: "monthly", Portion: num("0.7"),
			Periodic: &PeriodConf{Length: ValueOf{num("36")}, Frequency: ValueOf{num("1")}, DayOfMonth: 1}}},
	}
}

func TestValidationRules(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"initialize ok", (&InitializeRequest{ContractID: tokenID, AdminWalletID: otherID}).Validate(), ""},
		{"initialize missing", (&InitializeRequest{ContractID: tokenID}).Validate(), "adminWalletId: is required"},
		{"initialize malformed", (&InitializeRequest{ContractID: "nope", AdminWalletID: otherID}).Validate(), `contractId: "nope" is not a UUID`},
		{"uuid in braces", (&InitializeRequest{ContractID: "{" + tokenID + "}", AdminWalletID: otherID}).Validate(), "is not a UUID"},
		{"start ok", (&StartDistributionRequest{ContractID: tokenID, TokenID: tokenID, AllocationIDs: []string{otherID}}).Validate(), ""},
		{"start no allocations", (&StartDistributionRequest{ContractID: tokenID, TokenID: tokenID}).Validate(), "allocationIds: must hold at least 1 item"},
		{"start bad allocation", (&StartDistributionRequest{ContractID: tokenID, TokenID: tokenID, AllocationIDs: []string{otherID, "x"}}).Validate(), "allocationIds[1]"},
		{"start empty memo", (&StartDistributionRequest{ContractID: tokenID, TokenID: tokenID, AllocationIDs: []string{otherID}, Memo: ptr("")}).Validate(), "memo: must not be empty"},
		{"start bad admin", (&StartDistributionRequest{ContractID: tokenID, TokenID: tokenID, AllocationIDs: []string{otherID}, AdminWalletID: ptr("x")}).Validate(), "adminWalletId"},
		{"fund ok", (&FundDistributionRequest{TokenID: tokenID, Data: []FundItem{{otherID, num("1.5")}}}).Validate(), ""},
		{"fund empty", (&FundDistributionRequest{TokenID: tokenID}).Validate(), "data: must hold at least 1 item"},
		{"fund zero", (&FundDistributionRequest{TokenID: tokenID, Data: []FundItem{{otherID, num("1")}, {otherID, num("1")}, {otherID, num("0")}}}).Validate(), "data[2].amount: must be greater than 0"},
		{"fund negative", (&FundDistributionRequest{TokenID: tokenID, Data: []FundItem{{otherID, num("-1")}}}).Validate(), "data[0].amount: must be greater than 0"},
		{"schedule ok", func() error { r := validSchedule(); return r.Validate() }(), ""},
		{"schedule sum", func() error { r := validSchedule(); r.Pieces[0].Portion = num("0.6"); return r.Validate() }(), "add up to 0.9, not 1"},
		{"schedule fraction", func() error { r := validSchedule(); r.UnlockAtStart = num("1.5"); return r.Validate() }(), "unlockAtStart: must be a fraction"},
		{"schedule no pieces", func() error { r := validSchedule(); r.Pieces = nil; return r.Validate() }(), "pieces: must hold at least 1 item"},
		{"schedule both confs", func() error {
			r := validSchedule()
			r.Pieces[0].OneOff = &OneOffConf{DayOfMonth: 1}
			return r.Validate()
		}(), "has both"},
		{"schedule day", func() error { r := validSchedule(); r.Pieces[0].Periodic.DayOfMonth = 31; return r.Validate() }(), "dayOfMonth: must be a day from 1 to 28"},
		{"schedule rounding", func() error { r := validSchedule(); r.RoundingMode = "CEIL"; return r.Validate() }(), "roundingMode: must be FLOOR"},
		{"schedule empty name", func() error { r := validSchedule(); r.Name = ""; return r.Validate() }(), "name: must not be empty"},
		{"stakes bad wallet", StakesRequest{StakingPoolID: tokenID, WalletAddress: "0x12"}.Validate(), "walletAddress"},
		{"upload ok", UploadURLRequest{FileName: "a.png", ContentType: "image/png", PortalSlug: "demo"}.Validate(), ""},
		{"upload dotfile", UploadURLRequest{FileName: ".env", ContentType: "image/png", PortalSlug: "demo"}.Validate(), "fileName"},
		{"upload path", UploadURLRequest{FileName: "../a.png", ContentType: "image/png", PortalSlug: "demo"}.Validate(), "fileName"},
		{"upload type", UploadURLRequest{FileName: "a.svg", ContentType: "image/svg+xml", PortalSlug: "demo"}.Validate(), "contentType"},
		{"upload slug", UploadURLRequest{FileName: "a.png", ContentType: "image/png", PortalSlug: "Demo Portal"}.Validate(), "portalSlug"},
		{"creative size", CheckCreativeSize(MaxCreativeSize + 1), "more than the 50 MiB"},
		{"creative empty", CheckCreativeSize(0), "file: is empty"},
		{"claim ok", ClaimRequest{Sender: "0x" + strings.Repeat("ab", 20), Amount: ptr(num("1"))}.Validate(otherID), ""},
		{"claim sender", ClaimRequest{Sender: "alice"}.Validate(otherID), "sender"},
		{"claim country", ClaimRequest{Sender: "0x" + strings.Repeat("ab", 20), UserCountryCode: "usa"}.Validate(otherID), "userCountryCode"},
		{"claim zero", ClaimRequest{Sender: "0x" + strings.Repeat("ab", 20), Amount: ptr(num("0"))}.Validate(otherID), "amount: must be greater than 0"},
		{"claim id", ClaimRequest{Sender: "0x" + strings.Repeat("ab", 20)}.Validate("42"), "id:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch {
			case tt.want == "" && tt.err != nil:
				t.Errorf("unexpected error: %v", tt.err)
			case tt.want != "" && (tt.err == nil || !strings.Contains(tt.err.Error(), tt.want)):
				t.Errorf("error %v, want %q", tt.err, tt.want)
			}
		})
	}
}

func TestTransactionBodies(t *testing.T) {
	body, _ := json.Marshal(&FundDistributionRequest{TokenID: tokenID, Data: []FundItem{{otherID, num("1000000000000000000000.000000000000000001")}}})
	want := `{"action":"FUND_DISTRIBUTION","tokenId":"` + tokenID + `","data":[{"allocationId":"` + otherID + `","amount":1000000000000000000000.000000000000000001}]}`
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	var start StartDistributionRequest
	if err := json.Unmarshal([]byte(`{"action":"START_DISTRIBUTION","contractId":"a","tokenId":"b","allocationIds":["c"]}`), &start); err != nil || start.ContractID != "a" {
		t.Errorf("read body: %v %+v", err, start)
	}
	if err := json.Unmarshal([]byte(`{"action":"INITIALIZE","contractId":"a"}`), &start); err == nil {
		t.Error("body of another action accepted")
	}
	if err := json.Unmarshal([]byte(`{"contractId":"a","alocationIds":["c"]}`), &start); err == nil {
		t.Error("misspelt field accepted")
	}
}

func TestAmounts(t *testing.T) {
	for in, want := range map[string]string{`"12.50"`: "12.5", `12.50`: "12.5", `"0.000000000000000001"`: "0.000000000000000001", `1e3`: "1000"} {
		var d Decimal
		if err := json.Unmarshal([]byte(in), &d); err != nil || d.String() != want {
			t.Errorf("%s -> %s, %v", in, d.String(), err)
		}
	}
	for _, bad := range []string{`"abc"`, `"1e5"`, `1e100000`, `"` + strings.Repeat("9", MaxAmountDigits+1) + `"`, `true`} {
		var d Decimal
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("%s accepted as %s", bad, d.String())
		}
	}
	if _, err := ParseAmount("1,5"); err == nil {
		t.Error("1,5 accepted")
	}
}
