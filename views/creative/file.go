package creative

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"allot/api"
	"allot/internal/act"
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
	unique, err := act.StoredName(name, f)
	if err != nil {
		return fail(err)
	}
	// The portal is not chosen yet: check the file's name and type alone.
	if err := (api.UploadURLRequest{FileName: name, ContentType: ct, PortalSlug: "portal"}).Validate(); err != nil {
		return fail(err)
	}
	return inspectedMsg{file: inspectedFile{Path: path, Name: name, Unique: unique, Type: ct, TypeFrom: from, Size: info.Size()}}
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
	c.nameF = widget.TextField("name", "Name", "what the portal calls it", nil)
	c.nameF.SetValue(f.Name)
	c.portalF = widget.TextField("portalSlug", "Portal", "portal slug", nil)
	c.portalF.SetValue(defaultSlug(c.ctx))
	c.storeF = widget.ChoiceField("store", "Stored as", f.Unique, f.Name+" (replace)")
	c.form = widget.NewForm(c.nameF, c.portalF, c.storeF)
	c.form.Styles = c.ctx.Styles
	c.form.SetSize(max(c.width, 20), 6)
	c.touched = map[*widget.FormField]bool{}
	c.message = ""
	c.state = stageDetails
	c.revalidate(false)
}

// replacing says the user chose to store the file under its own name,
// replacing the bytes of any earlier upload of that name.
func (c *creative) replacing() bool { return c.storeF.Value() != c.file.Unique }

func (c *creative) stored() string {
	if c.replacing() {
		return c.file.Name
	}
	return c.file.Unique
}

func (c *creative) urlRequest() api.UploadURLRequest {
	return api.UploadURLRequest{FileName: c.stored(), ContentType: c.file.Type, PortalSlug: c.portalF.Value()}
}

// revalidate shows the api package's errors under the name and portal;
// all reports them even for fields not edited yet. It says whether the
// form is valid.
func (c *creative) revalidate(all bool) bool {
	errs := map[*widget.FormField]error{}
	var other []string
	collect := func(err error) {
		var ve *api.ValidationError
		if !errors.As(err, &ve) {
			return
		}
		for _, f := range ve.Fields {
			switch f.Path {
			case "portalSlug":
				errs[c.portalF] = errors.New(f.Message)
			case "name":
				errs[c.nameF] = errors.New(f.Message)
			default:
				other = append(other, f.String())
			}
		}
	}
	collect(c.urlRequest().Validate())
	// The storage key comes with the upload URL: only the name is checked.
	collect(api.CreateCreativeRequest{StorageKey: "pending", Name: c.nameF.Value()}.Validate())
	for _, f := range c.form.Fields() {
		if err := errs[f]; err != nil && (all || c.touched[f] || f.Value() != "") {
			f.SetErr(err)
		} else {
			f.SetErr(nil)
		}
	}
	if len(other) > 0 {
		c.message = strings.Join(other, "; ")
	}
	return len(errs) == 0 && len(other) == 0
}
