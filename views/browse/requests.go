package browse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views"
	"allot/views/widget"
)

// requests is the request inspector: every HTTP exchange of this session,
// newest first, with redacted headers and bodies, and a way to replay one
// with curl.
type requests struct {
	*views.List[indexed]
	seen uint64
}

// indexed numbers exchanges so that each row has a stable id.
type indexed struct {
	N int
	X api.Exchange
}

// NewRequests is the request inspector.
func NewRequests(ctx *views.Context) views.Screen {
	r := &requests{}
	r.List = views.NewList(ctx, "Requests", widget.TableConfig[indexed]{
		Columns: []widget.Column[indexed]{
			{Title: "Time", Cell: func(i indexed) string { return i.X.At.Local().Format("15:04:05") }, MinWidth: 8},
			{Title: "Method", Cell: func(i indexed) string { return i.X.Method }, MinWidth: 6},
			{Title: "Operation", Cell: func(i indexed) string { return i.X.Op }, Text: true, MinWidth: 14, Flex: 2},
			{Title: "Status", Cell: func(i indexed) string { return exchangeStatus(i.X) }, MinWidth: 6, Align: widget.AlignRight},
			{Title: "Duration", Cell: func(i indexed) string { return duration(i.X.Duration) }, MinWidth: 8, Align: widget.AlignRight, Priority: 2},
			{Title: "Size", Cell: func(i indexed) string { return views.ByteSize(i.X.ResponseSize) }, MinWidth: 8, Align: widget.AlignRight, Priority: 3},
		},
		ID: func(i indexed) string { return fmt.Sprint(i.N) },
		// y copies what can be used: on the embedded sandbox, whose
		// requests reach nothing outside allot, the request's line, not
		// a curl command that c refuses.
		CopyText: func(i indexed) string {
			if ctx.Session.Sandbox {
				return i.X.Method + " " + i.X.URL
			}
			return i.X.Curl()
		},
		Empty: "No requests yet: every call the dashboard makes to the service appears here.",
	}, exchangeFields)
	r.NewestFirst = true
	r.Own = r.curlKey
	r.DetailActions = func(i indexed) []views.DetailAction {
		return []views.DetailAction{{Key: keyCurl, Do: func() tea.Cmd { return r.curl(i) }}}
	}
	return r
}

// errNoCurl is why the embedded sandbox's requests are not copied as curl.
// Its first line is the status line's; the rest is what E opens.
//
//lint:ignore ST1005 an explanation in paragraphs, shown whole by E
var errNoCurl = errors.New("the embedded sandbox is not reachable from outside allot\n\n" +
	"Its requests go over an in-memory network, so a curl command of them would reach nothing. " +
	"To replay requests with curl, run `allot sandbox` and use a profile for it (see config.example.toml).")

// curl copies the request as a curl command, where one can reach the
// service.
func (r *requests) curl(i indexed) tea.Cmd {
	if r.Ctx.Session.Sandbox {
		return func() tea.Msg { return views.ErrorMsg{Op: "curl", Err: errNoCurl} }
	}
	return r.Ctx.Clipboard.Copy(i.X.Curl())
}

func exchangeStatus(x api.Exchange) string {
	if x.Status == 0 {
		return "—"
	}
	return fmt.Sprint(x.Status)
}

func exchangeFields(i indexed) []widget.Field {
	x := i.X
	fields := []widget.Field{
		{Label: "Request", Value: x.Method + " " + x.URL},
		{Label: "Status", Value: exchangeStatus(x) + " " + http.StatusText(x.Status)},
		{Label: "Attempt", Value: fmt.Sprint(x.Attempt)},
		{Label: "Duration", Value: duration(x.Duration)},
		{Label: "Sizes", Value: fmt.Sprintf("sent %s, received %s", views.ByteSize(x.RequestSize), views.ByteSize(x.ResponseSize))},
	}
	if x.Err != "" {
		fields = append(fields, widget.Field{Label: "Error", Value: x.Err})
	}
	fields = append(fields, widget.Field{Label: "Request headers", Value: headers(x.RequestHeaders)})
	if len(x.RequestBody) > 0 {
		fields = append(fields, widget.Field{Label: "Request body", Value: clip(x.RequestBody)})
	}
	fields = append(fields, widget.Field{Label: "Response headers", Value: headers(x.ResponseHeaders)})
	if len(x.ResponseBody) > 0 {
		fields = append(fields, widget.Field{Label: "Response body", Value: clip(x.ResponseBody)})
	}
	return fields
}

// maxShownBody bounds a body in the pane: the whale pool's 20 MB listing is
// for `c` (curl) or -o json, not for a terminal pane.
const maxShownBody = 4 << 10

// maxIndentedBody bounds the body that is laid out as indented JSON before
// it is cut to maxShownBody: larger ones are cut as they came.
const maxIndentedBody = 64 << 10

// clip shows a body: JSON indented, so that a person can read it, then cut
// to maxShownBody.
func clip(b []byte) string {
	if len(b) <= maxIndentedBody && json.Valid(b) {
		var out bytes.Buffer
		if json.Indent(&out, b, "", "  ") == nil {
			b = out.Bytes()
		}
	}
	if len(b) > maxShownBody {
		return string(b[:maxShownBody]) + fmt.Sprintf("… (%s more)", views.ByteSize(len(b)-maxShownBody))
	}
	return string(b)
}

// duration writes how long a call took: milliseconds below a second, where
// most calls are (a fast call read "0s").
func duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return d.Round(10 * time.Millisecond).String()
}

func headers(h http.Header) string {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	var lines []string
	for _, n := range names {
		lines = append(lines, n+": "+strings.Join(h[n], ", "))
	}
	return strings.Join(lines, "\n")
}

// exchangesChanged says the request log has new exchanges.
type exchangesChanged struct{}

func (r *requests) Init() tea.Cmd {
	return tea.Batch(r.refresh(), r.wait())
}

// wait blocks, off the UI goroutine, until the log changes.
func (r *requests) wait() tea.Cmd {
	log := r.Ctx.Session.Requests
	return func() tea.Msg {
		<-log.Changed()
		return exchangesChanged{}
	}
}

func (r *requests) refresh() tea.Cmd {
	log := r.Ctx.Session.Requests
	if v := log.Version(); v == r.seen && r.seen != 0 {
		return nil
	}
	all := log.All()
	r.seen = log.Version()
	rows := make([]indexed, len(all))
	base := int(r.seen) - len(all)
	for i, x := range all {
		rows[len(all)-1-i] = indexed{N: base + i, X: x}
	}
	return r.SetRows(rows)
}

func (r *requests) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(exchangesChanged); ok {
		return tea.Batch(r.refresh(), r.wait())
	}
	return r.List.Update(msg)
}

// curlKey copies the focused request as curl.
func (r *requests) curlKey(row indexed, ok bool) widget.Bindings {
	return widget.Bindings{{Key: keyCurl, Short: true, Group: "curl", Run: func() tea.Cmd {
		if !ok {
			return nil
		}
		return r.curl(row)
	}}}
}
