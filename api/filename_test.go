package api

import "testing"

// TestFileNameFor: a name the service stores is made from one it does
// not, keeping the extension; a valid name is kept as it is.
func TestFileNameFor(t *testing.T) {
	for name, want := range map[string]string{
		"logo.png":         "logo.png",
		"été 2026 🎉.png":   "ete-2026.png",
		"my photo.JPG":     "my-photo.JPG",
		"🎉.gif":            "creative.gif",
		".hidden.png":      "hidden.png",
		"Ünïcödé—name.mp4": "Unicode-name.mp4",
		"a  b\tc.png":      "a-b-c.png",
		"noext é":          "noext-e",
	} {
		got := FileNameFor(name)
		if got != want || !ValidFileName(got) {
			t.Errorf("FileNameFor(%q) = %q (valid %v), want %q", name, got, ValidFileName(got), want)
		}
	}
}

func FuzzFileNameFor(f *testing.F) {
	for _, s := range []string{"logo.png", "été 2026 🎉.png", ".", "..", "", "a.😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got := FileNameFor(name); !ValidFileName(got) {
			t.Fatalf("FileNameFor(%q) = %q, which the service does not store", name, got)
		}
	})
}
