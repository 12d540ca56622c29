package config

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/internal/atomicfile"
	"allot/wallet"
)

// Editing a profile's pins in its file. `allot pin` and the dashboard's
// pin question change [profiles.NAME.pins] and nothing else: comments,
// order, blank lines and every other value stay as the user wrote them.
// The edited text is parsed again and must decode to the configuration
// before the edit with exactly the pin changed; only then does it replace
// the file (atomically, its mode kept, under a lock: see EditPinsFile).

// listKey is the key of kind's list in a pins table.
func listKey(kind wallet.PinKind) (string, error) {
	switch kind {
	case wallet.PinVester:
		return "vesters", nil
	case wallet.PinStaking:
		return "staking", nil
	case wallet.PinToken:
		return "tokens", nil
	case wallet.PinHandler:
		return "handlers", nil
	}
	return "", fmt.Errorf("no kind of pin %q: want vester, staking, token or handler", kind)
}

// list returns the pins' list of kind.
func (p *Pins) list(kind wallet.PinKind) *[]string {
	switch kind {
	case wallet.PinVester:
		return &p.Vesters
	case wallet.PinStaking:
		return &p.Staking
	case wallet.PinToken:
		return &p.Tokens
	case wallet.PinHandler:
		return &p.Handlers
	}
	return nil
}

// PinEdit is a change of a profile's pins.
type PinEdit struct {
	Profile string
	Kind    wallet.PinKind
	Address common.Address
	// CodeHash is the code hash to record with the pin; ignored when
	// Remove is set.
	CodeHash common.Hash
	// Implementation and ImplementationHash are, for a proxy, the
	// implementation it delegates to and its code hash (zero: no proxy).
	Implementation     common.Address
	ImplementationHash common.Hash
	// Remove takes the address out of the list instead, and its code hash
	// when no other list pins it.
	Remove bool
}

