package creative

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// inspect reads what the file is before anything is asked of the
// service: its size, then its type from its first bytes.
func inspect(path string) inspectedMsg {
	name := filepath.Base(path)
	fail := func(err error) inspectedMsg {
		return inspectedMsg{err: fmt.Errorf("%s: %w", sanitize.Line(name), err)}
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(errors.Unwrap(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if !info.Mode().IsRegular() {
		return fail(errors.New("not a regular file"))
	}
	if err := api.CheckCreativeSize(info.Size()); err != nil {
		return fail(err)
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fail(err)
	}
	ct, from := sniff(head[:n], name)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	// A name the service does not store (a space, an accent, an emoji)
	// is offered one made from it.
	stored := api.FileNameFor(name)
	unique, err := act.StoredName(stored, f)
	if err != nil {
		return fail(err)
	}
	// The portal is not chosen yet: check the file's type alone.
	if err := (api.UploadURLRequest{FileName: stored, ContentType: ct, PortalSlug: "portal"}).Validate(); err != nil {
		return fail(err)
	}
	return inspectedMsg{file: inspectedFile{Path: path, Name: name, Stored: stored, Unique: unique, Type: ct, TypeFrom: from, Size: info.Size()}}
}

// sniff decides a file's media type (see api.CreativeType) and says
// from what: "content" or "extension".
func sniff(head []byte, name string) (contentType, from string) {
	ct, fromContent := api.CreativeType(head, name)
	if fromContent {
		return ct, "content"
	}
	return ct, "extension"
}

// defaultSlug is the portal the upload goes to unless changed: the
// sandbox's portal, or the profile's portal id.
func defaultSlug(ctx *views.Context) string {
	if fx := ctx.Session.Fixtures; fx != nil && fx.PortalSlug != "" {
		return fx.PortalSlug
	}
	return ctx.Session.Profile.PortalID
}

func (c *creative) details(f inspectedFile) {
	c.file = f
	// Keyed by the requests' paths: their errors, ours or the service's,
	// land under them (views.ErrorOf, Form.SetErrors).
	c.nameF = widget.TextField("name", "Name", "what the portal calls it", nil)
	c.portalF = widget.TextField("portalSlug", "Portal", "portal slug", nil)
	c.storeF = widget.ChoiceField("store", "Stored as", f.Unique, f.Stored+" (replace)")
	c.form = widget.NewForm(c.nameF, c.portalF, c.storeF)
	c.form.Styles = c.ctx.Styles
	c.form.SetSize(max(c.width, 20), 6)
	c.form.Submit = c.review // enter on the last field
	for _, fld := range []*widget.FormField{c.nameF, c.portalF} {
		fld.Check = func(string) error { return views.ErrorOf(c.form, fld, c.problems()) }
	}
	// Set once checked: a value given that is wrong shows its error at
	// once; an empty field's only once it is edited, or on review.
	c.nameF.SetValue(f.Name)
	c.portalF.SetValue(defaultSlug(c.ctx))
	c.message = c.unmatched()
	c.state = stageDetails
}

// replacing says the user chose to store the file under its own name,
// replacing the bytes of any earlier upload of that name.
func (c *creative) replacing() bool { return c.storeF.Value() != c.file.Unique }

func (c *creative) stored() string {
	if c.replacing() {
		return c.file.Stored
	}
	return c.file.Unique
}

func (c *creative) urlRequest() api.UploadURLRequest {
	return api.UploadURLRequest{FileName: c.stored(), ContentType: c.file.Type, PortalSlug: c.portalF.Value()}
}

// problems is what the api package says of the upload's two requests as
// the form stands; the storage key comes with the upload URL, so only the
// registration's name is checked.
func (c *creative) problems() error {
	all := &api.ValidationError{Op: "creative"}
	for _, err := range []error{c.urlRequest().Validate(), api.CreateCreativeRequest{StorageKey: "pending", Name: c.nameF.Value()}.Validate()} {
		var v *api.ValidationError
		if errors.As(err, &v) {
			all.Fields = append(all.Fields, v.Fields...)
		}
	}
	if len(all.Fields) == 0 {
		return nil
	}
	return all
}

// unmatched are the problems no field shows (the stored file name, its
// type), for the message line.
func (c *creative) unmatched() string {
	var out []widget.PathError
	for _, e := range views.PathErrors(c.problems()) {
		if f, _ := c.form.FieldOf(e.Path); f == nil {
			out = append(out, e)
		}
	}
	return views.Unmatched(out)
}
