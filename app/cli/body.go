package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"allot/api"
	"allot/internal/sanitize"
)

// maxBodyDepth bounds how deep bodyFault follows a body: request bodies
// are a few levels deep; anything deeper is refused as a whole.
const maxBodyDepth = 16

// bodyFault names the first value of a JSON body that does not fit t, in
// the service's terms: its path (pieces[0].portion) and what it must be.
// encoding/json says "cannot unmarshal number into Go struct field
// SchedulePiece.pieces.portion", without the index and in Go's words, and
// nothing of where an amount's own decoder refused it. ok is false when
// no one value is at fault (the body as a whole is).
func bodyFault(data []byte, t reflect.Type) (path, msg string, ok bool) {
	return fault(data, t, "", 0)
}

var (
	unmarshaler        = reflect.TypeFor[json.Unmarshaler]()
	transactionRequest = reflect.TypeFor[api.TransactionRequest]()
)

// hasJSONFields says whether t is a struct of named JSON fields (a request
// with a decoder of its own) rather than a value with its own decoder (an
// api.Number, a time), which is one value to the service.
func hasJSONFields(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("json") != "" {
			return true
		}
	}
	return false
}

func fault(data []byte, t reflect.Type, path string, depth int) (string, string, bool) {
	if depth > maxBodyDepth {
		return path, "is nested too deeply", true
	}
	data = bytes.TrimSpace(data)
	if t.Kind() == reflect.Pointer {
		if string(data) == "null" {
			return "", "", false
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) && !hasJSONFields(t) {
		// A decimal (api.Number) or a time: its own decoder says what
		// is wrong, e.g. "abc" is not a decimal amount.
		if kind := jsonKind(data); kind == "an object" || kind == "a list" || kind == "true or false" {
			return path, "must be " + typeWord(t), true
		}
		if err := json.Unmarshal(data, reflect.New(t).Interface()); err != nil {
			return path, strings.TrimPrefix(err.Error(), "json: "), true
		}
		return "", "", false
	}
	switch t.Kind() {
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) != nil || fields == nil {
			return path, "must be an object", true
		}
		// Sorted: the same body names the same field every time.
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f, known := structField(t, k)
			if !known && k == "action" && reflect.PointerTo(t).Implements(transactionRequest) {
				continue // the union's tag, checked by the request's own decoder
			}
			if !known {
				return join(path, k), "is not a field of this request", true
			}
			if p, m, ok := fault(fields[k], f.Type, join(path, k), depth+1); ok {
				return p, m, true
			}
		}
	case reflect.Slice:
		var items []json.RawMessage
		if string(data) == "null" {
			return "", "", false
		}
		if json.Unmarshal(data, &items) != nil {
			return path, "must be a list", true
		}
		for i, item := range items {
			if p, m, ok := fault(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), depth+1); ok {
				return p, m, true
			}
		}
	case reflect.Interface:
	default:
		if err := json.Unmarshal(data, reflect.New(t).Interface()); err != nil {
			return path, "must be " + typeWord(t), true
		}
	}
	return "", "", false
}

// structField is the field of t that the JSON key k fills, as
// encoding/json matches it: the tag's name, or the Go name, any case.
func structField(t reflect.Type, k string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, k) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonKind names the kind of a JSON value by its first byte.
func jsonKind(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	switch data[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true or false"
	case '"':
		return "a string"
	}
	return "a number"
}

// typeWord is what a value of t is in JSON.
func typeWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number of at least 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map:
		return "an object"
	case reflect.Struct:
		if t.Name() == "Time" {
			return "an ISO 8601 time"
		}
		// The request's amounts and fractions (api.Number, api.Decimal).
		return "a number"
	}
	return "a JSON value"
}

// describeBodyError is err, from decoding a --body file into v, said in
// the service's terms when one value is at fault.
func describeBodyError(data []byte, v any, err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		line := 1 + bytes.Count(data[:min(int(syntax.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("not JSON (line %d): %v", line, syntax)
	}
	if path, msg, ok := bodyFault(data, reflect.TypeOf(v)); ok {
		// The keys are the file's: cut and cleaned before any output.
		return fmt.Errorf("%s: %s", sanitize.Truncate(sanitize.Line(path), 120), msg)
	}
	return err
}

// maxBodyFile bounds --body files: request bodies are small.
const maxBodyFile = 1 << 20

// readBody decodes the JSON file at path into v, refusing unknown fields so
// that a misspelt field is not silently dropped from a write.
func readBody(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	if info.Size() > maxBodyFile {
		return fmt.Errorf("--body: %s is %d bytes, more than a request body can be", path, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBodyFile+1))
	if err != nil {
		return fmt.Errorf("--body: %w", err)
	}
	if len(data) > maxBodyFile {
		return fmt.Errorf("--body: %s is more than %d bytes, more than a request body can be", path, maxBodyFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("--body %s: %w", path, describeBodyError(data, v, err))
	}
	return nil
}
