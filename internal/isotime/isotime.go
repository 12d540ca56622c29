// Package isotime writes the service's timestamps, and spans of seconds
// (Span) as people read them. Timestamps: ISO 8601 in UTC with
// milliseconds, 2006-01-02T15:04:05.000Z (D15 in docs/deployment.md). The
// layout is defined here alone, and written only through Format and
// Append, which convert to UTC first: the layout's Z is a literal, so a
// time in another zone formatted with it would claim to be UTC and lie.
package isotime

import "time"

// Layout is D15's layout, for parsing; write with Format or Append.
const Layout = "2006-01-02T15:04:05.000Z"

// Format writes t, in UTC, in Layout.
func Format(t time.Time) string { return t.UTC().Format(Layout) }

// Append appends t, in UTC, in Layout to dst.
func Append(dst []byte, t time.Time) []byte { return t.UTC().AppendFormat(dst, Layout) }
