package widget

import (
	"strings"
	"testing"
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
