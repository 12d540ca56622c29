package txbuilder

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

var (
	safeAddr = common.HexToAddress("0xDF8a1Ce35c9a6ACE153B4e0767942f1E2291a1Aa")
	someone  = common.HexToAddress("0x49d4450977E2c95362C13D3a31a09311E0Ea26A6")
)

// TestWriteRead: a file allot writes is read back the same, its checksum
// verified, and carries the checksum the Transaction Builder computes
// for it.
func TestWriteRead(t *testing.T) {
	b := Batch{
		ChainID: 31337, CreatedAt: time.UnixMilli(1646321521061).UTC(), Name: "stake <MRD>", Description: "approve\nand stake",
		Safe: safeAddr, Owner: someone,
		Transactions: []Transaction{
			{To: someone, Value: big.NewInt(0), Data: []byte{0x09, 0x5e, 0xa7, 0xb3}},
			{To: safeAddr, Value: new(big.Int).Lsh(big.NewInt(1), 255), Data: []byte{}},
		},
	}
	var buf bytes.Buffer
	if err := Write(&buf, b); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	sum := got.Checksum
	got.Checksum = ""
	if !reflect.DeepEqual(got, b) {
		t.Errorf("read %+v\nwrote %+v", got, b)
	}
	root := vectorTree(t, buf.String())
	want := root.vals["meta"].(*object).vals["checksum"]
	if sum != want {
		t.Errorf("read the checksum %q, the file holds %v", sum, want)
	}
	root.set("meta", root.vals["meta"].(*object).without("checksum"))
	if sum, err := checksum(root); err != nil || sum != want {
		t.Errorf("the file's checksum %v, its content's %s (%v)", want, sum, err)
	}
	for name, bad := range map[string]func(*Batch){
		"no chain":       func(b *Batch) { b.ChainID = 0 },
		"no time":        func(b *Batch) { b.CreatedAt = time.Time{} },
		"no transaction": func(b *Batch) { b.Transactions = nil },
		"a negative value": func(b *Batch) {
			b.Transactions = []Transaction{{To: someone, Value: big.NewInt(-1)}}
		},
	} {
		c := b
		bad(&c)
		if err := Write(new(bytes.Buffer), c); err == nil {
			t.Errorf("%s: written", name)
		}
	}
	if !strings.Contains(buf.String(), `"contractMethod": null`) || strings.Contains(buf.String(), "txBuilderVersion") {
		t.Errorf("the file is not as the Transaction Builder imports a call with calldata:\n%s", buf.String())
	}
}

// withChecksum puts into text (a file whose meta.checksum is "CHECKSUM")
// the checksum of its content, as a file made by the Transaction Builder
// carries.
func withChecksum(t *testing.T, text string) string {
	t.Helper()
	root := vectorTree(t, strings.Replace(text, `"CHECKSUM"`, `""`, 1))
	root.set("meta", root.vals["meta"].(*object).without("checksum"))
	sum, err := checksum(root)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(text, `"CHECKSUM"`, `"`+sum+`"`, 1)
}

