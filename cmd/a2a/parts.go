package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The message parts of send (the A2A CLI specification v0.2 §10.2,
// A2ACLI_SEND_005 and A2ACLI_SEND_006): --text, --file and --data add a
// part each, repeatable, in the order given; --media-type sets the media
// type of the part flag right before it.

// partKind is the flag a part came from: "text", "file" or "data".
type partKind string

const (
	partText partKind = "text"
	partFile partKind = "file"
	partData partKind = "data"
)

// partSpec is one part flag as given: its flag, its value, and the
// --media-type bound to it ("" for none).
type partSpec struct {
	kind      partKind
	value     string
	mediaType string
}

// partFlags collects the repeatable, ordered --text, --file, --data and
// --media-type flags of send. The zero value is ready for register.
type partFlags struct {
	specs []partSpec
	// bindErr is the first misplaced --media-type (before any part flag,
	// or a second one for the same part), reported by build as a usage
	// error so that the message is the command's own, not the flag
	// package's.
	bindErr error
}

// register adds --text, --file, --data and --media-type to fs; their order
// on the command line is kept (flag.FlagSet calls Set in order).
// --media-type binds to the part flag right before it.
func (p *partFlags) register(fs *flag.FlagSet) {
	add := func(kind partKind) func(string) error {
		return func(v string) error {
			p.specs = append(p.specs, partSpec{kind: kind, value: v})
			return nil
		}
	}
	fs.Func("text", "add a text part `TEXT`; repeatable, parts keep their order", add(partText))
	fs.Func("file", "add a file part: a local `PATH|URL` (inline bytes, at most the inline limit), - for stdin, or an http(s) URL sent by reference (never fetched); repeatable", add(partFile))
	fs.Func("data", "add a data part: JSON from `FILE`, or - for stdin; repeatable", add(partData))
	fs.Func("media-type", "the media `TYPE` of the part flag right before it (else inferred for --file)", p.bind)
}

// bind records --media-type m on the last part flag, or the usage error
// of a misplaced one (kept for build; it never fails the flag parse).
func (p *partFlags) bind(m string) error {
	switch {
	case p.bindErr != nil:
	case len(p.specs) == 0:
		p.bindErr = usagef("--media-type %s comes before any part flag: put it right after the --text, --file or --data it describes", quote(m))
	case p.specs[len(p.specs)-1].mediaType != "":
		last := p.specs[len(p.specs)-1]
		if last.kind == partText { // its text may be long: not repeated
			p.bindErr = usagef("--media-type given twice for the --text right before it")
		} else {
			p.bindErr = usagef("--media-type given twice for --%s %s", last.kind, quote(last.value))
		}
	default:
		p.specs[len(p.specs)-1].mediaType = m
	}
	return nil
}

// build makes the parts: first (send's positional TEXT, "" for none) as a
// text part before the rest, then each flag's part in order. Errors are
// usage errors (usagef): --media-type before any part flag, twice for one
// part, or not a media type; an unreadable, empty, non-regular file or one
// over maxFileBytes (its size said, a URL suggested); --data that is not
// JSON; "-" (stdin) used twice; no part at all. --data - and --file - read
// stdin, at most maxFileBytes bytes of it. maxFileBytes is in bytes and
// bounds each inline file and each --data document.
func (p *partFlags) build(stdin io.Reader, first string, maxFileBytes int64) ([]a2a.Part, error) {
	if p.bindErr != nil {
		return nil, p.bindErr
	}
	var parts []a2a.Part
	if first != "" {
		parts = append(parts, a2a.TextPart{Text: first})
	}
	stdinUsedBy := ""
	for _, s := range p.specs {
		if s.mediaType != "" {
			if err := checkMediaType(s.mediaType); err != nil {
				return nil, err
			}
		}
		if s.value == "-" && s.kind != partText {
			if stdinUsedBy != "" {
				return nil, usagef("--%s - and %s both read stdin: only one part can come from stdin", s.kind, stdinUsedBy)
			}
			stdinUsedBy = "--" + string(s.kind) + " -"
		}
		part, err := s.part(stdin, maxFileBytes)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return nil, usagef("nothing to send: give TEXT, or one or more of --text, --file and --data")
	}
	return parts, nil
}

// part makes the one part of s.
func (s partSpec) part(stdin io.Reader, maxFileBytes int64) (a2a.Part, error) {
	switch s.kind {
	case partText:
		return a2a.TextPart{Text: s.value, MediaType: s.mediaType}, nil
	case partData:
		b, _, err := readInput("--data", s.value, stdin, maxFileBytes)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if !json.Valid(b) || json.Compact(&buf, b) != nil {
			return nil, usagef("--data: %s is not valid JSON", sourceName(s.value))
		}
		return a2a.DataPart{Data: json.RawMessage(buf.Bytes()), MediaType: s.mediaType}, nil
	}
	if u, ok, err := fileURL(s.value); err != nil {
		return nil, err
	} else if ok {
		mt := s.mediaType
		if mt == "" {
			mt = mime.TypeByExtension(path.Ext(u.Path))
		}
		name := ""
		if i := strings.LastIndexByte(u.Path, '/'); i >= 0 {
			name = u.Path[i+1:]
		}
		return a2a.FilePart{File: a2a.FileContent{Name: name, MIMEType: mt, URI: s.value}}, nil // the URL as given
	}
	b, name, err := readInput("--file", s.value, stdin, maxFileBytes)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, usagef("--file: %s is empty: a file part needs content", sourceName(s.value))
	}
	mt := s.mediaType
	if mt == "" && name != "" {
		mt = mime.TypeByExtension(filepath.Ext(name))
	}
	if mt == "" {
		mt = http.DetectContentType(b) // reads at most the first 512 bytes
	}
	return a2a.NewFileBytes(name, mt, b), nil
}

