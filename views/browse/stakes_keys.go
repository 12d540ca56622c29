package browse

import (
	"github.com/charmbracelet/bubbles/key"

	"allot/views"
)

// histogramKeys are the table's keys that change the histogram: its
// filter, which the histogram follows.
func (s *stakes) histogramKeys() []key.Binding {
	k := s.Table.Keys()
	return []key.Binding{k.Filter, k.ClearFilter}
}

func (s *stakes) ShortHelp() []key.Binding {
	if s.noSession() {
		return nil
	}
	if s.pool.ID == "" {
		return []key.Binding{views.KeyRefresh}
	}
	if s.Table.EditingFilter() {
		return s.List.ShortHelp() // every other key is typed into the filter
	}
	if s.histogram {
		back := keyHistogram
		back.SetHelp(back.Help().Key, "back to the list")
		keys := []key.Binding{back, views.KeyRefresh, s.Table.Keys().Filter}
		if s.Table.Query() != "" {
			keys = append(keys, s.Table.Keys().ClearFilter)
		}
		return keys
	}
	return append([]key.Binding{keyHistogram, views.KeyRefresh}, s.List.ShortHelp()...)
}

// FullHelp lists h and r too: the list's own help does not know them.
func (s *stakes) FullHelp() [][]key.Binding {
	if s.noSession() {
		return nil
	}
	if s.pool.ID == "" {
		return [][]key.Binding{{views.KeyRefresh}}
	}
	if s.Table.EditingFilter() {
		return s.List.FullHelp()
	}
	if s.histogram {
		return [][]key.Binding{s.ShortHelp()}
	}
	return append([][]key.Binding{{keyHistogram, views.KeyRefresh}}, s.List.FullHelp()...)
}
