package widget

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// stakesScreenColumns are the Stakes screen's columns: a whole address
// asked for (MinWidth 42), an amount, then extras the width drops first.
func stakesScreenColumns() []Column[stake] {
	return []Column[stake]{
		{Title: "Wallet", Cell: func(s stake) string { return s.Wallet }, MinWidth: 42, MaxWidth: 42, Flex: 3},
		{Title: "Amount", Cell: func(s stake) string { return FormatAmount(s.Amount) }, Align: AlignRight, MinWidth: 16},
		{Title: "Status", Cell: func(s stake) string { return s.Status }, MinWidth: 9, Priority: 2},
		{Title: "Created", Cell: func(s stake) string { return s.CreatedAt.UTC().Format("2006-01-02 15:04 UTC") }, MinWidth: 20, Priority: 3},
		{Title: "ID", Cell: func(s stake) string { return s.ID }, MinWidth: 10, Priority: 4},
	}
}

func stakesScreenTable(rows []stake, width int) *Table[stake] {
	tb := NewTable(TableConfig[stake]{Columns: stakesScreenColumns(), ID: func(s stake) string { return s.ID }, Clipboard: Clipboard{Out: discard{}}})
	tb.SetSize(width, 8)
	tb.SetRows(rows)
	return tb
}

// TestNarrowTableShortensAddressesNotAmounts: at 60 columns the Stakes
// table showed the whole wallet and its status but no amount. An address
// gives way first, shortened in the middle as explorers write it, and the
// amount and the status stay whole; at 80 columns the wallet is whole
// again, and columns the screen ranks last do not cut it to come in.
func TestNarrowTableShortensAddressesNotAmounts(t *testing.T) {
	rows := makeStakes(20)
	rows[0].Wallet = "0xC6AfC291e937060Af999E43b47719479c2376EC9"
	rows[0].Amount = "153145859.01"

	view := stakesScreenTable(rows, 60).View()
	checkFits(t, view, 60, 8)
	header := strings.Fields(strings.SplitN(view, "\n", 2)[0])
	if strings.Join(header, " ") != "Wallet Amount Status" {
		t.Errorf("header at 60 columns %q, want Wallet Amount Status:\n%s", header, view)
	}
	if line := cursorLine(t, view); !strings.Contains(line, "0xC6AfC2") || !strings.Contains(line, "…") ||
		!strings.Contains(line, "76EC9 ") || !strings.Contains(line, "153,145,859.01") {
		t.Errorf("at 60 columns the first row %q: want the wallet's both ends and the whole amount", line)
	}

	view = stakesScreenTable(rows, 80).View()
	if line := cursorLine(t, view); !strings.Contains(line, rows[0].Wallet) || !strings.Contains(line, "153,145,859.01") ||
		strings.Contains(line, "2026") {
		t.Errorf("at 80 columns the first row %q: want the whole wallet and amount, no Created", line)
	}
}

// TestEmptyTableHeaderStaysPacked: with no rows there is no content to
// grow the columns to; the header stays packed at the left instead of
// spreading the flexible columns over 200 columns.
func TestEmptyTableHeaderStaysPacked(t *testing.T) {
	type tx struct{ ID, Kind, Status string }
	cols := []Column[tx]{
		{Title: "Transaction", Cell: func(r tx) string { return r.ID }, MinWidth: 14, Flex: 3},
		{Title: "Kind", Cell: func(r tx) string { return r.Kind }, MinWidth: 18, MaxWidth: 18},
		{Title: "Status", Cell: func(r tx) string { return r.Status }, Text: true, MinWidth: 16, Flex: 3},
	}
	tb := NewTable(TableConfig[tx]{Columns: cols, ID: func(r tx) string { return r.ID }, Empty: "None.", Clipboard: Clipboard{Out: discard{}}})
	tb.SetSize(200, 6)
	header := strings.TrimRight(strings.SplitN(tb.View(), "\n", 2)[0], " ")
	if want := "  Transaction     Kind                Status"; header != want {
		t.Errorf("empty table's header at 200 columns:\n%q\nwant\n%q", header, want)
	}
}

