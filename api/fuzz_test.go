package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzDecodeResponse feeds arbitrary statuses and bodies to the decoder:
// it never panics, and what it returns is a value or one of our typed
// errors, with a message that is safe to print.
func FuzzDecodeResponse(f *testing.F) {
	f.Add(200, []byte(`{"isProcessed":true,"result":{"items":[{"id":"a","balance":"1.5"}],"total":1}}`), false)
	f.Add(400, []byte(`{"isProcessed":false,"error":{"type":"ValidationError","details":[{"path":"x","message":"y"}]}}`), false)
	f.Add(502, []byte("<html>bad gateway</html>"), false)
	f.Add(404, []byte(`{"error":"STAKING_POOL_NOT_FOUND"}`), true)
	f.Fuzz(func(t *testing.T, status int, body []byte, portal bool) {
		if status < 100 || status > 999 {
			return
		}
		var out List[Contract]
		err := decode(call{op: "contracts", portal: portal}, status, body, &out)
		if err == nil {
			return
		}
		var (
			v *ValidationError
			s *StatusError
			u *UnexpectedResponseError
		)
		if !errors.As(err, &v) && !errors.As(err, &s) && !errors.As(err, &u) {
			t.Fatalf("untyped error %T: %v", err, err)
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Fatalf("escape in message %q", err)
		}
	})
}

// FuzzValidate fills requests with arbitrary values: validation never
// panics, and what it accepts has canonical ids and positive amounts.
func FuzzValidate(f *testing.F) {
	f.Add(tokenID, otherID, "1.5", "0xabababababababababababababababababababab", "US")
	f.Add("", "x", "0", "", "usa")
	f.Fuzz(func(t *testing.T, id1, id2, amount, address, country string) {
		n, err := ParseAmount(amount)
		if err != nil {
			n = Number{}
		}
		fund := &FundDistributionRequest{TokenID: id1, Data: []FundItem{{AllocationID: id2, Amount: n}}}
		if fund.Validate() == nil {
			if !isUUID(id1) || !isUUID(id2) || !n.IsPositive() {
				t.Fatalf("accepted %q %q %q", id1, id2, amount)
			}
			if _, err := json.Marshal(fund); err != nil {
				t.Fatalf("accepted body does not encode: %v", err)
			}
		}
		claim := ClaimRequest{Sender: address, UserCountryCode: country, Amount: &n}
		if claim.Validate(id1) == nil && (!isAddress(address) || !isUUID(id1)) {
			t.Fatalf("claim accepted %q %q", address, id1)
		}
		start := &StartDistributionRequest{ContractID: id1, TokenID: id2, AllocationIDs: []string{id1, id2}, Memo: &country}
		_ = start.Validate()
		_ = UploadURLRequest{FileName: id1, ContentType: id2, PortalSlug: country}.Validate()
	})
}

// FuzzRedactBody: redaction never panics, and a token in a valid body,
// whatever surrounds it, is never shown.
func FuzzRedactBody(f *testing.F) {
	f.Add([]byte(`{"accessToken":"x"}`))
	f.Add([]byte(`[1,{"b":"c"},"accessToken"]`))
	f.Add([]byte(`"\u0061"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		redactBody(b)
		doc := append(append([]byte(`{"a":`), b...), `,"accessToken":"SECRETVALUE"}`...)
		if json.Valid(doc) && len(doc) <= MaxExchangeBody && bytes.Contains(redactBody(doc), []byte("SECRETVALUE")) {
			t.Fatalf("token shown in %q", redactBody(doc))
		}
	})
}

// FuzzDecimalJSON feeds any JSON value to Decimal and Number: a value is
// refused with a short message or accepted with at most MaxAmountDigits
// digits, and what is accepted reads back equal from what it writes.
func FuzzDecimalJSON(f *testing.F) {
	for _, s := range []string{`"12.50"`, `12.50`, `1e3`, `-1.5E-3`, `1e999999999`, `"1e5"`, `null`, `0.0e-0`, `"-0"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var n Number
		if err := n.UnmarshalJSON(data); err != nil {
			if len(err.Error()) > 200 || strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("message %q", err)
			}
			return
		}
		written := strings.Count(n.String(), "") - 1 - strings.Count(n.String(), ".") - strings.Count(n.String(), "-")
		if written > MaxAmountDigits {
			t.Fatalf("%q accepted with %d digits", data, written)
		}
		var d Decimal
		if err := d.UnmarshalJSON(data); err != nil || !d.Equal(n.Decimal) {
			t.Fatalf("Decimal and Number disagree on %q: %v", data, err)
		}
		for _, v := range []json.Marshaler{n, d} {
			out, err := v.MarshalJSON()
			var back Number
			if err != nil || back.UnmarshalJSON(out) != nil || !back.Equal(n.Decimal) {
				t.Fatalf("%q wrote %s, which does not read back: %v", data, out, err)
			}
		}
	})
}

// FuzzClaimAnswer feeds arbitrary claim answers (D7) to the decoder and
// the instruction reader: no panic, a typed error or a result, and every
// instruction read as an EVM call has the shape signing relies on.
func FuzzClaimAnswer(f *testing.F) {
	f.Add([]byte(`{"isProcessed":true,"result":{"__type":"EvmTransactionGroupParameters","parameters":[{"transactionId":"t","instructions":[{"chainId":31337,"from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002","data":"0xabcd","value":"0"}]}]}}`))
	f.Add([]byte(`{"__type":"SolanaInstructions","parameters":[{"instructions":[{"programId":"x"}]}]}`))
	f.Add([]byte(`{"parameters":[{"instructions":[{"chainId":1e3,"to":"0x0000000000000000000000000000000000000002","data":"0x","value":"1.5"}]}]}`))
	f.Add([]byte(`{"parameters":[{"instructions":[null,{"chainId":-1,"to":"0x","data":"0xzz","value":"-1"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var res ClaimResult
		err := decode(call{op: "allocations/claim"}, 200, body, &res)
		if err != nil {
			var (
				u *UnexpectedResponseError
				s *StatusError
				v *ValidationError
			)
			if !errors.As(err, &u) && !errors.As(err, &s) && !errors.As(err, &v) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if len(err.Error()) > 400 || strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("message %q", err)
			}
			return
		}
		for _, g := range res.Parameters {
			for _, ins := range g.Instructions {
				e, ok := ins.EVM()
				if !ok {
					continue
				}
				if !isAddress(e.To) || e.ChainID == 0 || !strings.HasPrefix(e.Data, "0x") || !isHex(e.Data[2:]) {
					t.Fatalf("accepted %+v", e)
				}
				if e.Value == "" || len(e.Value) > maxWeiDigits || !allDigits(e.Value) {
					t.Fatalf("accepted value %q", e.Value)
				}
				if _, err := json.Marshal(ins); err != nil {
					t.Fatalf("instruction does not encode again: %v", err)
				}
			}
		}
	})
}
