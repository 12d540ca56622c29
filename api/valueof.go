package api

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON implements json.Unmarshaler: the `{"value": n}` object,
// or n alone, as people write a body by hand ("startDelay": 0); it is
// sent as the object the service takes. An object holding more than value
// is refused.
func (v *ValueOf) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' {
		return json.Unmarshal(t, &v.Value)
	}
	type object ValueOf // without this method
	// A field beside value is refused, as everywhere in a body.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode((*object)(v))
}
