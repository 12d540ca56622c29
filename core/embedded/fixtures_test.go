package embedded

import (
	"reflect"
	"testing"

	"allot/api/sandbox"
	"allot/core/session"
)

// TestFixturesCarryEveryField: the session's description of the seed has
// every field the sandbox's fixtures have, filled in: a field added to
// one and not the other would reach no screen.
func TestFixturesCarryEveryField(t *testing.T) {
	theirs, ours := reflect.TypeOf(sandbox.Fixtures{}), reflect.TypeOf(session.Fixtures{})
	for i := range theirs.NumField() {
		if _, ok := ours.FieldByName(theirs.Field(i).Name); !ok {
			t.Errorf("session.Fixtures has no %s", theirs.Field(i).Name)
		}
	}
	s, err := Sandbox(sandbox.Options{KeystoreDir: t.TempDir()}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := reflect.ValueOf(*s.Fixtures)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("the embedded sandbox's Fixtures.%s is empty", ours.Field(i).Name)
		}
	}
}
