package views

import (
	"time"

	"allot/core/rows"
	"allot/views/widget"
)

// Columns are the dashboard's columns of a row type, made from its
// description (core/rows): the titles name the token's unit, the cells
// are what every table writes, numbers right-aligned with their points
// lined up. unit is the token's symbol ("" unnamed).
func Columns[R any](cs rows.Columns[R], unit string) []widget.Column[R] {
	var out []widget.Column[R]
	for _, c := range cs.In(rows.Dashboard) {
		col := widget.Column[R]{
			Title: c.Header(rows.Dashboard, unit),
			Cell:  func(r R) string { return c.Cell(&r) },
			Text:  c.Width.Free, MinWidth: c.Width.Min, MaxWidth: c.Width.Max, Flex: c.Width.Flex, Priority: c.Width.Priority,
			SortRef: c.Compare, SortKey: c.SortKey,
		}
		if c.Kind.Number() {
			col.Align, col.Decimal = widget.AlignRight, true
		}
		out = append(out, col)
	}
	return out
}

// Details are the details' fields of row r, from its description: an
// amount followed by its unit, a time also how far from now, in the tone
// the description gives it; a column with no value is left out.
func Details[R any](cs rows.Columns[R], unit string, now time.Time, r R) []widget.Field {
	at := func(t time.Time) string { return widget.FormatTime(t, now) }
	var out []widget.Field
	for _, c := range cs.In(rows.Details) {
		v := c.Detail(&r, unit, at)
		if v == "" {
			continue
		}
		f := widget.Field{Label: c.Title, Value: v}
		if c.Tone != nil {
			f.Tone = tones[c.Tone(&r)]
		}
		out = append(out, f)
	}
	return out
}

// tones are the theme's tones of the descriptions'.
var tones = map[rows.Tone]widget.Tone{
	rows.Plain: widget.ToneNone, rows.Pass: widget.TonePass, rows.Fail: widget.ToneFail, rows.Unknown: widget.ToneUnchecked,
}
