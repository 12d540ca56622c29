package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"allot/api"
)

// writeStakesJSON writes list exactly as writeJSON does, byte for byte, a
// stake at a time: the whale pool's listing goes out without the whole
// indented text built in memory first, and several times faster than
// encoding/json's reflection, Marshaler calls and indent pass over it.
func writeStakesJSON(w io.Writer, list *api.List[api.Stake]) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 64<<10)
	flush := func() error {
		_, err := bw.Write(escapeUnprintable(buf))
		buf = buf[:0]
		return err
	}
	buf = append(buf, "{\n  \"items\": "...)
	switch {
	case list.Items == nil:
		buf = append(buf, "null"...)
	case len(list.Items) == 0:
		buf = append(buf, "[]"...)
	default:
		buf = append(buf, '[')
		for i, st := range list.Items {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, "\n    {\n      \"id\": "...)
			buf = appendJSONString(buf, st.ID)
			buf = append(buf, ",\n      \"amount\": "...)
			buf = appendJSONString(buf, st.Amount.String())
			buf = append(buf, ",\n      \"status\": "...)
			buf = appendJSONString(buf, st.Status)
			buf = append(buf, ",\n      \"createdAt\": "...)
			if st.CreatedAt.IsZero() {
				buf = append(buf, "null"...)
			} else {
				buf = appendJSONString(buf, st.CreatedAt.UTC().Format(api.TimeLayout))
			}
			buf = append(buf, ",\n      \"walletAddress\": "...)
			buf = appendJSONString(buf, st.WalletAddress)
			buf = append(buf, "\n    }"...)
			if len(buf) >= 60<<10 {
				if err := flush(); err != nil {
					return fmt.Errorf("write json: %w", err)
				}
			}
		}
		buf = append(buf, "\n  ]"...)
	}
	buf = append(buf, ",\n  \"total\": "...)
	buf = strconv.AppendInt(buf, int64(list.Total), 10)
	buf = append(buf, "\n}\n"...)
	if err := flush(); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// appendJSONString appends s quoted as encoding/json writes it: printable
// ASCII other than " \ < > & as it is, anything else through json.Marshal
// (HTML characters, controls, U+2028 and invalid UTF-8 escaped or
// replaced as it does).
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s) // a string always marshals
			return append(buf, quoted...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
