package proposal_test

import (
	"bytes"
	"testing"

	"allot/wallet/safe/proposal"
)

// FuzzRead: whatever a file holds, Read returns a proposal that checks
// and writes back to a file it reads the same, or an error; it never
// panics.
func FuzzRead(f *testing.F) {
	o := newOwners(f, 3)
	p := newProposal(f, o)
	if err := p.AddSignature(o.addrs[1], sign(f, o.keys[1], p.Hashes.SafeTx)); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := proposal.Write(&buf, p); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := proposal.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("read a proposal that does not check: %v", err)
		}
		var out bytes.Buffer
		if err := proposal.Write(&out, p); err != nil {
			t.Fatalf("write what was read: %v", err)
		}
		again, err := proposal.Read(&out)
		if err != nil || again.Hashes != p.Hashes || len(again.Signatures) != len(p.Signatures) {
			t.Fatalf("read back %v (%v)", again, err)
		}
	})
}