// TestReadVectorFile reads the Transaction Builder's test file (with its
// checksum): its calls built from an ABI are encoded as the ABI encodes
// them.
func TestReadVectorFile(t *testing.T) {
	text := withChecksum(t, strings.Replace(vectorFile, `"checksum": ""`, `"checksum": "CHECKSUM"`, 1))
	b, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if b.ChainID != 4 || b.Safe != safeAddr || b.Owner != someone || len(b.Transactions) != 3 || b.Transactions[2].Value.String() != "2000000000000000000" {
		t.Fatalf("read %+v", b)
	}
	parsed, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"testAddress","inputs":[{"name":"a","type":"address"}]},
		{"type":"function","name":"testBool","inputs":[{"name":"b","type":"bool"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]any{{"testAddress", someone}, {"testBool", false}} {
		data, err := parsed.Pack(want[0].(string), want[1:]...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Transactions[i].Data, data) {
			t.Errorf("transaction %d: calldata %x, want %x", i+1, b.Transactions[i].Data, data)
		}
	}
}

func TestMethodEncode(t *testing.T) {
	parsed, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"f","inputs":[
		{"name":"a","type":"uint8"},{"name":"b","type":"string"},{"name":"c","type":"int256"},{"name":"d","type":"bytes"},{"name":"e","type":"bytes4"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	want, err := parsed.Pack("f", uint8(255), "ÿ quote\"", big.NewInt(-5), []byte{1, 2, 3}, [4]byte{0xde, 0xad, 0xbe, 0xef})
	if err != nil {
		t.Fatal(err)
	}
	m := &Method{Name: "f", Inputs: []Input{{"a", "uint8"}, {"b", "string"}, {"c", "int256"}, {"d", "bytes"}, {"e", "bytes4"}},
		Values: map[string]string{"a": "255", "b": "ÿ quote\"", "c": "-5", "d": "0x010203", "e": "0xdeadbeef"}}
	got, err := m.Encode()
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("encoded %x (%v), want %x", got, err, want)
	}
	for typ, v := range map[string]string{"uint8": "256", "int8": "-129", "uint256": "0x10", "bool": "1", "bytes4": "0x01", "uint7": "1", "address[]": "[]", "address": "0x49d4450977e2c95362c13d3a31a09311e0ea26a6"} {
		m := &Method{Name: "f", Inputs: []Input{{"x", typ}}, Values: map[string]string{"x": v}}
		if _, err := m.Encode(); err == nil {
			t.Errorf("%s %q: encoded", typ, v)
		}
	}
}

// fileWith is a one-transaction file whose transaction is tx (JSON), its
// checksum right.
func fileWith(t *testing.T, tx string) string {
	return withChecksum(t, unsigned(tx))
}

func unsigned(tx string) string {
	return fmt.Sprintf(`{"version":"1.0","chainId":"1","createdAt":1,"meta":{"name":"n","createdFromSafeAddress":"","createdFromOwnerAddress":"","checksum":"CHECKSUM"},"transactions":[%s]}`, tx)
}

// TestReadRefuses: what a file may not hold, checksum right or not.
func TestReadRefuses(t *testing.T) {
	good := `{"to":"0x49d4450977E2c95362C13D3a31a09311E0Ea26A6","value":"1","data":"0x"}`
	if _, err := Read(strings.NewReader(fileWith(t, good))); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	tampered := strings.Replace(fileWith(t, good), `"value":"1"`, `"value":"2"`, 1)
	if _, err := Read(strings.NewReader(tampered)); !errors.Is(err, ErrChecksum) {
		t.Errorf("a changed value: %v, want ErrChecksum", err)
	}
	cases := map[string]string{
		"a lowercase address":       fileWith(t, strings.ToLower(good)),
		"a value with a zero first": fileWith(t, strings.Replace(good, `"1"`, `"01"`, 1)),
		"a value past 2^256":        fileWith(t, strings.Replace(good, `"1"`, `"`+new(big.Int).Lsh(big.NewInt(1), 256).String()+`"`, 1)),
		"a negative value":          fileWith(t, strings.Replace(good, `"1"`, `"-1"`, 1)),
		"a value as a number":       fileWith(t, strings.Replace(good, `"1"`, `1`, 1)),
		"odd hex":                   fileWith(t, strings.Replace(good, `"0x"`, `"0x1"`, 1)),
		"no calldata":               fileWith(t, strings.Replace(good, `,"data":"0x"`, ``, 1)),
		"calldata and a method":     fileWith(t, strings.Replace(good, `}`, `,"contractMethod":{"inputs":[],"name":"f","payable":false}}`, 1)),
		"an unknown key":            fileWith(t, strings.Replace(good, `}`, `,"operation":1}`, 1)),
		"a key twice":               strings.Replace(fileWith(t, good), `"value":"1"`, `"value":"1","value":"1"`, 1),
		"no transaction":            fileWith(t, ``),
		"too many":                  fileWith(t, strings.Repeat(good+",", MaxTransactions)+good),
		"no checksum":               strings.Replace(fileWith(t, good), `,"checksum":"`, `,"x":"`, 1),
		"data after it":             fileWith(t, good) + "{}",
		"too large":                 fileWith(t, good) + strings.Repeat(" ", MaxFileSize),
		"another version":           withChecksum(t, strings.Replace(unsigned(good), `"1.0"`, `"2.0"`, 1)),
		"chain id 0":                withChecksum(t, strings.Replace(unsigned(good), `"chainId":"1"`, `"chainId":"0"`, 1)),
		"not UTF-8":                 fileWith(t, strings.Replace(good, `"0x"}`, `"0x","x":"`+"\xff"+`"}`, 1)),
	}
	for name, text := range cases {
		if _, err := Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(vectorFile))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, b); err != nil {
			t.Fatalf("a file read cannot be written: %v", err)
		}
	})
}
