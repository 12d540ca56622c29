package journal

import (
	"encoding/json"
	"time"

	"allot/api"
)

// CreatedSchedule is a schedule this machine created, as its journal
// recorded the service's answer.
type CreatedSchedule struct {
	Key, ID, Name string
	At            time.Time
	Profile       string
}

// CreatedSchedules lists the schedules created from this machine on
// deployment d, newest first, from the answers to schedules/create: an
// outcome without a schedule in it (refused, unknown, damaged) is not one.
func (j *Journal) CreatedSchedules(d Deployment) ([]CreatedSchedule, error) {
	if j == nil {
		return nil, ErrNoJournal
	}
	res, err := j.Read()
	if err != nil {
		return nil, err
	}
	var out []CreatedSchedule
	for i := len(res.Entries) - 1; i >= 0; i-- {
		e := res.Entries[i]
		if e.Kind != KindOutcome || e.Op != OpSchedule || len(e.Data) == 0 || !d.Owns(e) {
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
