package write_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"allot/api"
	"allot/core/write"
	"allot/core/write/writetest"
)

// TestEveryKind: each kind of write names itself, says where it is sent
// and why a deployment cannot tell whether it applied one, reads its
// journaled body back only when it encodes to the same bytes, describes
// what it asks for, and says whether it is sent again.
func TestEveryKind(t *testing.T) {
	samples := writetest.Samples()
	kinds := write.Kinds()
	if len(kinds) != len(samples) {
		t.Errorf("%d kinds, %d samples: every kind has one sample, every sample a kind", len(kinds), len(samples))
	}
	for _, k := range kinds {
		t.Run(k.Op, func(t *testing.T) {
			s, ok := samples[k.Op]
			if !ok {
				t.Fatal("no sample of this kind in writetest")
			}
			if got, ok := write.Of(k.Op); !ok || got.Op != k.Op {
				t.Fatalf("Of(%q) = %+v, %v", k.Op, got, ok)
			}
			body, err := json.Marshal(s.Req)
			if err != nil {
				t.Fatal(err)
			}
			if k.Label(s.Ref) == "" || k.Path(s.Ref) == "" || k.NoReadBack == "" {
				t.Errorf("label %q, path %q, no read back %q: none may be empty", k.Label(s.Ref), k.Path(s.Ref), k.NoReadBack)
			}
			if write.Label(k.Op, s.Ref) != k.Label(s.Ref) {
				t.Errorf("Label(op, ref) = %q, the kind's %q", write.Label(k.Op, s.Ref), k.Label(s.Ref))
			}
			if !k.AsSent(s.Ref, body) {
				t.Errorf("the body %s does not read back as sent", body)
			}
			about := k.Describe(s.Ref, body)
			if len(about) == 0 {
				t.Error("nothing describes the write")
			}
			for _, f := range about {
				if f.Label == "" || f.Value == "" {
					t.Errorf("an empty line in the description: %+v", about)
				}
			}
			// Another encoding of the same request is not the bytes sent:
			// it is described, never sent again.
			spaced := []byte(strings.Replace(string(body), ":", ": ", 1))
			if k.AsSent(s.Ref, spaced) || len(k.Describe(s.Ref, spaced)) == 0 {
				t.Errorf("a body spaced otherwise: as sent %v, described %v", k.AsSent(s.Ref, spaced), k.Describe(s.Ref, spaced))
			}
			if k.AsSent(s.Ref, []byte("not json")) || k.Describe(s.Ref, []byte("not json")) != nil {
				t.Error("a body that is not JSON reads back")
			}
			var refused *write.NotResentError
			if err := k.Refuses(s.Ref, spaced); !errors.As(err, &refused) {
				t.Errorf("a body not as sent is not refused: %v", err)
			}
			if err := k.Refuses(s.Ref, body); (err != nil) != (k.NoResend != "") {
				t.Errorf("Refuses = %v, NoResend %q", err, k.NoResend)
			}
		})
	}
	if _, ok := write.Of("claim"); ok {
		t.Error("a chain transaction's action is a kind of write")
	}
	if write.Label("claim", "0xabc") != "0xabc" {
		t.Error("an operation of no kind is not named by its ref")
	}
}

// TestTransactionOfUnknownAction: a transaction request of an action
// allot does not know neither reads back nor is described.
func TestTransactionOfUnknownAction(t *testing.T) {
	k, _ := write.Of(write.OpTransaction)
	body := []byte(`{"action":"INITIALIZE","contractId":"c","adminWalletId":"w"}`)
	if !k.AsSent(api.ActionInitialize, body) || k.AsSent("SELF_DESTRUCT", body) || k.Describe("SELF_DESTRUCT", body) != nil {
		t.Error("the action does not decide how the body is read")
	}
}

// TestListsWhatWasCreated: an answered transaction request lists the
// transactions created, PENDING shown as CREATED; a schedule's answer
// lists none; an answer that cannot be read lists none.
func TestListsWhatWasCreated(t *testing.T) {
	tx, _ := write.Of(write.OpTransaction)
	answer := []byte(`{"transactions":[{"transactionId":"t1","status":"PENDING"},{"transactionId":"t2","status":"FAILED"}]}`)
	got := tx.Lists(answer)
	want := []write.Created{{ID: "t1", Status: api.TransactionCreated}, {ID: "t2", Status: "FAILED"}}
	if !tx.Listed() || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Lists = %+v, want %+v", got, want)
	}
	if tx.Lists([]byte("{")) != nil {
		t.Error("a damaged answer lists transactions")
	}
	if sch, _ := write.Of(write.OpSchedule); sch.Listed() {
		t.Error("an answered schedule is listed")
	}
}

// TestDescriptionIsSafe: what a body says is drawn on a terminal: an
// escape sequence in it is made inert.
func TestDescriptionIsSafe(t *testing.T) {
	k, _ := write.Of(write.OpClaim)
	body, _ := json.Marshal(api.ClaimRequest{Sender: "\x1b]52;c;aGk=\x07"})
	for _, f := range k.Describe("a\x1b[2J", body) {
		if strings.ContainsAny(f.Value, "\x1b\x07") {
			t.Errorf("%s: %q", f.Label, f.Value)
		}
	}
}

// FuzzKinds: no body, of any kind, about any ref, makes reading or
// describing it fail; one that reads back as sent is described.
func FuzzKinds(f *testing.F) {
	kinds := write.Kinds()
	for i, k := range kinds {
		s := writetest.Samples()[k.Op]
		body, _ := json.Marshal(s.Req)
		f.Add(uint8(i), s.Ref, body)
	}
	f.Fuzz(func(t *testing.T, i uint8, ref string, body []byte) {
		k := kinds[int(i)%len(kinds)]
		about := k.Describe(ref, body)
		if k.AsSent(ref, body) && about == nil {
			t.Errorf("%s about %q: %s reads back as sent, yet is not described", k.Op, ref, body)
		}
		_ = k.Label(ref) + k.Path(ref)
	})
}

// TestNothingElseSwitchesOnTheOp: outside the registry, no code (tests
// aside) tells kinds of write apart by their operation (a case, a
// comparison, a map keyed by it), save views/reopen's table of the kinds
// that reopen in their own form: what a kind is, is said here once.
func TestNothingElseSwitchesOnTheOp(t *testing.T) {
	ops := `(act|write|journal)\.Op(Transaction|Schedule|UploadURL|Creative|Claim)\b`
	switches := regexp.MustCompile(`(case|==|!=)\s*` + ops + `|` + ops + `\s*(==|!=|:)`)
	allowed := map[string]bool{filepath.Join("views", "reopen", "reopen.go"): true}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || rel == filepath.Join("core", "write")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed[rel] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if switches.MatchString(line) {
				t.Errorf("%s:%d tells kinds of write apart by their op: ask core/write instead\n\t%s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
