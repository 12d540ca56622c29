package widget

// lineCacheSize bounds each generation of the line cache. Two generations
// are kept, so at most twice this many rendered lines stay in memory however
// far the user pages through a million rows.
const lineCacheSize = 2048

// lineCache keeps rendered table lines by row index (the row's position in
// the slice given to SetRows, which sorting and filtering do not change).
// It is a two-generation cache: when the current map fills up it becomes the
// old one and a fresh map starts; a hit in the old map moves the line
// forward. Lines that stay in view therefore stay cached, at the cost of
// two map lookups at most, with no per-entry bookkeeping as in an LRU list.
type lineCache struct {
	cur, old map[int]string
}

func (c *lineCache) get(row int) (string, bool) {
	if s, ok := c.cur[row]; ok {
		return s, true
	}
	if s, ok := c.old[row]; ok {
		c.put(row, s)
		return s, true
	}
	return "", false
}

func (c *lineCache) put(row int, line string) {
	if c.cur == nil {
		c.cur = make(map[int]string, 64)
	}
	if len(c.cur) >= lineCacheSize {
		c.old, c.cur = c.cur, make(map[int]string, lineCacheSize)
	}
	c.cur[row] = line
}

// reset drops every line: the rows or the column widths changed.
func (c *lineCache) reset() {
	c.cur, c.old = nil, nil
}
