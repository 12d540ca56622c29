package widget

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"allot/internal/sanitize"
)

// PathError is one of the service's validation errors: the path of the
// value it is about ("name", "data[2].amount", "" for the request as a
// whole) and what is wrong. It has the fields of api.FieldError, so a
// screen converts one with PathError(fe).
type PathError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String is "path: message", or the message alone without a path.
func (e PathError) String() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// maxFieldMessages and maxMessageRunes bound what shows under one field: a
// hostile service's thousand errors for one path, or one of a megabyte,
// stay one line.
const (
	maxFieldMessages = 3
	maxMessageRunes  = 200
)

// SetErrors puts errors under the fields they are about, focuses the first
// such field and returns, in their order, the errors no field is about, for
// the screen to show in its status line (as the service sent them: the
// screen sanitizes what it draws). Every field is checked again first, so
// errors set earlier (SetErrors, SetErr) go; those set now show at once and
// stay until the field changes or Valid checks it again.
//
// A path is about the field whose Key is the path, or else the longest
// Key the path continues ("data[2].amount.value" is about
// "data[2].amount", "allocationIds[3]" about "allocationIds", said as
// "item 4: …"), or else the first field under the path ("data[2]", a row
// as a whole, is about the row's first field, "data[2].id").
func (f *Form) SetErrors(errs []PathError) (unmatched []PathError) {
	for _, fld := range f.fields {
		fld.check()
	}
	msgs := map[*FormField][]string{}
	for _, e := range errs {
		fld, item := f.owner(e.Path)
		if fld == nil {
			unmatched = append(unmatched, e)
			continue
		}
		msgs[fld] = append(msgs[fld], item+sanitize.Truncate(e.Message, maxMessageRunes))
	}
	first := -1
	for i, fld := range f.fields {
		m := msgs[fld]
		if len(m) == 0 {
			continue
		}
		fld.SetErr(joinMessages(m))
		if first < 0 {
			first = i
		}
	}
	if first >= 0 {
		f.Focus(first)
	}
	return unmatched
}

// ErrorOf is what errs say of fld, placed as SetErrors places them and
// bounded alike, in one error; nil when they say nothing of it. It is for
// a field's Check, so that a form validated as it is typed shows its own
// errors where the service's land.
func (f *Form) ErrorOf(fld *FormField, errs []PathError) error {
	var msgs []string
	for _, e := range errs {
		if g, item := f.owner(e.Path); g == fld {
			msgs = append(msgs, item+sanitize.Truncate(e.Message, maxMessageRunes))
		}
	}
	return joinMessages(msgs)
}

// joinMessages is what is said of one field as one error, at most
// maxFieldMessages of them and how many more; nil for none.
func joinMessages(m []string) error {
	if len(m) == 0 {
		return nil
	}
	if len(m) > maxFieldMessages {
		m = append(m[:maxFieldMessages:maxFieldMessages], fmt.Sprintf("%d more", len(m)-maxFieldMessages))
	}
	return errors.New(strings.Join(m, "; "))
}

// FieldOf is the field an error at path is about, as SetErrors places
// it, and for a path into the field's value the item it names ("item 4:
// "); nil when no field is. A form that checks as it is typed places its
// own validation's errors with it, so they land where the service's do.
func (f *Form) FieldOf(path string) (*FormField, string) { return f.owner(path) }

// owner is the field path is about (see SetErrors), and for a path that
// indexes into the field's value, the item it names, as "item 4: ".
func (f *Form) owner(path string) (*FormField, string) {
	if path == "" {
		return nil, ""
	}
	var best *FormField
	for _, fld := range f.fields {
		if fld.Key == path {
			return fld, ""
		}
		if continues(path, fld.Key) && (best == nil || len(fld.Key) > len(best.Key)) {
			best = fld
		}
	}
	if best != nil {
		return best, item(path[len(best.Key):], best.Item)
	}
	for _, fld := range f.fields {
		if continues(fld.Key, path) {
			return fld, ""
		}
	}
	return nil, ""
}

// continues reports whether path goes on from key to a part of it:
// "data[2].amount" continues "data[2]" and "data", not "dat".
func continues(path, key string) bool {
	return key != "" && len(path) > len(key) && strings.HasPrefix(path, key) &&
		(path[len(key)] == '.' || path[len(key)] == '[')
}

// item names the element a rest of a path starts with ("[3]..." is
// "item 4: ", or with noun "id", "id 4: "); "" when it names none.
func item(rest, noun string) string {
	end := strings.IndexByte(rest, ']')
	if !strings.HasPrefix(rest, "[") || end < 2 || end > 7 {
		return ""
	}
	n, err := strconv.Atoi(rest[1:end])
	if err != nil || n < 0 {
		return ""
	}
	if noun == "" {
		noun = "item"
	}
	return fmt.Sprintf("%s %d: ", noun, n+1)
}
