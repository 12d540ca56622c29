package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestURLPasswordShownNowhere: a password in base_url authenticates the
// requests but appears in no exchange, curl command or error.
func TestURLPasswordShownNowhere(t *testing.T) {
	var user, pass string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ = r.BasicAuth()
		if r.URL.Path == "/api/external/v1/staking/pools" {
			w.Header().Set("Content-Length", "10")
			return // a short body: a transport error after the answer began
		}
		w.Write([]byte(`{"items":[],"total":0}`))
	}))
	t.Cleanup(srv.Close)
	base := strings.Replace(srv.URL, "http://", "http://ops:hunter2@", 1)
	var xs []Exchange
	c, err := New(Config{BaseURL: base, APIKey: "k", Timeout: 2 * time.Second, OnExchange: func(x Exchange) { xs = append(xs, x) }})
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = noSleep
	if _, err := c.Contracts(context.Background(), tokenID); err != nil {
		t.Fatal(err)
	}
	if user != "ops" || pass != "hunter2" {
		t.Errorf("the service got user %q password %q", user, pass)
	}
	_, poolsErr := c.Pools(context.Background(), tokenID, "")
	_, badErr := New(Config{BaseURL: "ftp://ops:hunter2@svc.example"})
	refused, err := New(Config{BaseURL: "http://ops:hunter2@" + closedPort(t)})
	if err != nil {
		t.Fatal(err)
	}
	refused.sleep = noSleep
	_, refusedErr := refused.Contracts(context.Background(), tokenID)
	var shown []string
	for _, x := range xs {
		shown = append(shown, x.URL, x.Curl(), x.Err)
	}
	for _, err := range []error{poolsErr, badErr, refusedErr} {
		if err == nil {
			t.Fatal("no error")
		}
		shown = append(shown, err.Error())
	}
	for _, s := range shown {
		if strings.Contains(s, "hunter2") {
			t.Errorf("password shown: %s", s)
		}
	}
	curl := xs[0].Curl()
	if !strings.Contains(curl, `-u 'ops:'"$ALLOT_URL_PASSWORD"`) || strings.Contains(curl, "@") {
		t.Errorf("curl: %s", curl)
	}
}

// TestLargeSignInAnswerIsRedacted: a portal token is redacted from the
// exchange however large the answer, wherever the token sits, however the
// key is spelt (encoding/json matches it case-insensitively), and when
// the display cut runs through it.
func TestLargeSignInAnswerIsRedacted(t *testing.T) {
	pad := strings.Repeat("x", 70<<10)
	const token = "jwt-secret-token"
	tokenAt := func(n int) string { // a body whose token value starts at byte n-9 of the display
		prefix := `{"pad":"` + strings.Repeat("x", n-len(`{"pad":"`)-len(`","accessToken":"`)-9) + `","accessToken":"`
		return prefix + token + `","expiration":"2026-11-22T10:10:00.000Z"}`
	}
	bodies := map[string]string{
		"token first":        `{"accessToken":"` + token + `","expiration":"2026-11-22T10:10:00.000Z","pad":"` + pad + `"}`,
		"token after 64 KB":  `{"pad":"` + pad + `","accessToken":"` + token + `","expiration":"2026-11-22T10:10:00.000Z"}`,
		"cut through token":  tokenAt(MaxExchangeBody),
		"upper-case key":     `{"ACCESSTOKEN":"` + token + `","pad":"` + pad + `"}`,
		"escaped key":        `{"access\u0054oken":"` + token + `","pad":"` + pad + `"}`,
		"small, nested":      `{"a":[{"b":{"accessToken":"` + token + `"}}],"accessToken":{"x":["` + token + `"]}}`,
		"whitespace, indent": "{\n  \"accessToken\" :\n   \"" + token + "\"\n}",
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			var xs []Exchange
			c := newTestClient(t, reply(200, body), &xs)
			c.SignIn(context.Background(), "0x"+strings.Repeat("ab", 20), "msg", "0xsig")
			if len(xs) != 1 {
				t.Fatalf("%d exchanges", len(xs))
			}
			shown := string(xs[0].ResponseBody)
			beyondDisplay := strings.Index(body, token) > MaxExchangeBody
			if strings.Contains(shown, token[:7]) || !beyondDisplay && !strings.Contains(shown, Redacted) {
				t.Errorf("shown %q", shown[:min(len(shown), 200)])
			}
			if len(shown) > MaxExchangeBody+len("…") {
				t.Errorf("shown %d bytes", len(shown))
			}
		})
	}
}

// TestUploadSignatureShownNowhere: the query of a pre-signed upload URL (its
// signature) is in no exchange and no upload error.
func TestUploadSignatureShownNowhere(t *testing.T) {
	const sig = "X-Amz-Signature=f00dfeed"
	var xs []Exchange
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPut:
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close() // the storage drops the upload
		default:
			w.Write([]byte(`{"isProcessed":true,"result":{"uploadUrl":"https://store.example/b/k.png?` + sig + `","storageKey":"k","publicUrl":"https://cdn.example/k.png"}}`))
		}
	}, &xs)
	up, err := c.CreativeUploadURL(context.Background(), UploadURLRequest{FileName: "a.png", ContentType: "image/png", PortalSlug: "p"})
	if err != nil || !strings.Contains(up.UploadURL, sig) {
		t.Fatalf("upload url %+v, %v", up, err)
	}
	if shown := string(xs[0].ResponseBody); strings.Contains(shown, "f00dfeed") || !strings.Contains(shown, "https://store.example/b/k.png?"+Redacted) {
		t.Errorf("exchange shows %s", shown)
	}
	errs := []error{
		c.Upload(context.Background(), c.base.String()+"/b/k.png?"+sig, "image/png", strings.NewReader("png"), 3),
		c.Upload(context.Background(), "http://"+closedPort(t)+"/b/k.png?"+sig, "image/png", strings.NewReader("png"), 3),
		c.Upload(context.Background(), "http://[::1/b/k.png?"+sig, "image/png", strings.NewReader("png"), 3),
	}
	for _, err := range errs {
		if err == nil || strings.Contains(err.Error(), "f00dfeed") {
			t.Errorf("upload error %v", err)
		}
	}
}