// EditPins applies edit to the configuration text src and returns the new
// text. The result is parsed again, and must decode to src's configuration
// with only that pin changed.
func EditPins(src []byte, edit PinEdit) ([]byte, error) {
	before, err := Parse(src)
	if err != nil {
		return nil, err
	}
	profile, ok := before.Profiles[edit.Profile]
	if !ok {
		return nil, fmt.Errorf("no profile %q (have: %s)", edit.Profile, strings.Join(before.ProfileNames(), ", "))
	}
	key, err := listKey(edit.Kind)
	if err != nil {
		return nil, err
	}
	text := string(src)
	pins := []string{"profiles", edit.Profile, "pins"}
	if edit.Remove {
		text, err = removePin(text, pins, key, edit.Address)
		if err == nil && !pinnedElsewhere(profile.Pins, edit.Kind, edit.Address) {
			text, err = removeCodeHash(text, append(pins, "code_hashes"), edit.Address)
			if err == nil {
				text, err = editImplementation(text, pins, edit, true)
			}
		}
	} else {
		text, err = addPin(text, pins, key, edit.Address)
		if err == nil {
			text, err = setCodeHash(text, append(pins, "code_hashes"), edit.Address, edit.CodeHash)
		}
		if err == nil {
			text, err = editImplementation(text, pins, edit, false)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("edit the pins of profile %q: %w", edit.Profile, err)
	}
	after, err := Parse([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("edit the pins of profile %q: the edited file would not parse (%v): nothing was changed; edit it by hand", edit.Profile, err)
	}
	want := expected(before, edit)
	for _, c := range []*Config{want, after} {
		c.Path, c.Warnings = "", nil
	}
	if !reflect.DeepEqual(normalize(want), normalize(after)) {
		return nil, fmt.Errorf("edit the pins of profile %q: the edited file would change more than the pin: nothing was changed; edit it by hand", edit.Profile)
	}
	return []byte(text), nil
}

// pinnedElsewhere reports whether p pins addr in another list than kind's.
func pinnedElsewhere(p Pins, kind wallet.PinKind, addr common.Address) bool {
	for _, k := range wallet.PinKinds {
		if k == kind {
			continue
		}
		for _, v := range *p.list(k) {
			if sameAddress(v, addr) {
				return true
			}
		}
	}
	return false
}

// expected is before with edit applied to its decoded values.
func expected(before *Config, edit PinEdit) *Config {
	want := *before
	want.Profiles = map[string]Profile{}
	for name, p := range before.Profiles {
		want.Profiles[name] = p
	}
	p := want.Profiles[edit.Profile]
	pins := p.Pins
	pins.Vesters, pins.Staking, pins.Tokens, pins.Handlers = slices.Clone(pins.Vesters), slices.Clone(pins.Staking), slices.Clone(pins.Tokens), slices.Clone(pins.Handlers)
	hashes := map[string]string{}
	for k, v := range pins.CodeHashes {
		hashes[k] = v
	}
	list := pins.list(edit.Kind)
	if edit.Remove {
		*list = slices.DeleteFunc(*list, func(v string) bool { return sameAddress(v, edit.Address) })
		if !pinnedElsewhere(pins, edit.Kind, edit.Address) {
			for k := range hashes {
				if sameAddress(k, edit.Address) {
					delete(hashes, k)
				}
			}
			expectImplementation(&pins, edit, true)
		}
	} else {
		if !slices.ContainsFunc(*list, func(v string) bool { return sameAddress(v, edit.Address) }) {
			*list = append(*list, edit.Address.Hex())
		}
		set := false
		for k := range hashes {
			if sameAddress(k, edit.Address) {
				hashes[k], set = edit.CodeHash.Hex(), true
			}
		}
		if !set {
			hashes[edit.Address.Hex()] = edit.CodeHash.Hex()
		}
		expectImplementation(&pins, edit, false)
	}
	pins.CodeHashes = hashes
	p.Pins = pins
	want.Profiles[edit.Profile] = p
	return &want
}

// normalize makes empty lists and maps nil, so that a list written as []
// and one left out compare equal.
func normalize(c *Config) *Config {
	out := *c
	out.Profiles = map[string]Profile{}
	for name, p := range c.Profiles {
		for _, l := range []*[]string{&p.Pins.Vesters, &p.Pins.Staking, &p.Pins.Tokens, &p.Pins.Handlers, &p.Safes} {
			if len(*l) == 0 {
				*l = nil
			}
		}
		for _, m := range []*map[string]string{&p.Pins.CodeHashes, &p.Pins.Implementations, &p.Pins.ImplementationHashes} {
			if len(*m) == 0 {
				*m = nil
			}
		}
		out.Profiles[name] = p
	}
	return &out
}

func sameAddress(v string, addr common.Address) bool {
	return common.IsHexAddress(v) && common.HexToAddress(v) == addr
}

// addPin adds addr to the array key of table, unless it holds it already.
func addPin(text string, table []string, key string, addr common.Address) (string, error) {
	doc, err := scanTOML(text)
	if err != nil {
		return "", err
	}
	lit := strconv.Quote(addr.Hex())
	e := doc.find(append(slices.Clone(table), key))
	if e == nil {
		return doc.insert(table, key, "["+lit+"]")
	}
	if e.array == nil {
		return "", fmt.Errorf("%s is not an array", dotted(e.path))
	}
	for _, el := range e.array.elems {
		if v, ok := unquoteValue(text[el.start:el.end]); ok && sameAddress(v, addr) {
			return text, nil
		}
	}
	return doc.appendElem(e.array, lit), nil
}

// removePin removes addr from the array key of table.
func removePin(text string, table []string, key string, addr common.Address) (string, error) {
	doc, err := scanTOML(text)
	if err != nil {
		return "", err
	}
	e := doc.find(append(slices.Clone(table), key))
	if e == nil || e.array == nil {
		return "", fmt.Errorf("%s is not pinned as %s", addr.Hex(), key)
	}
	// The last first, so that the offsets of the others hold.
	found := false
	for i := len(e.array.elems) - 1; i >= 0; i-- {
		el := e.array.elems[i]
		if v, ok := unquoteValue(text[el.start:el.end]); ok && sameAddress(v, addr) {
			text = removeElem(text, e.array, i)
			found = true
		}
	}
	if !found {
		return "", fmt.Errorf("%s is not pinned as %s", addr.Hex(), key)
	}
	return text, nil
}

// setCodeHash sets addr's code hash in table, a map keyed by address.
func setCodeHash(text string, table []string, addr common.Address, hash common.Hash) (string, error) {
	return setEntry(text, table, addr, strconv.Quote(hash.Hex()))
}

// setEntry sets addr's value in table, a map keyed by address, to lit.
func setEntry(text string, table []string, addr common.Address, lit string) (string, error) {
	doc, err := scanTOML(text)
	if err != nil {
		return "", err
	}
	if e := doc.findAddressKey(table, addr); e != nil {
		return text[:e.valStart] + lit + text[e.valEnd:], nil
	}
	return doc.insert(table, strconv.Quote(addr.Hex()), lit)
}

// removeCodeHash removes addr's code hash from table, if it has one.
func removeCodeHash(text string, table []string, addr common.Address) (string, error) {
	doc, err := scanTOML(text)
	if err != nil {
		return "", err
	}
	e := doc.findAddressKey(table, addr)
	if e == nil {
		return text, nil
	}
	if e.inline == nil {
		return text[:lineStart(text, e.start)] + text[e.lineEnd:], nil
	}
	entries := e.inline.entries
	i := slices.Index(entries, e)
	switch {
	case len(entries) == 1:
		return text[:e.inline.open+1] + text[e.inline.close:], nil
	case i+1 < len(entries):
		return text[:e.start] + text[entries[i+1].start:], nil
	default:
		comma := strings.LastIndexByte(text[:e.start], ',')
		return text[:comma] + text[e.valEnd:], nil
	}
}

// find returns the pair whose full path is path.
func (d *tomlDoc) find(path []string) *tomlEntry {
	for _, e := range d.entries {
		if samePath(e.path, path) {
			return e
		}
	}
	return nil
}

// findAddressKey returns the pair of table whose key is addr, in any case.
func (d *tomlDoc) findAddressKey(table []string, addr common.Address) *tomlEntry {
	for _, e := range d.entries {
		if len(e.path) == len(table)+1 && hasPrefix(e.path, table) && sameAddress(e.path[len(table)], addr) {
			return e
		}
	}
	return nil
}

// insert adds the pair key = value (key written as it goes in the file)
// to table, which may not exist yet: in the table's own section or inline
// table when it has one; else beside the dotted keys that make it; else
// as a new [table] section after the sections of its nearest ancestor
// with one.
func (d *tomlDoc) insert(table []string, key, value string) (string, error) {
	src := d.src
	for _, h := range d.headers {
		if !h.arrayTable && samePath(h.path, table) {
			return insertLine(src, h.bodyEnd, indentOf(src, h, d), key+" = "+value), nil
		}
	}
	for _, e := range d.entries {
		if e.table != nil && samePath(e.path, table) {
			return insertInline(src, e.table, key+" = "+value), nil
		}
	}
	// Made by dotted keys: the new key goes beside the last of them, in
	// the same container.
	var last *tomlEntry
	for _, e := range d.entries {
		if len(e.path) > len(table) && hasPrefix(e.path, table) && len(e.relKey) > len(e.path)-len(table) {
			last = e
		}
	}
	if last != nil {
		rel := last.relKey[:len(last.relKey)-(len(last.path)-len(table))]
		pair := dotted(rel) + "." + key + " = " + value
		if last.inline != nil {
			return src[:last.valEnd] + ", " + pair + src[last.valEnd:], nil
		}
		return insertLine(src, last.lineEnd, src[lineStart(src, last.start):last.start], pair), nil
	}
	if d.definedInline(table) {
		return "", fmt.Errorf("%s is inside an inline table: add it by hand", dotted(table))
	}
	// A new section, after the last section of the nearest ancestor that
	// has one (a profile's [profiles.NAME] and its sub-tables).
	for n := len(table) - 1; n >= 2; n-- {
		at := -1
		for _, h := range d.headers {
			if hasPrefix(h.path, table[:n]) {
				at = h.bodyEnd
			}
		}
		if at >= 0 {
			section := "[" + dotted(table) + "]\n" + key + " = " + value + "\n"
			if at > 0 && src[at-1] != '\n' {
				section = "\n" + section
			}
			if at < len(src) && src[at] != '\n' {
				section += "\n"
			}
			return src[:at] + "\n" + section + src[at:], nil
		}
	}
	return "", fmt.Errorf("no [%s] table to add %s to: add it by hand", dotted(table[:2]), dotted(table))
}

// definedInline reports whether table, or one of its ancestors, is an
// inline table, which no [header] may extend.
func (d *tomlDoc) definedInline(table []string) bool {
	for _, e := range d.entries {
		if e.table != nil && hasPrefix(table, e.path) {
			return true
		}
	}
	return false
}

// indentOf is the indentation of a section's pairs: that of its last one,
// else none.
func indentOf(src string, h *tomlHeader, d *tomlDoc) string {
	indent := ""
	for _, e := range d.entries {
		if e.header == h && e.inline == nil {
			indent = src[lineStart(src, e.start):e.start]
		}
	}
	return indent
}

// insertLine inserts a line at offset at, the start of a line.
func insertLine(src string, at int, indent, line string) string {
	prefix := ""
	if at > 0 && src[at-1] != '\n' {
		prefix = "\n"
	}
	return src[:at] + prefix + indent + line + "\n" + src[at:]
}

// insertInline adds a pair to an inline table.
func insertInline(src string, t *tomlInline, pair string) string {
	if len(t.entries) == 0 {
		return src[:t.open] + "{ " + pair + " }" + src[t.close+1:]
	}
	end := t.entries[len(t.entries)-1].valEnd
	return src[:end] + ", " + pair + src[end:]
}

// appendElem adds an element at the end of an array, on a line of its own
// when the array's elements are each on their own line.
func (d *tomlDoc) appendElem(a *tomlArray, lit string) string {
	src := d.src
	if len(a.elems) == 0 {
		inner := src[a.open+1 : a.close]
		if !strings.ContainsAny(inner, "\n") {
			return src[:a.open] + "[" + lit + "]" + src[a.close+1:]
		}
		at := lineStart(src, a.close)
		closeIndent := src[at:a.close]
		if strings.TrimSpace(closeIndent) != "" {
			return src[:a.close] + lit + src[a.close:]
		}
		return src[:at] + closeIndent + "  " + lit + ",\n" + src[at:]
	}
	last := a.elems[len(a.elems)-1]
	if !strings.Contains(src[last.end:a.close], "\n") {
		return src[:last.end] + ", " + lit + src[last.end:]
	}
	// The last element's line ends before the bracket: the new one goes
	// on the next line, with its indentation, after a comma.
	after := lineEnd(src, last.end)
	indent := src[lineStart(src, last.start):last.start]
	if strings.TrimSpace(indent) != "" {
		indent = "  "
	}
	comma := ""
	if !strings.HasPrefix(strings.TrimLeft(src[last.end:after], " \t"), ",") {
		comma = ","
	}
	return src[:last.end] + comma + src[last.end:after] + indent + lit + ",\n" + src[after:]
}

// removeElem removes element i of a, with its comma; an element alone on
// its line goes with its line (and the comment on it).
func removeElem(src string, a *tomlArray, i int) string {
	el := a.elems[i]
	start, end := lineStart(src, el.start), lineEnd(src, el.end)
	rest := strings.TrimLeft(src[el.end:end], " \t")
	rest = strings.TrimLeft(strings.TrimPrefix(rest, ","), " \t")
	aloneOnLine := strings.TrimSpace(src[start:el.start]) == "" &&
		(rest == "" || rest[0] == '\n' || rest[0] == '\r' || rest[0] == '#') && end <= a.close
	if aloneOnLine {
		return src[:start] + src[end:]
	}
	// A comma after the element goes with it; for the last one, the
	// comma before it.
	after := el.end
	for after < a.close && (src[after] == ' ' || src[after] == '\t') {
		after++
	}
	if after < a.close && src[after] == ',' {
		after++
		for after < a.close && (src[after] == ' ' || src[after] == '\t') {
			after++
		}
		return src[:el.start] + src[after:]
	}
	if i > 0 {
		comma := strings.LastIndexByte(src[a.elems[i-1].end:el.start], ',')
		if comma >= 0 {
			return src[:a.elems[i-1].end+comma] + src[el.end:]
		}
	}
	return src[:el.start] + src[el.end:]
}

// EditPinsFile applies edit to the configuration file at path, replacing
// it atomically with its mode kept, once the edited text parsed as it
// must. A symbolic link is followed: the file it names is edited. The
// read, the edit and the rename hold a lock beside the file, so that two
// edits at once each see the other's; the file is read back after the
// rename and must hold the edit. A read-only file, or another user's, is
// refused, never replaced.
func EditPinsFile(path string, edit PinEdit) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("pin in %s: %w", path, err)
	}
	unlock, err := lockBeside(real)
	if err != nil {
		return fmt.Errorf("pin in %s: %w", path, err)
	}
	defer unlock()
	// Read under the lock: the file may have changed while this edit
	// waited for it.
	src, info, err := readFile(real)
	if err != nil {
		return fmt.Errorf("pin in %s: %w", path, err)
	}
	if err := replaceable(info); err != nil {
		return fmt.Errorf("pin in %s: %w", path, err)
	}
	text, err := editLineEnds(src, func(src []byte) ([]byte, error) { return EditPins(src, edit) })
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := atomicfile.WriteMode(real, text, info.Mode()); err != nil {
		return err
	}
	return holds(real, edit)
}

