package views

import (
	"errors"
	"strings"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views/widget"
)

// PathErrors are the field errors of err, an *api.ValidationError (the
// service's 400, or a request's own Validate), for widget.Form.SetErrors;
// any other error is one without a path. nil for a nil err.
func PathErrors(err error) []widget.PathError {
	var invalid *api.ValidationError
	if !errors.As(err, &invalid) {
		if err == nil {
			return nil
		}
		return []widget.PathError{{Message: err.Error()}}
	}
	out := make([]widget.PathError, len(invalid.Fields))
	for i, fe := range invalid.Fields {
		out[i] = widget.PathError(fe)
	}
	return out
}

// Unmatched says the errors no field shows, for a status line, in one
// line safe to draw: "path: message; message".
func Unmatched(errs []widget.PathError) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.String()
	}
	return sanitize.Line(strings.Join(parts, "; "))
}
