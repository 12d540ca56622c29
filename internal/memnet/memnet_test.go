package memnet

import (
	"context"
	"io"
	"net/http"
	"testing"
)

func TestHTTPOverPipes(t *testing.T) {
	l := Listen()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+r.URL.Path)
	})}
	go srv.Serve(l)
	defer srv.Close()

	client := &http.Client{Transport: &http.Transport{DialContext: l.DialContext}}
	for range 3 { // reuses the kept-alive connection
		resp, err := client.Get("http://sandbox.invalid/x")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "hello /x" {
			t.Errorf("body %q", body)
		}
	}
}

func TestDialAfterClose(t *testing.T) {
	l := Listen()
	l.Close()
	if _, err := l.DialContext(context.Background(), "tcp", "x"); err == nil {
		t.Error("dial after close succeeded")
	}
	if _, err := l.Accept(); err == nil {
		t.Error("accept after close succeeded")
	}
}