// editLineEnds is edit on a file whose lines all end in CRLF as well:
// the edit is made on LF lines and the CRLF put back, so that the lines
// it adds end like the others.
func editLineEnds(src []byte, edit func([]byte) ([]byte, error)) ([]byte, error) {
	crlf := bytes.Count(src, []byte("\r\n"))
	if crlf == 0 || crlf != bytes.Count(src, []byte("\n")) {
		return edit(src)
	}
	text, err := edit(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n")), nil
}

// holds reads the file at path back and says whether it holds edit: the
// pin there with its code hash, or gone. An edit is reported done only
// when the file says so.
func holds(path string, edit PinEdit) error {
	src, _, err := readFile(path)
	if err != nil {
		return fmt.Errorf("pin in %s: read it back: %w", path, err)
	}
	cfg, err := Parse(src)
	if err != nil {
		return fmt.Errorf("pin in %s: read it back: %w", path, err)
	}
	pins, err := cfg.Profiles[edit.Profile].SigningPins()
	if err != nil {
		return fmt.Errorf("pin in %s: read it back: %w", path, err)
	}
	pinned := pins.Pinned(edit.Kind, edit.Address)
	switch {
	case edit.Remove && pinned:
		return fmt.Errorf("pin in %s: read back, the file still pins %s %s", path, edit.Kind, edit.Address.Hex())
	case !edit.Remove && (!pinned || pins.CodeHashes[edit.Address] != edit.CodeHash):
		return fmt.Errorf("pin in %s: read back, the file does not pin %s %s with code hash %s", path, edit.Kind, edit.Address.Hex(), edit.CodeHash.Hex())
	}
	return nil
}
