package main

// Temporary stand-ins for the wave-1 pieces (deleted when they merge).

import (
	"context"
	"io"
	"net/http"
	"runtime/debug"

	a2a "github.com/caoliao-a2a/a2a-go"
)

type setting struct{ Value, Source string }
type settings struct{ m map[string]setting }

func loadSettings(e env, names []string, configPath string) (*settings, []string, error) {
	s := &settings{m: map[string]setting{}}
	for _, n := range names {
		if v := e.getenv(n); v != "" {
			s.m[n] = setting{v, "environment"}
		}
	}
	return s, nil, nil
}
func (s *settings) get(name string) (setting, bool) { v, ok := s.m[name]; return v, ok }

type configRow struct {
	Name, Flag, Value, Source string
	Secret                    bool
}

func renderConfig(w io.Writer, rows []configRow, asJSON bool) error { return nil }

func debugTransport(next http.RoundTripper, w io.Writer, redact func(string) string, limit int) http.RoundTripper {
	return next
}

type cmdInfo struct {
	Path          []string
	Args, Summary string
	Flags         []flagInfo
}
type flagInfo struct {
	Name, Short, Usage string
	TakesValue         bool
	Choices            []string
}

func completionScript(shell string, cmds []cmdInfo) (string, error) { return "", nil }
func versionText(info *debug.BuildInfo) string                      { return "Version: (devel)\n" }
func versionJSON(info *debug.BuildInfo) []byte                      { return []byte(`{}`) }

type cardProblem struct{ Pointer, Problem string }

func validateCard(raw []byte) (string, []cardProblem) { return "", nil }

type checkResult struct {
	ID, Title string
	Pass      bool
	Detail    string
}

func conformance(ctx context.Context, card *a2a.AgentCard, newClient func(a2a.AgentInterface) (*a2a.Client, error)) []checkResult {
	return nil
}
func download(ctx context.Context, task *a2a.Task, dir string, force bool, fetch *http.Client, maxBytes int64) ([]string, error) {
	return nil, nil
}