func TestShortenMiddle(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"0xC6AfC291e937060Af999E43b47719479c2376EC9", 11, "0xC6Af…6EC9"},
		{"0xC6AfC291e937060Af999E43b47719479c2376EC9", 12, "0xC6AfC…6EC9"},
		{"0xC6AfC291e937060Af999E43b47719479c2376EC9", 42, "0xC6AfC291e937060Af999E43b47719479c2376EC9"},
		{"e5af6732-849d-5fd1-b52f-0ced56bf2856", 11, "e5af6…f2856"},
		{"0xabcdef12", 2, "0…"},
	}
	for _, tt := range tests {
		if got := shortenMiddle(tt.in, tt.w); got != tt.want || displayWidth(got) > tt.w {
			t.Errorf("shortenMiddle(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
	for _, s := range []string{"153,145,859.01", "1234567890123456789", "STAKED", "Team & Advisors Vesting", "0x12"} {
		if isID(s) {
			t.Errorf("isID(%q): a number, a name or a status is not an identifier", s)
		}
	}
}

// TestDecimalColumnsLineUp: a Decimal column lines its numbers up on
// their points under right alignment, each written as its cell writes it
// (as its details and the command line do: "49,040,483.89" above
// "1,108,244.2683", never "49,040,483.8900"); a unit after the number
// stays after it.
func TestDecimalColumnsLineUp(t *testing.T) {
	type pool struct{ Name, APY, Staked string }
	cols := []Column[pool]{
		{Title: "Name", Cell: func(p pool) string { return p.Name }},
		{Title: "Max APY", Cell: func(p pool) string { return p.APY + "%" }, Align: AlignRight, Decimal: true},
		{Title: "Staked", Cell: func(p pool) string { return p.Staked }, Align: AlignRight, Decimal: true},
	}
	tb := NewTable(TableConfig[pool]{Columns: cols, ID: func(p pool) string { return p.Name }, Clipboard: Clipboard{Out: discard{}}})
	tb.SetSize(60, 8)
	tb.SetRows([]pool{{"Flex", "6.50", "49,040,483.89"}, {"Lock", "16.875", "1,108,244.2683"}, {"Whale", "20", "15"}})
	view := ansi.Strip(tb.View())
	for _, want := range []string{" 6.50% ", "16.875%", " 20% ", "49,040,483.89 ", "1,108,244.2683", " 15 "} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in:\n%s", want, view)
		}
	}
	if strings.Contains(view, ".8900") || strings.Contains(view, "6.500") {
		t.Errorf("zeros added to a number:\n%s", view)
	}
	// The points line up: every row's whole part of the Staked column
	// ends at the same place.
	whole := regexp.MustCompile(`([0-9,]+)(\.[0-9]+)? *$`)
	var points []int
	for _, l := range strings.Split(view, "\n")[1:4] {
		m := whole.FindStringSubmatchIndex(l)
		points = append(points, utf8.RuneCountInString(l[:m[3]]))
	}
	if points[0] != points[1] || points[1] != points[2] {
		t.Errorf("points at %v, not lined up:\n%s", points, view)
	}
}

func TestPadFraction(t *testing.T) {
	for _, c := range []struct {
		cell   string
		digits int
		want   string
	}{
		{"6.5%", 3, "6.5%  "},
		{"20", 2, "20   "},
		{"1,000", 2, "1,000   "},
		{"0.123456789", 2, "0.123456789"}, // more digits stay as they are
		{"-1.5", 2, "-1.5 "},
		{"n/a", 2, "n/a"},
		{"12.5", 0, "12.5"},
	} {
		if got := padFraction(c.cell, c.digits); got != c.want {
			t.Errorf("padFraction(%q, %d) = %q, want %q", c.cell, c.digits, got, c.want)
		}
	}
}
