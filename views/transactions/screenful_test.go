package transactions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"allot/core/journal"
	"allot/views"
)

// TestScreenReadsTheNewestRows: a journal of more rows than the screen
// reads shows the newest, and the status line says where the rest are.
func TestScreenReadsTheNewestRows(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := journal.Deployment{Profile: "p", BaseURL: "http://x", ChainID: 1}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var file bytes.Buffer // written whole: a thousand syncs would be slow
	for i := range screenRows + 2 {
		line, _ := json.Marshal(d.Stamp(journal.Entry{At: at.Add(time.Duration(i) * time.Second), Kind: journal.KindTransaction, Ref: fmt.Sprintf("0x%x", i), Status: "pending"}))
		file.Write(append(line, '\n'))
	}
	if err := os.WriteFile(j.Path(), file.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	rows, err := screenful(j, d)
	var warn views.RowsWarning
	if !errors.As(err, &warn) || !strings.Contains(string(warn), "`allot transactions` lists every one") {
		t.Fatalf("warning %v", err)
	}
	if len(rows) != screenRows || rows[0].ID != fmt.Sprintf("0x%x", screenRows+1) || rows[screenRows-1].ID != "0x2" {
		t.Fatalf("%d rows, from %s to %s", len(rows), rows[0].ID, rows[len(rows)-1].ID)
	}
	all, err := Read(j, d)
	if err != nil || len(all) != screenRows+2 {
		t.Fatalf("Read: %d rows, %v", len(all), err)
	}
}
