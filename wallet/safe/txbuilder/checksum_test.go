package txbuilder

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// vectorFile is the batch file of the Transaction Builder's own checksum
// tests (safe-react-apps, apps/tx-builder/src/lib/checksum.test.js), with
// the empty checksum it is hashed with there.
const vectorFile = `{
  "version": "1.0",
  "chainId": "4",
  "createdAt": 1646321521061,
  "meta": {
    "name": "test batch file",
    "txBuilderVersion": "1.4.0",
    "checksum": "",
    "createdFromSafeAddress": "0xDF8a1Ce35c9a6ACE153B4e0767942f1E2291a1Aa",
    "createdFromOwnerAddress": "0x49d4450977E2c95362C13D3a31a09311E0Ea26A6"
  },
  "transactions": [
    {
      "to": "0x49d4450977E2c95362C13D3a31a09311E0Ea26A6",
      "value": "0",
      "contractMethod": {
        "inputs": [{"internalType": "address", "name": "paramAddress", "type": "address"}],
        "name": "testAddress",
        "payable": false
      },
      "contractInputsValues": {"paramAddress": "0x49d4450977E2c95362C13D3a31a09311E0Ea26A6"}
    },
    {
      "to": "0x49d4450977E2c95362C13D3a31a09311E0Ea26A6",
      "value": "0",
      "contractMethod": {
        "inputs": [{"internalType": "bool", "name": "paramBool", "type": "bool"}],
        "name": "testBool",
        "payable": false
      },
      "contractInputsValues": {"paramAddress": "", "paramBool": "false"}
    },
    {
      "to": "0x49d4450977E2c95362C13D3a31a09311E0Ea26A6",
      "value": "2000000000000000000",
      "data": "0x42f4579000000000000000000000000049d4450977e2c95362c13d3a31a09311e0ea26a6"
    }
  ]
}`

// vectorChecksum is what those tests expect of it.
const vectorChecksum = "0x4ecbfd364aa6759983915644e73f8bd411e85a2dc306f252a387c2728c4db64c"

func vectorTree(t *testing.T, text string) *object {
	t.Helper()
	v, err := parse(json.NewDecoder(strings.NewReader(text)))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*object)
}

// TestChecksumVectors holds the Transaction Builder's own test vectors:
// the file's checksum; the same with its keys in reverse order; another
// with its transactions reversed.
func TestChecksumVectors(t *testing.T) {
	root := vectorTree(t, vectorFile)
	if got, err := checksum(root); err != nil || got != vectorChecksum {
		t.Errorf("checksum %s (%v), want %s", got, err, vectorChecksum)
	}
	reversed := reverseKeys(root)
	if got, err := checksum(reversed); err != nil || got != vectorChecksum {
		t.Errorf("keys reversed: checksum %s (%v), want %s", got, err, vectorChecksum)
	}
	txs := slices.Clone(root.vals["transactions"].([]any))
	slices.Reverse(txs)
	root.set("transactions", txs)
	if got, err := checksum(root); err != nil || got == vectorChecksum {
		t.Errorf("transactions reversed: checksum %s (%v), want another", got, err)
	}
}

func reverseKeys(o *object) *object {
	r := newObject()
	for _, k := range slices.Backward(o.keys) {
		v := o.vals[k]
		if inner, ok := v.(*object); ok {
			v = reverseKeys(inner)
		}
		r.set(k, v)
	}
	return r
}

func TestSerializeAsJavaScript(t *testing.T) {
	root := newObject()
	root.set("b", []any{json.Number("1646321521061"), json.Number("-0"), json.Number("1e3"), true, nil})
	root.set("a", "\"\\\b\f\n\r\t\x01\x1f</script>\u2028é😀")
	root.set("\uffff", "")
	root.set("😀", "") // after \uffff in Go's order, before it in JavaScript's
	var b strings.Builder
	if err := serialize(&b, root); err != nil {
		t.Fatal(err)
	}
	want := `{["a","b","😀","` + "\uffff" + `"]"\"\\\b\f\n\r\t\u0001\u001f</script>` + "\u2028" + `é😀",[1646321521061,0,1000,true,null],"","",}`
	if b.String() != want {
		t.Errorf("serialized\n%s\nwant\n%s", b.String(), want)
	}
	for _, n := range []string{"1.5", "9007199254740993", "1e400"} {
		if err := serialize(&b, json.Number(n)); err == nil {
			t.Errorf("%s: serialized", n)
		}
	}
}
