package txbuilder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A file is read as a tree of JSON values, as the Transaction Builder
// (JavaScript) holds it, because its checksum is over that tree: nil,
// bool, json.Number, string, []any and *object.

// object is a JSON object, its keys in the file's order.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

// set sets key, appending it if new.
func (o *object) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// without is a shallow copy of o without key.
func (o *object) without(key string) *object {
	c := newObject()
	for _, k := range o.keys {
		if k != key {
			c.set(k, o.vals[k])
		}
	}
	return c
}

// maxDepth bounds the nesting of a file's values: the format nests five
// deep (a transaction's method's inputs' components), a tuple a few more.
const maxDepth = 16

var errDuplicateKey = errors.New("a key given twice")

// parse reads one JSON value from dec and nothing after it: strict JSON,
// no key twice in an object (JSON.parse would keep the last, a reviewer
// might read the first), nesting at most maxDepth.
func parse(dec *json.Decoder) (any, error) {
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("values nested deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := newObject()
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key := k.(string) // the decoder gives an object's keys as strings
			if _, ok := o.vals[key]; ok {
				return nil, fmt.Errorf("%q: %w", key, errDuplicateKey)
			}
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o.set(key, v)
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token() // ']'
		return list, err
	}
	return tok, nil
}
