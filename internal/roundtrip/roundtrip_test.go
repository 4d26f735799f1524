package roundtrip

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// hangs serves headers (for an event stream) or nothing, then waits for
// the client to go away.
func hangs(t *testing.T, stream bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBoundedNoReply: a server that never answers ends the round trip
// with a TimeoutError matching context.DeadlineExceeded, under a context
// without a deadline.
func TestBoundedNoReply(t *testing.T) {
	srv := hangs(t, false)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: &Bounded{RT: tr, Attempt: 20 * time.Millisecond}}
	_, err := hc.Get(srv.URL)
	var te httpbody.TimeoutError
	if !errors.As(err, &te) || te.What != "no reply" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; want a TimeoutError (no reply) matching DeadlineExceeded", err)
	}
}

// TestBoundedStreamOpens: with Streams, an event stream that opened in
// time is no longer bounded by Attempt (its reader outlives the bound);
// without Streams the bound covers the body too.
func TestBoundedStreamOpens(t *testing.T) {
	srv := hangs(t, true)
	for _, streams := range []bool{true, false} {
		tr := &http.Transport{}
		hc := &http.Client{Transport: &Bounded{RT: tr, Attempt: 20 * time.Millisecond, Streams: streams}}
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("streams %v: %v", streams, err)
		}
		done := make(chan error, 1)
		go func() { _, err := io.ReadAll(resp.Body); done <- err; close(done) }()
		select {
		case err := <-done:
			if streams {
				t.Errorf("streams: the open stream ended with %v; want it left to its context", err)
			} else if !errors.As(err, new(httpbody.TimeoutError)) && !errors.Is(err, context.Canceled) {
				t.Errorf("no streams: body ended with %v; want the bound", err)
			}
		case <-time.After(200 * time.Millisecond):
			if !streams {
				t.Error("no streams: the body outlived the bound")
			}
		}
		cancel()
		resp.Body.Close()
		for range done { // the reader ends once the context does
		}
		tr.CloseIdleConnections()
	}
}

// TestGuardRedirects: a redirect to another host or one that changes the
// method ends with the 3xx reply; one on the same host and method is
// followed; the client's own policy runs after.
func TestGuardRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/to-get", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/here", http.StatusFound) })
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/here", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var ownCalls int
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { ownCalls++; return nil }}
	GuardRedirects(hc)
	defer hc.CloseIdleConnections()
	for path, want := range map[string]int{"/away": http.StatusTemporaryRedirect, "/to-get": http.StatusFound, "/same": http.StatusNoContent} {
		resp, err := hc.Post(srv.URL+path, "application/json", nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: HTTP %d, want %d", path, resp.StatusCode, want)
		}
	}
	if ownCalls != 1 {
		t.Errorf("the client's own policy ran %d times, want once (for /same)", ownCalls)
	}
}
