package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// cliSpecVersion is the version of the A2A CLI specification
// (a2aproject/a2a-cli, specification/SPEC.md) this command implements.
const cliSpecVersion = "0.2"

// versionInfo is what "a2a version" reports, as versionJSON writes it.
type versionInfo struct {
	// Version is the module version of the build: "v1.2.3" from
	// "go install …@v1.2.3", a pseudo-version ("v0.0.0-…-abcdef123456",
	// "+dirty" when modified) from a build in a clone with VCS stamping,
	// "(devel)" without it, "(unknown)" when the binary has no build info.
	Version string `json:"version"`
	// Revision is the VCS commit the binary was built from (vcs.revision),
	// when the build recorded it; Modified is vcs.modified (uncommitted
	// changes were built).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the Go toolchain version that built the binary ("go1.26.8").
	Go string `json:"go"`
	// ProtocolVersions are the A2A protocol versions the CLI speaks, and
	// Bindings the protocol bindings, as the SDK names them.
	ProtocolVersions []string `json:"protocolVersions"`
	Bindings         []string `json:"bindings"`
	// CLISpec is the A2A CLI specification version implemented.
	CLISpec string `json:"cliSpec"`
}

// newVersionInfo reads info, the binary's build information
// (debug.ReadBuildInfo; nil when it has none). Every string from it is made
// inert, as a build can stamp any text.
func newVersionInfo(info *debug.BuildInfo) versionInfo {
	v := versionInfo{
		Version:          "(unknown)",
		Go:               runtime.Version(),
		ProtocolVersions: []string{a2a.ProtocolV03, a2a.ProtocolV10},
		Bindings:         []string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON},
		CLISpec:          cliSpecVersion,
	}
	if info == nil {
		return v
	}
	if info.Main.Version != "" {
		v.Version = inert.Printable(info.Main.Version)
	}
	if info.GoVersion != "" {
		v.Go = inert.Printable(info.GoVersion)
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = inert.Printable(s.Value)
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// versionText is what "a2a version", "a2a -v" and "a2a --version" print
// on stdout in text mode: one "Label: value" line each for the CLI's
// module version (info.Main.Version; "(devel)" from a clone built without
// VCS stamping, "(unknown)" for a nil info), the VCS revision when the
// build recorded one (" (modified)" after it for a build of uncommitted
// changes), the Go version, the A2A protocol versions and bindings spoken
// (the SDK's constants) and the A2A CLI specification followed. The labels
// are stable: Version, Revision, Go, A2A protocol versions, Bindings, CLI
// specification.
func versionText(info *debug.BuildInfo) string {
	v := newVersionInfo(info)
	var b strings.Builder
	fmt.Fprintf(&b, "Version: %s\n", v.Version)
	if v.Revision != "" {
		mod := ""
		if v.Modified {
			mod = " (modified)"
		}
		fmt.Fprintf(&b, "Revision: %s%s\n", v.Revision, mod)
	}
	fmt.Fprintf(&b, "Go: %s\n", v.Go)
	fmt.Fprintf(&b, "A2A protocol versions: %s\n", strings.Join(v.ProtocolVersions, ", "))
	fmt.Fprintf(&b, "Bindings: %s\n", strings.Join(v.Bindings, ", "))
	fmt.Fprintf(&b, "CLI specification: A2A CLI specification v%s\n", v.CLISpec)
	return b.String()
}

// versionJSON is the version for "-o json": one JSON object (no trailing
// line break) {"version","revision"?,"modified"?,"go","protocolVersions",
// "bindings","cliSpec"}, the fields of versionText; "revision" and
// "modified" are left out when the build did not record them.
func versionJSON(info *debug.BuildInfo) []byte {
	b, _ := json.Marshal(newVersionInfo(info)) // strings, bools and slices of them: no error
	return b
}
