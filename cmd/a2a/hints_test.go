package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goWords are the package's Go names a command-line user cannot type: its
// options, constructors and constants.
var goWords = regexp.MustCompile(`\b(With[A-Z]\w*|NewClient\w*|Transport(JSONRPC|HTTPJSON|GRPC)|ProtocolV\d\d)\b`)

// TestErrorsSpeakFlags: every string of the package (github.com/caoliao-a2a/a2a-go,
// its non-test files) that names a Go option or constructor, an error's
// hint, reads in flags once inFlags has written it: a new hint in the
// package fails here until the command line knows how to say it.
func TestErrorsSpeakFlags(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("the package's files: %v", err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !goWords.MatchString(s) {
				return true
			}
			seen++
			if out := inFlags(s); goWords.MatchString(out) {
				t.Errorf("%s: %q\n  reads %q", fset.Position(lit.Pos()), s, out)
			}
			return true
		})
	}
	if seen == 0 {
		t.Error("no string of the package names a Go option: the test reads nothing")
	}
}

// TestInFlags: the hints the command line meets most, as they read.
func TestInFlags(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"the agent speaks JSON-RPC at this URL; make the client with WithTransports(TransportJSONRPC), or give it the URL of the agent's HTTP+JSON interface": "the agent speaks JSON-RPC at this URL; use --transport JSONRPC, or give the URL of the agent's HTTP+JSON interface",
		"make the client with WithTransports(TransportHTTPJSON) and WithProtocolVersion(ProtocolV10), or give it the URL of the agent's JSON-RPC interface":   "use --transport HTTP+JSON, or give the URL of the agent's JSON-RPC interface",
		"a2a: WithAgentID and WithAgentCode put a member in the JSON-RPC request envelope, ":                                                                  "a2a: --agent-id and --agent-code put a member in the JSON-RPC request envelope, ",
		"or from its agent card with NewClientFromCard":                                                       "or -a/--agent-card to read its card",
		"(or, in A2A v1.0, its tenant: WithTenant)":                                                           "(or, in A2A v1.0, its tenant: --tenant)",
		"(use WithProtocolVersion(ProtocolV10), or WithAgentID/WithAgentCode for a gateway's agent selector)": "(use --a2a-version 1.0, or --agent-id/--agent-code for a gateway's agent selector)",
	} {
		if got := inFlags(in); got != want {
			t.Errorf("inFlags(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}
