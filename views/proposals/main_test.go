package proposals

import (
	"testing"

	"allot/viewstest"
)

// TestMain stops the sandbox the tests share (viewstest.Sandbox) after them.
func TestMain(m *testing.M) { viewstest.Main(m) }
