package txbuilder

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// checksum computes the checksum of a file's tree as Safe{Wallet}'s
// Transaction Builder does (safe-react-apps, apps/tx-builder,
// src/lib/checksum.ts): the file with its meta.name replaced by null,
// serialized by its own scheme (serialize), hashed with keccak256 and
// written as 0x and lowercase hex. Whatever keys root holds are hashed: a
// file is checked without its meta.checksum, and the Transaction Builder
// writes one computed without that key.
func checksum(root *object) (string, error) {
	meta, ok := root.vals["meta"].(*object)
	if !ok {
		return "", fmt.Errorf("meta is not an object")
	}
	named := meta.without("name")
	named.set("name", nil)
	top := root.without("meta")
	top.set("meta", named)
	var b strings.Builder
	if err := serialize(&b, top); err != nil {
		return "", err
	}
	return hexutil.Encode(crypto.Keccak256([]byte(b.String()))), nil
}

// serialize writes v as the Transaction Builder's serializeJSONObject
// does: an array as [a,b]; an object as { then its keys, sorted, as a JSON
// array, then each value followed by a comma, then }; anything else as
// JSON.stringify writes it.
func serialize(b *strings.Builder, v any) error {
	switch v := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, el := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := serialize(b, el); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *object:
		keys := slices.Clone(v.keys)
		slices.SortFunc(keys, compareUTF16)
		b.WriteString("{[")
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			quote(b, k)
		}
		b.WriteByte(']')
		for _, k := range keys {
			if err := serialize(b, v.vals[k]); err != nil {
				return err
			}
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case string:
		quote(b, v)
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case interface{ String() string }: // json.Number
		n, err := jsInteger(v.String())
		if err != nil {
			return err
		}
		b.WriteString(n)
	default:
		return fmt.Errorf("a %T in the file's tree", v)
	}
	return nil
}

// jsInteger writes a number as JavaScript does, for the numbers the
// format holds (createdAt, milliseconds): integers a double holds exactly.
// Any other number is refused rather than written in a way JavaScript
// might not.
func jsInteger(s string) (string, error) {
	f, err := strconv.ParseFloat(s, 64)
	const maxSafe = 1<<53 - 1
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafe {
		return "", fmt.Errorf("the number %.40s is not an integer up to 2^53", s)
	}
	if f == 0 {
		return "0", nil // -0 too, as JavaScript writes it
	}
	return strconv.FormatInt(int64(f), 10), nil
}

// compareUTF16 orders strings as JavaScript's default sort does: by
// UTF-16 code units, which differs from Go's byte order past U+FFFF.
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// quote writes s as JSON.stringify does: only ", \ and control characters
// escaped, short escapes where JSON has them, else \u00xx in lowercase.
// (A Go string holds no lone surrogate, the one other escape.)
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
