package embeddedtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"allot/api"
	"allot/api/sandbox"
	"allot/api/sandbox/onchain"
)

// caught is a test that only records what it is told: how ReadOnly's
// guard is seen to fail without failing the test that checks it.
type caught struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (c *caught) Helper()                           {}
func (c *caught) Errorf(format string, args ...any) { c.errs = append(c.errs, format) }
func (c *caught) Cleanup(f func())                  { c.cleanups = append(c.cleanups, f) }

func (c *caught) end() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
}

// TestReadOnlyCatchesWrites: a test on a shared sandbox that writes, by
// the service or into the demo keystore, fails; one that reads passes.
func TestReadOnlyCatchesWrites(t *testing.T) {
	t.Parallel()
	sb, err := onchain.Start(context.Background(), onchain.Options{Sandbox: sandbox.Options{PublicURL: sandbox.DefaultPublicURL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	if err := sb.Seeded(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	reader := &caught{TB: t}
	s := ReadOnly(reader, sb, nil)
	if _, err := s.API.Contracts(ctx, s.TokenIDs[0]); err != nil {
		t.Fatal(err)
	}
	reader.end()
	if len(reader.errs) > 0 {
		t.Errorf("a test that read failed: %v", reader.errs)
	}

	writer := &caught{TB: t}
	s = ReadOnly(writer, sb, nil)
	n := func(v string) api.Number { x, _ := api.ParseAmount(v); return x }
	monthly := api.SchedulePiece{Name: "monthly", Portion: n("1"), StartDelay: api.ValueOf{Value: n("0")},
		Periodic: &api.PeriodConf{Length: api.ValueOf{Value: n("12")}, Frequency: api.ValueOf{Value: n("1")}, DayOfMonth: 1}}
	if _, err := s.API.CreateSchedule(ctx, api.ScheduleRequest{TokenID: s.TokenIDs[0], Name: "Team", Description: "a year", UnlockAtStart: n("0"),
		Cliff: api.CliffRequest{Value: n("0"), Duration: n("0")}, RoundingMode: "FLOOR", Pieces: []api.SchedulePiece{monthly}}); err != nil {
		t.Fatal(err)
	}
	writer.end()
	if len(writer.errs) != 1 || !strings.Contains(writer.errs[0], "applied") {
		t.Errorf("a test that wrote by the service: %q, want one failure about its writes", writer.errs)
	}

	keyWriter := &caught{TB: t}
	ReadOnly(keyWriter, sb, nil)
	if err := os.WriteFile(filepath.Join(sb.Server.Fixtures().KeystoreDir, "extra.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	keyWriter.end()
	if len(keyWriter.errs) != 1 || !strings.Contains(keyWriter.errs[0], "keystore") {
		t.Errorf("a test that wrote into the keystore: %q, want one failure about the keystore", keyWriter.errs)
	}
}
