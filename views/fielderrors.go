package views

import (
	"errors"
	"fmt"
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
// line safe to draw: "path: message; message". Like the errors under a
// field, it is bounded: a hostile service's thousand errors, or one of a
// megabyte, say the first few, each cut, and how many more.
func Unmatched(errs []widget.PathError) string {
	const most, runes = 3, 200
	parts := make([]string, 0, min(len(errs), most+1))
	for i, e := range errs {
		if i == most {
			parts = append(parts, fmt.Sprintf("%d more", len(errs)-most))
			break
		}
		parts = append(parts, sanitize.Truncate(e.String(), runes))
	}
	return strings.Join(parts, "; ")
}

// ErrorOf is what err (see PathErrors) says of field f of form, placed as
// form.SetErrors places the service's errors, joined in one error; nil
// when it says nothing of f. It is the Check of a field validated with
// its whole request as it is typed, so that the request's own errors and
// the service's land under the same fields (widget.Form.ErrorOf).
func ErrorOf(form *widget.Form, f *widget.FormField, err error) error {
	if form == nil || err == nil {
		return nil
	}
	return form.ErrorOf(f, PathErrors(err))
}
