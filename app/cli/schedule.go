package cli

import (
	"context"
	"flag"

	"allot/api"
)

var scheduleCreateCommand = command{
	name:    "schedule create",
	args:    "--body FILE [-o json]",
	summary: "create an unlock schedule from a JSON body (an example: docs/commands.md)",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		body := fs.String("body", "", "the request body as a JSON `FILE` (required)")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			if *body == "" {
				return usagef("schedule create: --body is required")
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
