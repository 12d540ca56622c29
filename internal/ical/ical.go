// Package ical writes iCalendar files (RFC 5545) of timed events, which
// any calendar imports: CRLF line ends, lines folded at 75 octets, text
// escaped, times in UTC. An event's UID is the caller's and must be
// stable: a calendar that imports the file again updates the events it
// has instead of adding them twice.
package ical

import (
	"bufio"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Event is one moment: without a DTEND, an event of a DTSTART time
// ends when it starts (RFC 5545 section 3.6.1).
type Event struct {
	UID         string
	Start       time.Time
	Summary     string
	Description string
}

// maxOctets is the longest content line RFC 5545 allows, line break
// excluded (section 3.1).
const maxOctets = 75

const stampLayout = "20060102T150405Z"

// Write writes a calendar of events: prodID names its maker (PRODID),
// stamp is when it was written (each event's DTSTAMP).
func Write(w io.Writer, prodID string, stamp time.Time, events []Event) error {
	bw := bufio.NewWriter(w)
	line := func(name, value string) { writeFolded(bw, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", text(prodID))
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	for _, e := range events {
		line("BEGIN", "VEVENT")
		line("UID", text(e.UID))
		line("DTSTAMP", stamp.UTC().Format(stampLayout))
		line("DTSTART", e.Start.UTC().Format(stampLayout))
		line("SUMMARY", text(e.Summary))
		if e.Description != "" {
			line("DESCRIPTION", text(e.Description))
		}
		// An unlock takes no one's time: it never shows the user busy.
		line("TRANSP", "TRANSPARENT")
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	return bw.Flush()
}

// text escapes a TEXT value (section 3.3.11): backslash, semicolon and
// comma escaped, a newline written \n; other control characters, which
// no TEXT may hold, are dropped.
func text(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\', r == ';', r == ',':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case unicode.IsControl(r), r == utf8.RuneError:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeFolded writes one content line, folded (section 3.1): after 75
// octets a CRLF and a space, the space counting in the next line's 75,
// never inside a UTF-8 sequence.
func writeFolded(w *bufio.Writer, s string) {
	limit := maxOctets
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		w.WriteString(s[:cut])
		w.WriteString("\r\n ")
		s = s[cut:]
		limit = maxOctets - 1
	}
	w.WriteString(s)
	w.WriteString("\r\n")
}
