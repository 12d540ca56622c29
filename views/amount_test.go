package views

import (
	"strings"
	"testing"
)

func TestTokenAmount(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"1250.5", ""},
		{"1.123456789012345678", ""},
		{"1.1234567890123456780", ""}, // a trailing zero is no 19th decimal
		{"1.1234567890123456789", "at most 18 decimals"},
		{"0.0000000000000000001", "at most 18 decimals"},
		{"0", "must be greater than 0"},
		{"-1", "must be greater than 0"},
		{"", "empty amount"},
		{"1e3", "is not a decimal amount"},
	} {
		_, err := TokenAmount(tt.in)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("TokenAmount(%q) = %v, want %q", tt.in, err, tt.err)
		}
	}
}
