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
	"allot/internal/act"
	"allot/internal/sanitize"
)

var creativeUploadCommand = command{
	name:    "creative upload",
	args:    "FILE --portal SLUG [--name NAME] [--replace [--yes]] [-o json]",
	summary: "upload an image, animation or audio file to a portal and register it",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		portal := fs.String("portal", "", "portal `SLUG` (required)")
		name := fs.String("name", "", "store and name the creative as `NAME` (default: the file's name)")
		replace := fs.Bool("replace", false, "store the file under its own name, replacing the bytes of any earlier upload of that name (asks first)")
		yes := fs.Bool("yes", false, "with --replace: replace without asking")
		out := outputFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one file")
			}
			if *portal == "" {
				return usagef("creative upload: --portal is required")
			}
			if *yes && !*replace {
				return usagef("creative upload: --yes needs --replace (without it nothing is replaced, so nothing is asked)")
			}
			path := args[0]
			fileName := filepath.Base(path)
			switch {
			case *name != "":
				// --name is the name it is stored and shown under.
				if !api.ValidFileName(*name) {
					return usagef("creative upload: --name %q is not a name the service stores (1 to 128 letters, digits, '.', '_' or '-', not starting with '.'): --name %s would be", sanitize.Truncate(*name, 60), api.FileNameFor(*name))
				}
				fileName = *name
			case !api.ValidFileName(fileName):
				return usagef("creative upload: the file's name %q is not one the service stores (1 to 128 letters, digits, '.', '_' or '-', not starting with '.'): pass --name %s to store it as that", sanitize.Truncate(fileName, 60), api.FileNameFor(fileName))
			default:
				*name = fileName
			}
			f, err := os.Open(path)
			if err != nil {
				return fmt.Errorf("creative upload: %w", err)
			}
			defer f.Close()
			contentType, err := sniffContentType(f, filepath.Base(path))
			if err != nil {
				return err
			}
			info, err := f.Stat()
			if err != nil {
				return fmt.Errorf("creative upload: %w", err)
			}
			stored := fileName
			if !*replace {
				// A name used before would have its bytes replaced: the
				// content's hash keeps this upload apart.
				if stored, err = act.StoredName(fileName, f); err != nil {
					return fmt.Errorf("creative upload: %w", err)
				}
				if _, err := f.Seek(0, io.SeekStart); err != nil {
					return fmt.Errorf("creative upload: %w", err)
				}
			}
			req := api.UploadURLRequest{FileName: stored, ContentType: contentType, PortalSlug: *portal}
			if err := req.Validate(); err != nil {
				return typed(err, map[string]string{"portalSlug": "--portal", "contentType": path, "fileName": "the file's name"})
			}
			if *replace && !*yes {
				if err := askReplace(e, stored, *portal); err != nil {
					return err
				}
			}
			if err := api.CheckCreativeSize(info.Size()); err != nil {
				return err
			}
			s, err := e.open(ctx, opening{write: true})
			if err != nil {
				return err
			}
			upload, err := s.rec.CreativeUploadURL(ctx, s.API, stored, req)
			if err != nil {
				return err
			}
			if err := s.API.Upload(ctx, upload.UploadURL, contentType, f, info.Size()); err != nil {
				return err
			}
			create := api.CreateCreativeRequest{StorageKey: upload.StorageKey, Name: *name}
			creative, err := s.rec.RegisterCreative(ctx, s.API, stored, create)
			if err != nil {
				return err
			}
			if *out == formatJSON {
				return writeJSON(e.Stdout, creative)
			}
			return fields(e.Stdout, "id", creative.ID, "storage key", creative.StorageKey, "public url", creative.PublicURL)
		}
	},
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
