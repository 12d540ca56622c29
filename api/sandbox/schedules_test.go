package sandbox

import (
	"net/http"
	"regexp"
	"testing"

	"allot/internal/isotime"
)

// validSchedule is a schedule request that passes D6: 10% at start, a 20%
// cliff after 12 months, 30% in one step and 40% monthly.
func validSchedule(tokenID string) obj {
	return obj{
		"tokenId":       tokenID,
		"name":          "Team 4-year",
		"description":   "10% at start, then a cliff and monthly unlocks",
		"unlockAtStart": 0.1,
		"cliff":         obj{"value": 0.2, "duration": 12},
		"roundingMode":  "FLOOR",
		"pieces": []any{
			obj{"name": "one-off", "portion": 0.3, "startDelay": obj{"value": 12},
				"oneOffPieceConfiguration": obj{"offset": obj{"value": 6}, "dayOfMonth": 1}},
			obj{"name": "monthly", "portion": 0.4, "startDelay": obj{"value": 18},
				"periodicPieceConfiguration": obj{"length": obj{"value": 24}, "frequency": obj{"value": 1}, "dayOfMonth": 28}},
		},
	}
}

func TestCreateSchedule(t *testing.T) {
	e := newEnv(t, Options{})
	var s struct {
		ID            string   `json:"id"`
		Key           string   `json:"key"`
		Name          string   `json:"name"`
		Description   *string  `json:"description"`
		UnlockAtStart *float64 `json:"unlockAtStart"`
		Cliff         struct {
			Value    float64 `json:"value"`
			Duration float64 `json:"duration"`
			Period   string  `json:"period"`
		} `json:"cliff"`
		RoundingMode string `json:"roundingMode"`
		CreatedAt    string `json:"createdAt"`
	}
	e.admin("POST", "schedules/create", validSchedule(e.fx.TokenIDs[0])).result(t, &s)
	if !isUUID(s.ID) || !regexp.MustCompile(`^S-[A-Z0-9]{8}$`).MatchString(s.Key) || s.Name != "Team 4-year" ||
		s.Description == nil || s.UnlockAtStart == nil || *s.UnlockAtStart != 0.1 ||
		s.Cliff.Value != 0.2 || s.Cliff.Duration != 12 || s.Cliff.Period != CliffPeriod ||
		s.RoundingMode != RoundingFloor || s.CreatedAt != isotime.Format(testStart) {
		t.Fatalf("schedule %+v", s)
	}

	// Optional fields: no unlockAtStart (null), no cliff (zero), no
	// roundingMode (FLOOR).
	minimal := obj{"tokenId": e.fx.TokenIDs[1], "name": "n", "description": "d", "pieces": []any{
		obj{"name": "all", "portion": 1, "oneOffPieceConfiguration": obj{"offset": obj{"value": 0}, "dayOfMonth": 15}},
	}}
	r := e.admin("POST", "schedules/create", minimal)
	var raw map[string]any
	r.result(t, &raw)
	if raw["unlockAtStart"] != nil || raw["roundingMode"] != RoundingFloor {
		t.Fatalf("minimal schedule: %s", r.body)
	}

	keys := map[string]bool{}
	for range 200 {
		var s struct {
			Key string `json:"key"`
		}
		e.admin("POST", "schedules/create", minimal).result(t, &s)
		if keys[s.Key] {
			t.Fatalf("key %s twice", s.Key)
		}
		keys[s.Key] = true
	}
}

