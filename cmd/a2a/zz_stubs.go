package main

// Temporary stand-ins for the wave-1 pieces (deleted when they merge).

import (
	"io"
	"net/http"
	"runtime/debug"
)

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
