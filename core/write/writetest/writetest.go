// Package writetest journals a write of every kind the registry
// (core/write) knows, for the tests of what lists, describes and
// reopens them: a kind added without a sample here fails them.
package writetest

import (
	"errors"
	"io"
	"testing"

	"allot/api"
	"allot/core/act"
	"allot/core/write"
)

// Sample is a request of a kind, about Ref, as a user could send it.
type Sample struct {
	Ref string
	Req any
}

// Samples are a request of every kind, by operation.
func Samples() map[string]Sample {
	n := func(s string) api.Number {
		v, err := api.ParseAmount(s)
		if err != nil {
			panic(err)
		}
		return v
	}
	return map[string]Sample{
		write.OpTransaction: {api.ActionInitialize, &api.InitializeRequest{ContractID: "contract-1", AdminWalletID: "wallet-1"}},
		write.OpSchedule: {"Team", api.ScheduleRequest{TokenID: "token-1", Name: "Team", Description: "4 years",
			UnlockAtStart: n("0"), Cliff: api.CliffRequest{Value: n("0.25"), Duration: n("12")}, RoundingMode: "FLOOR",
			Pieces: []api.SchedulePiece{{Name: "monthly", Portion: n("0.75"), StartDelay: api.ValueOf{Value: n("12")},
				Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("36")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}}}},
		write.OpUploadURL: {"logo.png", api.UploadURLRequest{FileName: "logo.png", ContentType: "image/png", PortalSlug: "portal"}},
		write.OpCreative:  {"logo.png", api.CreateCreativeRequest{StorageKey: "portal-assets/portal/logo.png", Name: "Logo"}},
		write.OpClaim:     {"allocation-1", api.ClaimRequest{Sender: "0x00000000000000000000000000000000000000a1", Amount: &[]api.Number{n("12.5")}[0]}},
	}
}

// Lost journals, through rec, a write of every kind whose answer was
// lost, in the registry's order, and returns them as journaled.
func Lost(t testing.TB, rec *act.Recorder) []act.Sent {
	t.Helper()
	samples := Samples()
	var out []act.Sent
	for _, k := range write.Kinds() {
		s, ok := samples[k.Op]
		if !ok {
			t.Fatalf("writetest has no sample of %s: add one to Samples", k.Op)
		}
		err := rec.Write(k.Op, s.Ref, s.Req, func() (string, any, error) {
			return "", nil, &api.OutcomeUnknownError{Op: k.Op, Err: io.ErrUnexpectedEOF}
		})
		var unknown *act.UnknownError
		if !errors.As(err, &unknown) {
			t.Fatalf("%s: the answer is not lost: %v", k.Op, err)
		}
		out = append(out, unknown.Sent())
	}
	return out
}
