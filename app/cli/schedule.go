package cli

import (
	"context"
	"flag"
	"io"

	"allot/api"
)

var scheduleCreateCommand = command{
	name:    "schedule create",
	args:    "--body FILE [-o json] | --example",
	summary: "create an unlock schedule from a JSON body (--example prints one that works)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		body := fs.String("body", "", "the request body as a JSON `FILE` (required)")
		example := fs.Bool("example", false, "print an example body, as docs/commands.md explains it, and exit: allot schedule create --example > schedule.json")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if *example {
				_, err := io.WriteString(e.Stdout, scheduleExample)
				return err
			}
			if *body == "" {
				return usagef("schedule create: --body is required (--example prints one)")
			}
			var req api.ScheduleRequest
			if err := readBody(*body, &req); err != nil {
				return err
			}
			// tokenId may name the token (MRD), as --token does: it is
			// checked once the profile has said which token that is.
			var token *string
			if req.TokenID != "" && api.CheckUUID("tokenId", req.TokenID) != nil {
				token = &req.TokenID
			} else if err := req.Validate(); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{write: true, token: token})
			if err != nil {
				return err
			}
			if token != nil {
				req.TokenID = s.token
				if err := req.Validate(); err != nil {
					return err
				}
			}
			res, err := s.rec.CreateSchedule(ctx, s.API, req)
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, res)
			}
			return fields(e.Stdout, "key", res.Key, "id", res.ID, "name", res.Name, "created", api.FormatTime(res.CreatedAt))
		}
	},
}

// scheduleExample is a schedule body the service accepts as it is (on the
// embedded sandbox too, tokenId being a symbol): a newcomer's start, the
// one docs/commands.md shows and explains field by field.
const scheduleExample = `{
  "tokenId": "MRD",
  "name": "Team, 4-year with a 1-year cliff",
  "description": "25% after a year, then monthly over three years",
  "unlockAtStart": 0,
  "cliff": {"value": 0.25, "duration": 12},
  "roundingMode": "FLOOR",
  "pieces": [
    {
      "name": "Monthly",
      "portion": 0.75,
      "startDelay": {"value": 12},
      "periodicPieceConfiguration": {
        "length": {"value": 36},
        "frequency": {"value": 1},
        "dayOfMonth": 1
      }
    }
  ]
}
`
