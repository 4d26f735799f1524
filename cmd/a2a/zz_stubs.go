package main

// Temporary stand-ins for the wave-1 pieces (deleted when they merge).

import (
	"io"
	"net/http"
	"runtime/debug"
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