func TestCreateScheduleValidation(t *testing.T) {
	e := newEnv(t, Options{})
	token := e.fx.TokenIDs[0]
	piece := func(b obj) obj { return validSchedule(token)["pieces"].([]any)[0].(obj) }
	for _, tc := range []struct {
		name   string
		change func(b obj)
		path   string
	}{
		{"missing tokenId", func(b obj) { delete(b, "tokenId") }, "tokenId"},
		{"bad tokenId", func(b obj) { b["tokenId"] = "token" }, "tokenId"},
		{"empty name", func(b obj) { b["name"] = "" }, "name"},
		{"missing description", func(b obj) { delete(b, "description") }, "description"},
		{"empty description", func(b obj) { b["description"] = "" }, "description"},
		{"unlockAtStart above 1", func(b obj) { b["unlockAtStart"] = 1.5 }, "unlockAtStart"},
		{"unlockAtStart negative", func(b obj) { b["unlockAtStart"] = -0.1 }, "unlockAtStart"},
		{"unlockAtStart a string", func(b obj) { b["unlockAtStart"] = "0.1" }, "unlockAtStart"},
		{"cliff value above 1", func(b obj) { b["cliff"] = obj{"value": 2, "duration": 1} }, "cliff.value"},
		{"cliff duration fractional", func(b obj) { b["cliff"] = obj{"value": 0.2, "duration": 1.5} }, "cliff.duration"},
		{"cliff not an object", func(b obj) { b["cliff"] = 3 }, "cliff"},
		{"rounding mode", func(b obj) { b["roundingMode"] = "CEIL" }, "roundingMode"},
		{"no pieces", func(b obj) { b["pieces"] = []any{} }, "pieces"},
		{"missing pieces", func(b obj) { delete(b, "pieces") }, "pieces"},
		{"sum below 1", func(b obj) { b["unlockAtStart"] = 0.05 }, "pieces"},
		{"sum above 1", func(b obj) { b["unlockAtStart"] = 0.2 }, "pieces"},
		{"piece not an object", func(b obj) { b["pieces"] = []any{1} }, "pieces[0]"},
		{"piece name empty", func(b obj) { p := piece(b); p["name"] = ""; b["pieces"].([]any)[0] = p }, "pieces[0].name"},
		{"portion above 1", func(b obj) { b["pieces"].([]any)[1].(obj)["portion"] = 1.4 }, "pieces[1].portion"},
		{"both configurations", func(b obj) {
			b["pieces"].([]any)[0].(obj)["periodicPieceConfiguration"] = obj{"length": obj{"value": 1}, "frequency": obj{"value": 1}, "dayOfMonth": 1}
		}, "pieces[0]"},
		{"no configuration", func(b obj) { delete(b["pieces"].([]any)[1].(obj), "periodicPieceConfiguration") }, "pieces[1]"},
		{"dayOfMonth 29", func(b obj) {
			b["pieces"].([]any)[1].(obj)["periodicPieceConfiguration"].(obj)["dayOfMonth"] = 29
		}, "pieces[1].periodicPieceConfiguration.dayOfMonth"},
		{"dayOfMonth 0", func(b obj) {
			b["pieces"].([]any)[0].(obj)["oneOffPieceConfiguration"].(obj)["dayOfMonth"] = 0
		}, "pieces[0].oneOffPieceConfiguration.dayOfMonth"},
		{"missing offset", func(b obj) {
			delete(b["pieces"].([]any)[0].(obj)["oneOffPieceConfiguration"].(obj), "offset")
		}, "pieces[0].oneOffPieceConfiguration.offset"},
		{"frequency 0", func(b obj) {
			b["pieces"].([]any)[1].(obj)["periodicPieceConfiguration"].(obj)["frequency"] = obj{"value": 0}
		}, "pieces[1].periodicPieceConfiguration.frequency.value"},
		{"negative start delay", func(b obj) { b["pieces"].([]any)[0].(obj)["startDelay"] = obj{"value": -1} }, "pieces[0].startDelay.value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := validSchedule(token)
			tc.change(b)
			e.admin("POST", "schedules/create", b).wantAdminError(t, http.StatusBadRequest, kindValidation, tc.path)
		})
	}
	t.Run("sum within 1e-9", func(t *testing.T) {
		b := validSchedule(token)
		b["unlockAtStart"] = 0.1000000005
		var s map[string]any
		e.admin("POST", "schedules/create", b).result(t, &s)
	})
	t.Run("thirds", func(t *testing.T) {
		b := validSchedule(token)
		b["unlockAtStart"], b["cliff"] = 0.333333333, obj{"value": 0.333333333, "duration": 0}
		b["pieces"].([]any)[0].(obj)["portion"] = 0.333333334
		b["pieces"] = b["pieces"].([]any)[:1]
		var s map[string]any
		e.admin("POST", "schedules/create", b).result(t, &s)
	})
	t.Run("unknown token", func(t *testing.T) {
		b := validSchedule(e.fx.ContractIDs[0]) // a contract's id names no token
		e.admin("POST", "schedules/create", b).wantAdminError(t, http.StatusNotFound, kindNotFound, "")
	})
	if n := len(e.srv.Journal()); n != 2 {
		t.Errorf("journal has %d entries, want the 2 schedules created", n)
	}
}