// fileURL reports whether v, a --file value, is a URL to send by
// reference: true for an http:// or https:// URL (any case), which must
// have a host and no control character; an error for another scheme
// written scheme://, which the CLI cannot send; false for a path.
func fileURL(v string) (*url.URL, bool, error) {
	scheme, _, found := strings.Cut(v, "://")
	if !found || scheme == "" || strings.ContainsAny(scheme, `/\`) {
		return nil, false, nil
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
	default:
		return nil, false, usagef("--file %s: only an http:// or https:// URL is sent by reference; give a local path for inline bytes", quote(v))
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || hasControl(v) {
		return nil, false, usagef("--file %s is not a valid URL", quote(v))
	}
	return u, true, nil
}

// readInput reads a part's content for flag: stdin for "-", else the
// regular file at path v. It returns the bytes and the file's base name
// ("" for stdin). Its errors are usage errors naming the path (quoted):
// a control character in the path, no such file, a directory, a fifo or
// other non-regular file, content over limit bytes.
func readInput(flagName, v string, stdin io.Reader, limit int64) ([]byte, string, error) {
	if v == "-" {
		if stdin == nil {
			return nil, "", usagef("%s -: no stdin to read", flagName)
		}
		b, err := io.ReadAll(io.LimitReader(stdin, limit+1))
		if err != nil {
			return nil, "", usagef("%s -: reading stdin: %v", flagName, err)
		}
		if int64(len(b)) > limit {
			return nil, "", usagef("%s -: stdin holds more than %s, the limit of an inline part%s", flagName, sizeText(limit), urlAdvice(flagName))
		}
		return b, "", nil
	}
	if v == "" {
		return nil, "", usagef("%s needs a path (or - for stdin)", flagName)
	}
	if hasControl(v) {
		return nil, "", usagef("%s %s: the path holds a control character", flagName, quote(v))
	}
	fi, err := os.Stat(v) // follows a symlink: the file it names is what is read
	switch {
	case os.IsNotExist(err):
		return nil, "", usagef("%s %s: no such file", flagName, quote(v))
	case err != nil:
		return nil, "", usagef("%s %s: cannot read it: %v", flagName, quote(v), pathlessErr(err))
	case fi.IsDir():
		return nil, "", usagef("%s %s is a directory: give a file", flagName, quote(v))
	case !fi.Mode().IsRegular(): // a fifo, socket or device: opening one could block or never end
		return nil, "", usagef("%s %s is not a regular file (%s)", flagName, quote(v), modeName(fi.Mode()))
	case fi.Size() > limit:
		return nil, "", usagef("%s %s is %s, over the %s limit of an inline part%s", flagName, quote(v), sizeText(fi.Size()), sizeText(limit), urlAdvice(flagName))
	}
	f, err := os.Open(v)
	if err != nil {
		return nil, "", usagef("%s %s: cannot read it: %v", flagName, quote(v), pathlessErr(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1)) // the file may have grown since Stat
	if err != nil {
		return nil, "", usagef("%s %s: cannot read it: %v", flagName, quote(v), pathlessErr(err))
	}
	if int64(len(b)) > limit {
		return nil, "", usagef("%s %s is over the %s limit of an inline part%s", flagName, quote(v), sizeText(limit), urlAdvice(flagName))
	}
	return b, filepath.Base(v), nil
}

// urlAdvice is what an oversized part's error suggests instead.
func urlAdvice(flagName string) string {
	if flagName == "--file" {
		return ": put the file at an http(s) URL the agent can fetch and pass --file URL"
	}
	return ""
}

// pathlessErr is err without the path an *os.PathError repeats (the
// message names the path, quoted, already).
func pathlessErr(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}

// modeName names a non-regular file's type for an error.
func modeName(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a fifo"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// sourceName names an input in an error: stdin for "-", else the path
// quoted.
func sourceName(v string) string {
	if v == "-" {
		return "stdin"
	}
	return quote(v)
}

// sizeText writes n bytes for a person: "512 bytes", "1.5 KiB (1536
// bytes)", "10 MiB (10485760 bytes)".
func sizeText(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v, u = v/1024, u+1
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return fmt.Sprintf("%s %s (%d bytes)", s, units[u], n)
}

// hasControl reports whether s holds a control or format character, or
// invalid UTF-8.
func hasControl(s string) bool {
	for _, r := range s {
		if r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}

// checkMediaType refuses a --media-type that is not type/subtype with
// optional parameters (RFC 2045, as mime.ParseMediaType reads it).
func checkMediaType(m string) error {
	mt, _, err := mime.ParseMediaType(m)
	if err != nil || !strings.Contains(mt, "/") || strings.HasPrefix(mt, "/") || strings.HasSuffix(mt, "/") {
		return usagef("--media-type %s is not a media type: want type/subtype, such as application/pdf", quote(m))
	}
	return nil
}

// parseMetadata reads --metadata (or A2ACLI_METADATA): a JSON object,
// returned compacted as raw bytes; "" (not given) returns nil. Anything
// else is a usage error saying what was wanted.
func parseMetadata(s string) (json.RawMessage, error) {
	if s == "" {
		return nil, nil
	}
	b := bytes.TrimSpace([]byte(s))
	if !json.Valid(b) {
		return nil, usagef("--metadata (or A2ACLI_METADATA) is not valid JSON: want an object such as '{\"key\":\"value\"}'")
	}
	if b[0] != '{' {
		return nil, usagef("--metadata (or A2ACLI_METADATA) is JSON %s, not an object: want an object such as '{\"key\":\"value\"}'", jsonKind(b[0]))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, usagef("--metadata (or A2ACLI_METADATA) is not valid JSON: want an object such as '{\"key\":\"value\"}'")
	}
	return json.RawMessage(buf.Bytes()), nil
}

// jsonKind names the kind of a JSON value from its first byte.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
