package views

import (
	"encoding/json"
	"errors"
	"time"

	"allot/api"
	"allot/app/journal"
)

// CreatedSchedule is a schedule this machine created, as its journal
// recorded the service's answer.
type CreatedSchedule struct {
	Key, ID, Name string
	At            time.Time
	Profile       string
}

// CreatedSchedules lists the schedules created from this machine, newest
// first, from the outcomes of schedules/create in the journal.
func CreatedSchedules(j *journal.Journal) ([]CreatedSchedule, error) {
	if j == nil {
		return nil, errors.New("the local journal is not available")
	}
	res, err := j.Read()
	if err != nil {
		return nil, err
	}
	var out []CreatedSchedule
	for i := len(res.Entries) - 1; i >= 0; i-- {
		e := res.Entries[i]
		if e.Kind != journal.KindOutcome || e.Op != schOp || len(e.Data) == 0 {
			continue
		}
		var sch api.Schedule
		if json.Unmarshal(e.Data, &sch) != nil || sch.Key == "" {
			continue
		}
		out = append(out, CreatedSchedule{Key: sch.Key, ID: sch.ID, Name: sch.Name, At: e.At, Profile: e.Profile})
	}
	return out, nil
}
