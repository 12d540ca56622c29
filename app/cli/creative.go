package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"allot/api"
	"allot/core/act"
	"allot/internal/sanitize"
)

var creativeUploadCommand = command{
	name:    "creative upload",
	args:    "FILE --portal SLUG [--name NAME] [--replace [--yes]] [-o json]",
	summary: "upload an image, animation or audio file to a portal and register it",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var a uploadArgs
		fs.StringVar(&a.portal, "portal", "", "portal `SLUG` (required)")
		fs.StringVar(&a.name, "name", "", "store and name the creative as `NAME` (default: the file's name)")
		fs.BoolVar(&a.replace, "replace", false, "store the file under its own name, replacing the bytes of any earlier upload of that name (asks first)")
		fs.BoolVar(&a.yes, "yes", false, "with --replace: replace without asking")
		declareOutput(fs, &a.out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one file")
			}
			a.path = args[0]
			return e.uploadCreative(ctx, a)
		}
	},
}

// uploadArgs is what `allot creative upload` was asked, as its flags and
// argument say it.
type uploadArgs struct {
	path    string // the file
	portal  string // the portal's slug
	name    string // what the creative is stored and shown as; empty: the file's name
	replace bool   // store under the name itself, replacing an earlier upload's bytes
	yes     bool   // replace without asking
	out     format
}

// upload is a creative upload planned: the file open, its media type and
// size known, the name its bytes are stored under.
type upload struct {
	file *os.File
	size int64
	// request asks for the URL the bytes go to, under the stored name.
	request api.UploadURLRequest
	name    string // the creative's name, as it is registered
}

// uploadCreative resolves and plans an upload, asks before it replaces an
// earlier upload's bytes, then sends the file and registers it.
func (e *env) uploadCreative(ctx context.Context, a uploadArgs) error {
	name, err := a.resolve()
	if err != nil {
		return err
	}
	u, err := a.plan(name)
	if err != nil {
		return err
	}
	defer u.file.Close()
	if a.replace && !a.yes {
		if err := askReplace(e, u.request.FileName, a.portal); err != nil {
			return err
		}
	}
	creative, err := u.send(ctx, e)
	if err != nil {
		return err
	}
	if a.out == formatJSON {
		return writeJSON(e.Stdout, creative)
	}
	return fields(e.Stdout, "id", creative.ID, "storage key", creative.StorageKey, "public url", creative.PublicURL)
}

// resolve checks the flags, and the name the creative takes (--name, else
// the file's), against the service's rule for names, before the file is
// read.
func (a uploadArgs) resolve() (name string, err error) {
	if a.portal == "" {
		return "", usagef("creative upload: --portal is required")
	}
	if a.yes && !a.replace {
		return "", usagef("creative upload: --yes needs --replace (without it nothing is replaced, so nothing is asked)")
	}
	if a.name != "" {
		// --name is the name it is stored and shown under.
		if !api.ValidFileName(a.name) {
			return "", usagef("creative upload: --name %q is not a name the service stores (1 to 128 letters, digits, '.', '_' or '-', not starting with '.'): --name %s would be", sanitize.Truncate(a.name, 60), api.FileNameFor(a.name))
		}
		return a.name, nil
	}
	name = filepath.Base(a.path)
	if !api.ValidFileName(name) {
		return "", usagef("creative upload: the file's name %q is not one the service stores (1 to 128 letters, digits, '.', '_' or '-', not starting with '.'): pass --name %s to store it as that", sanitize.Truncate(name, 60), api.FileNameFor(name))
	}
	return name, nil
}

// plan opens the file and decides what is sent: its media type from its
// first bytes, the name its bytes are stored under (name with the
// content's hash, so that an earlier upload of that name keeps its bytes,
// unless --replace), and the checked request. A file the service would
// refuse is refused here, before anything is sent or asked. The caller
// closes the upload's file.
func (a uploadArgs) plan(name string) (_ *upload, err error) {
	f, err := os.Open(a.path)
	if err != nil {
		return nil, fmt.Errorf("creative upload: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	contentType, err := sniffContentType(f, filepath.Base(a.path))
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("creative upload: %w", err)
	}
	stored := name
	if !a.replace {
		if stored, err = act.StoredName(name, f); err != nil {
			return nil, fmt.Errorf("creative upload: %w", err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("creative upload: %w", err)
		}
	}
	req := api.UploadURLRequest{FileName: stored, ContentType: contentType, PortalSlug: a.portal}
	if err := req.Validate(); err != nil {
		return nil, typed(err, map[string]string{"portalSlug": "--portal", "contentType": a.path, "fileName": "the file's name"})
	}
	if err := api.CheckCreativeSize(info.Size()); err != nil {
		return nil, err
	}
	return &upload{file: f, size: info.Size(), request: req, name: name}, nil
}

// send asks for the upload's URL, sends the bytes there and registers the
// creative, each write journaled.
func (u *upload) send(ctx context.Context, e *env) (*api.Creative, error) {
	s, err := e.open(ctx, opening{write: true})
	if err != nil {
		return nil, err
	}
	stored := u.request.FileName
	dest, err := s.rec.CreativeUploadURL(ctx, s.API, stored, u.request)
	if err != nil {
		return nil, err
	}
	if err := s.API.Upload(ctx, dest.UploadURL, u.request.ContentType, u.file, u.size); err != nil {
		return nil, err
	}
	create := api.CreateCreativeRequest{StorageKey: dest.StorageKey, Name: u.name}
	return s.rec.RegisterCreative(ctx, s.API, stored, create)
}

// askReplace asks on a terminal, default No, before a file is stored
// under a name an earlier upload may hold; without a terminal it refuses:
// nobody is there to say yes, and --yes says it.
func askReplace(e *env, name, portal string) error {
	in, ok := e.Stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return usagef("--replace: no terminal to ask on; add --yes to replace %s on portal %s", name, portal)
	}
	fmt.Fprintf(e.Stderr, "Store as %s on portal %s, replacing the bytes of any earlier upload of that name (every public URL of it serves the new file)? [y/N] ", name, portal)
	line, _ := bufio.NewReader(io.LimitReader(in, 64)).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return errors.New("creative upload: not replaced; nothing was sent")
	}
	return nil
}

// sniffContentType decides the media type from the file's first bytes
// (see api.CreativeType). The file is rewound afterwards.
func sniffContentType(f *os.File, name string) (string, error) {
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("creative upload: read %s: %w", name, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("creative upload: %w", err)
	}
	ct, _ := api.CreativeType(head[:n], name)
	return ct, nil
}
