package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// fixture reads testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixtureReplies returns every recorded reply in testdata by name: a file
// holding one reply as "name.json#0", each element of a file holding an
// array of replies as "name.json#i". HTML pages and the like are left out.
func fixtureReplies(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		replies := []json.RawMessage{b}
		if json.Unmarshal(b, &replies) != nil {
			replies = []json.RawMessage{b}
		}
		for i, r := range replies {
			out[fmt.Sprintf("%s#%d", filepath.Base(f), i)] = r
		}
	}
	return out
}

// newCapture returns a logger that keeps every record, at every level, as
// a line of text with all its attributes (those added by With included),
// and a func returning the lines so far.
func newCapture() (*slog.Logger, func() []string) {
	h := &captureHandler{mu: new(sync.Mutex), recs: new([]string)}
	return slog.New(h), func() []string {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.Clone(*h.recs)
	}
}

type captureHandler struct {
	mu    *sync.Mutex
	recs  *[]string
	attrs []slog.Attr
}

func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true }
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	h.mu.Lock()
	*h.recs = append(*h.recs, b.String())
	h.mu.Unlock()
	return nil
}
func (h *captureHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &captureHandler{mu: h.mu, recs: h.recs, attrs: append(slices.Clone(h.attrs), as...)}
}
func (h *captureHandler) WithGroup(string) slog.Handler { return h }

// errorTexts is every text an error carries that could hold a secret: its
// message in both formats and each server-sent field of the typed errors
// (bodies, data, reasons, headers, a poll's last state and last fault).
func errorTexts(err error) []string {
	if err == nil {
		return nil
	}
	texts := []string{err.Error(), fmt.Sprintf("%+v", err)}
	if e, ok := errors.AsType[*a2a.HTTPError](err); ok {
		texts = append(texts, string(e.Body), e.ContentType, e.Challenge)
	}
	if e, ok := errors.AsType[*a2a.RPCError](err); ok {
		texts = append(texts, e.Message, string(e.Data), e.Status)
		for _, d := range e.Details {
			texts = append(texts, d.Type, d.Reason, d.Domain, string(d.Raw))
			for k, v := range d.Metadata {
				texts = append(texts, k, v)
			}
		}
	}
	if e, ok := errors.AsType[*a2a.ProtocolError](err); ok {
		texts = append(texts, e.Reason, string(e.Body))
	}
	if e, ok := errors.AsType[*a2a.PollError](err); ok {
		texts = append(texts, string(e.LastState))
		texts = append(texts, errorTexts(e.LastErr)...)
	}
	return texts
}

// noSecrets fails t for every text holding one of secrets.
func noSecrets(t testing.TB, texts []string, secrets ...string) {
	t.Helper()
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("secret %q leaked in %q", s, text)
			}
		}
	}
}
