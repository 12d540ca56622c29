package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"time"
)

// JournalEntry is one write the sandbox applied.
type JournalEntry struct {
	// Operation is the path after /api/external/v1/ (transactions/create,
	// allocations/ID/claim), the portal path after /api/v2/PORTAL/
	// (auth/signin), or the sandbox path after / for uploads
	// (_sandbox/uploads/portal-assets/SLUG/FILE).
	Operation string
	// Action is the transaction action of transactions/create; else empty.
	Action string
	At     time.Time
	// BodySHA256 is the hex SHA-256 of the request body.
	BodySHA256 string
}

// MarshalJSON writes the entry as GET /_sandbox/journal lists it.
func (e JournalEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Operation  string    `json:"operation"`
		Action     string    `json:"action,omitempty"`
		At         timestamp `json:"at"`
		BodySHA256 string    `json:"bodySha256"`
	}{e.Operation, e.Action, timestamp(e.At), e.BodySHA256})
}

// Journal returns the writes applied so far, oldest first.
func (s *Server) Journal() []JournalEntry { return s.JournalFrom(0) }

// JournalFrom returns the writes applied after the first i, oldest first
// (none when i is past them): what a check of a write sent when
// JournalLen was i looks through, without copying the rest.
func (s *Server) JournalFrom(i int) []JournalEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.journal[min(max(i, 0), len(s.journal)):])
}

// JournalLen is how many writes were applied so far.
func (s *Server) JournalLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.journal)
}

func (s *Server) record(operation, action string, body []byte) {
	entry := JournalEntry{Operation: operation, Action: action, At: s.clock(), BodySHA256: sha256Hex(body)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.journal = append(s.journal, entry)
}

func (s *Server) journalFull() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.journal) >= maxWrites
}

// serveJournal answers GET /_sandbox/journal to either API key.
func (s *Server) serveJournal(w http.ResponseWriter, r *http.Request) {
	if s.keys.scope(r.Header.Get(s.apiKeyHeader)) == "" {
		writeAdminError(w, errUnauthorized("missing or invalid API token"))
		return
	}
	entries := s.Journal()
	if entries == nil {
		entries = []JournalEntry{}
	}
	writeJSON(w, http.StatusOK, struct {
		Entries []JournalEntry `json:"entries"`
	}{entries})
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
