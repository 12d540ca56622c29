package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
)

// maxNameLength bounds free-text fields (names, descriptions, memos).
const maxNameLength = 256

// problems collects validation failures, so that one answer names every
// offending input.
type problems struct{ list []detail }

func (p *problems) add(path, message string) { p.list = append(p.list, detail{path, message}) }

func (p *problems) addf(path, format string, args ...any) { p.add(path, fmt.Sprintf(format, args...)) }

func (p *problems) ok() bool { return len(p.list) == 0 }

func (p *problems) err() *apiError { return errValidation(p.list) }

// bodyPath names the body as a whole in a detail.
const bodyPath = "body"

// decodeObject parses a JSON body that must be an object. Numbers stay
// exact (json.Number); unknown fields are kept and ignored by the readers.
func decodeObject(body []byte, p *problems) (object, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		p.add(bodyPath, "is not valid JSON")
		return object{}, false
	}
	if dec.More() {
		p.add(bodyPath, "has data after the JSON value")
		return object{}, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.add(bodyPath, "must be a JSON object")
		return object{}, false
	}
	return object{fields: m, p: p}, true
}

// object reads the fields of a JSON object, recording a problem with the
// field's path for each one missing or of the wrong type. A null counts as
// absent.
type object struct {
	fields map[string]any
	path   string // "" at the root
	p      *problems
}

func (o object) at(name string) string {
	if o.path == "" {
		return name
	}
	return o.path + "." + name
}

// has reports whether the field is present and not null.
func (o object) has(name string) bool { return o.fields[name] != nil }

func (o object) value(name string, required bool) (any, bool) {
	v := o.fields[name]
	if v == nil {
		if required {
			o.p.add(o.at(name), "is required")
		}
		return nil, false
	}
	return v, true
}

func (o object) string(name string, required bool) (string, bool) {
	v, ok := o.value(name, required)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		o.p.add(o.at(name), "must be a string")
	}
	return s, ok
}

// text reads a string of 1 to maxNameLength characters.
func (o object) text(name string, required bool) (string, bool) {
	s, ok := o.string(name, required)
	switch {
	case !ok:
		return "", false
	case s == "":
		o.p.add(o.at(name), "must not be empty")
		return "", false
	case utf8.RuneCountInString(s) > maxNameLength:
		o.p.addf(o.at(name), "must be at most %d characters", maxNameLength)
		return "", false
	}
	return s, true
}

func (o object) uuid(name string, required bool) (string, bool) {
	s, ok := o.string(name, required)
	if !ok {
		return "", false
	}
	if !isUUID(s) {
		o.p.add(o.at(name), "must be a UUID")
		return "", false
	}
	return normalizeID(s), true
}

func (o object) address(name string, required bool) (common.Address, bool) {
	s, ok := o.string(name, required)
	if !ok {
		return common.Address{}, false
	}
	addr, ok := parseAddress(s)
	if !ok {
		o.p.add(o.at(name), "must be an address: 0x and 40 hexadecimal digits")
	}
	return addr, ok
}

// number returns a JSON number's literal text.
func (o object) number(name string, required bool) (string, bool) {
	v, ok := o.value(name, required)
	if !ok {
		return "", false
	}
	n, ok := v.(json.Number)
	if !ok {
		o.p.add(o.at(name), "must be a number")
	}
	return string(n), ok
}

func (o object) boolean(name string, required bool) (bool, bool) {
	v, ok := o.value(name, required)
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		o.p.add(o.at(name), "must be a boolean")
	}
	return b, ok
}

func (o object) object(name string, required bool) (object, bool) {
	v, ok := o.value(name, required)
	if !ok {
		return object{}, false
	}
	return o.asObject(o.at(name), v)
}

func (o object) asObject(path string, v any) (object, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		o.p.add(path, "must be an object")
		return object{}, false
	}
	return object{fields: m, path: path, p: o.p}, true
}

// array reads an array of at least minItems items.
func (o object) array(name string, required bool, minItems int) ([]any, bool) {
	v, ok := o.value(name, required)
	if !ok {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		o.p.add(o.at(name), "must be an array")
		return nil, false
	}
	if len(a) < minItems {
		o.p.addf(o.at(name), "must have at least %d item(s)", minItems)
		return nil, false
	}
	return a, true
}

// item is the path of an array's element.
func (o object) item(name string, i int) string { return fmt.Sprintf("%s[%d]", o.at(name), i) }
