// Package widget holds the reusable pieces of the dashboard's screens: a
// table that stays fluid at a million rows, a detail pane, charts (bars, a
// histogram, an unlock step chart), a form, a confirm dialog, and the
// helpers they share: formatting (amounts, times, durations) and Fit, which
// cuts or pads any view to the box it is drawn in.
//
// Every widget is a pointer model in the style of the rest of the dashboard:
// Update(msg) returns only a tea.Cmd, View renders, SetSize tells it its
// area, and ShortHelp/FullHelp feed bubbles/help. Widgets sanitize every
// string they draw, because most of it came from the network.
//
// A screen typically builds a table once and keeps it, so the cursor survives
// navigation:
//
//	t := widget.NewTable(widget.TableConfig[api.Stake]{
//		Columns: []widget.Column[api.Stake]{
//			{Title: "Wallet", Cell: func(s api.Stake) string { return s.Wallet }, Flex: 2},
//			{Title: "Amount", Cell: func(s api.Stake) string { return widget.FormatAmount(s.Amount) },
//				Align: widget.AlignRight, Sort: byAmount},
//		},
//		ID:     func(s api.Stake) string { return s.ID },
//		OnOpen: func(s api.Stake) tea.Cmd { return openStake(s.ID) },
//	})
//	cmd := t.SetRows(stakes)
//
// and forwards every message it does not handle itself to t.Update: the
// table's debounce ticks and background results come back as messages.
package widget
