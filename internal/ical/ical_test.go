package ical

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWriteExact: the whole file, byte for byte: CRLF, UTC times, a
// summary folded at 75 octets (the next line's leading space counts),
// text escaped, a control character dropped, a multi-byte character not
// split by a fold.
func TestWriteExact(t *testing.T) {
	stamp := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	var b bytes.Buffer
	err := Write(&b, "-//allot//upcoming unlocks//EN", stamp, []Event{{
		UID:         "05b5c169-826c-5127-b4be-e82e50f24f7a-20261201T083000Z@allot",
		Start:       at,
		Summary:     "Unlock: 1,470.21 of allocation 05b5c169-826c-5127-b4be-e82e50f24f7a; 10%",
		Description: "a\\b\nline two\x1b[31m",
	}, {
		UID:     "x@allot",
		Start:   at,
		Summary: strings.Repeat("é", 40),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "BEGIN:VCALENDAR\r\n" +
		"VERSION:2.0\r\n" +
		"PRODID:-//allot//upcoming unlocks//EN\r\n" +
		"CALSCALE:GREGORIAN\r\n" +
		"METHOD:PUBLISH\r\n" +
		"BEGIN:VEVENT\r\n" +
		"UID:05b5c169-826c-5127-b4be-e82e50f24f7a-20261201T083000Z@allot\r\n" +
		"DTSTAMP:20261122T100000Z\r\n" +
		"DTSTART:20261201T083000Z\r\n" +
		"SUMMARY:Unlock: 1\\,470.21 of allocation 05b5c169-826c-5127-b4be-e82e50f24f7\r\n" +
		" a\\; 10%\r\n" +
		"DESCRIPTION:a\\\\b\\nline two[31m\r\n" +
		"TRANSP:TRANSPARENT\r\n" +
		"END:VEVENT\r\n" +
		"BEGIN:VEVENT\r\n" +
		"UID:x@allot\r\n" +
		"DTSTAMP:20261122T100000Z\r\n" +
		"DTSTART:20261201T083000Z\r\n" +
		"SUMMARY:" + strings.Repeat("é", 33) + "\r\n" +
		" " + strings.Repeat("é", 7) + "\r\n" +
		"TRANSP:TRANSPARENT\r\n" +
		"END:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
	for i, l := range strings.Split(strings.TrimSuffix(b.String(), "\r\n"), "\r\n") {
		if len(l) > maxOctets {
			t.Errorf("line %d is %d octets", i, len(l))
		}
		if strings.ContainsAny(l, "\r\n\x1b") {
			t.Errorf("line %d holds a bare CR, LF or ESC: %q", i, l)
		}
	}
}
