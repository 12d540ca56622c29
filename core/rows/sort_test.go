package rows

import "testing"

// compareFold sorts kinds ignoring case: claim beside CREATIVE, not
// after START_DISTRIBUTION.
func TestKindSortIgnoresCase(t *testing.T) {
	if compareFold("claim", "START_DISTRIBUTION") >= 0 || compareFold("stake", "FUND_DISTRIBUTION") <= 0 || compareFold("a", "a") != 0 {
		t.Error("kinds are not compared ignoring case")
	}
}
