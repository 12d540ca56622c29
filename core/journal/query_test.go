package journal

import "testing"

// TestWrites: a request pairs with the outcome of its write id, or, in a
// journal from before write ids, the oldest waiting request of its op and
// ref; a request with no outcome (the program ended) is not settled, and
// a later outcome settles an unknown one.
func TestWrites(t *testing.T) {
	entries := []Entry{
		{Kind: KindRequest, Op: "a", Ref: "1", Write: "w1"},
		{Kind: KindRequest, Op: "a", Ref: "1", Write: "w2"},
		{Kind: KindOutcome, Op: "a", Ref: "1", Write: "w2", Status: "PENDING"},
		{Kind: KindRequest, Op: "old", Ref: "x"},
		{Kind: KindRequest, Op: "old", Ref: "x"},
		{Kind: KindOutcome, Op: "old", Ref: "x", Status: "done"},
		{Kind: KindRequest, Op: "b", Ref: "2", Write: "w3"},
		{Kind: KindOutcome, Op: "b", Ref: "2", Write: "w3", Status: StatusUnknown},
		{Kind: KindRequest, Op: "c", Ref: "3", Write: "w4"},
		{Kind: KindOutcome, Op: "c", Ref: "3", Write: "w4", Status: StatusUnknown},
		{Kind: KindOutcome, Op: "c", Ref: "3", Write: "w4", Status: "applied"},
		{Kind: KindSignature, Op: "signin"},
		{Kind: KindOutcome, Op: "signin", Status: "signed-in"},
	}
	got := Writes(entries)
	want := []struct {
		status  string // "" for no outcome
		settled bool
	}{{"", false}, {"PENDING", true}, {"done", true}, {"", false}, {StatusUnknown, false}, {"applied", true}}
	if len(got) != len(want) {
		t.Fatalf("%d writes, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		status := ""
		if got[i].Outcome != nil {
			status = got[i].Outcome.Status
		}
		if status != w.status || got[i].Settled() != w.settled {
			t.Errorf("write %d: outcome %q settled %v, want %q %v", i, status, got[i].Settled(), w.status, w.settled)
		}
	}
}

// TestDeploymentOwns: entries are told apart by base URL and chain id,
// whatever the profile is called; an entry from before entries named their
// deployment goes by its profile's name.
func TestDeploymentOwns(t *testing.T) {
	embedded := Deployment{Profile: "sandbox", BaseURL: "http://sandbox.internal", ChainID: 31337}
	configured := Deployment{Profile: "sandbox", BaseURL: "http://127.0.0.1:8080/", ChainID: 31337}
	e := configured.Stamp(Entry{Kind: KindLookup})
	if embedded.Owns(e) || !configured.Owns(e) {
		t.Error("an entry of the configured profile named sandbox shows for the embedded sandbox, or not for itself")
	}
	if !(Deployment{Profile: "other", BaseURL: "http://127.0.0.1:8080", ChainID: 31337}).Owns(e) {
		t.Error("the same deployment under another profile name does not own its entries")
	}
	if (Deployment{Profile: "sandbox", BaseURL: "http://127.0.0.1:8080", ChainID: 1}).Owns(e) {
		t.Error("another chain owns the entry")
	}
	old := Entry{Kind: KindLookup, Profile: "sandbox"}
	if !embedded.Owns(old) || (Deployment{Profile: "production", BaseURL: "x"}).Owns(old) {
		t.Error("an old entry without a deployment is not matched by its profile's name")
	}
}

// TestDeploymentOwnsWorld: a deployment that starts anew each run (the
// embedded sandbox) owns only what its own run wrote: not an earlier
// run's entries, nor entries from before runs were named; recent lookups
// still go by the service (SameService), whose seeded ids hold across runs.
func TestDeploymentOwnsWorld(t *testing.T) {
	earlier := Deployment{Profile: "sandbox", BaseURL: "http://sandbox.invalid", ChainID: 31337, World: "a"}
	now := earlier
	now.World = "b"
	e := earlier.Stamp(Entry{Kind: KindTransaction, Ref: "0x01"})
	if now.Owns(e) || !earlier.Owns(e) {
		t.Error("an entry of an earlier world shows in this one, or not in its own")
	}
	if !now.SameService(e) {
		t.Error("an earlier world's entry is not of the same service")
	}
	if now.Owns(Entry{Kind: KindTransaction, Profile: "sandbox"}) {
		t.Error("an entry from before worlds were named shows in this world")
	}
	if (Deployment{Profile: "sandbox", BaseURL: "http://sandbox.invalid", ChainID: 31337}).Owns(e) {
		t.Error("a world's entry shows for a deployment that persists")
	}
}
