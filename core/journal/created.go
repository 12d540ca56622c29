package journal

import (
	"encoding/json"
	"time"

	"allot/api"
	"allot/core/write"
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
	outcomes, err := j.Entries(Match{Kind: KindOutcome, Op: write.OpSchedule})
	if err != nil {
		return nil, err
	}
	var out []CreatedSchedule
	for _, e := range outcomes {
		var sch api.Schedule
		if len(e.Data) > 0 && d.Owns(e) && json.Unmarshal(e.Data, &sch) == nil && sch.Key != "" {
			out = append(out, CreatedSchedule{Key: sch.Key, ID: sch.ID, Name: sch.Name, At: e.At, Profile: e.Profile})
		}
	}
	return out, nil
}
