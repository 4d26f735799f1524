package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// a2a task download (A2ACLI_DOWNLOAD_001): a task's artifacts written to
// files, bytes and URI file parts under their names. Nothing the agent
// names can reach outside the directory: names are reduced to a safe base
// name, files are created without following a link, and a URI is only
// fetched over http or https, bounded, without the user's credentials.

// downloadMaxRedirects bounds the redirects a URI fetch follows.
const downloadMaxRedirects = 10

// maxNameBytes bounds a file name written (most file systems take 255).
const maxNameBytes = 200

// fileExistsError is download's refusal to overwrite Path (a file or a
// link) without force; the core can hint the --force to add.
type fileExistsError struct{ Path string }

func (e *fileExistsError) Error() string { return e.Path + " exists: give --force to overwrite it" }

// downloadItem is one file to write: its name in the directory and its
// content, inline or at a URI.
type downloadItem struct {
	name    string
	content []byte
	uri     string
}

// download writes the task's artifacts into dir: each FilePart with bytes
// → its name (decoded), each FilePart with a URI → fetched with fetch
// (http/https only, no credentials: a client the core gives without them,
// body bounded by maxBytes, no redirects to other schemes), each DataPart
// → <artifact>-<n>.json (indented), each TextPart → <artifact>-<n>.txt.
// Names from the agent are sanitised (base name only, no "..", no path
// separators, no control characters, no leading dot, reserved/empty → a
// generated name); an existing file is not overwritten unless force
// (error naming it: a *fileExistsError). Returns the paths written in
// order.
//
// More precisely: <artifact> is the artifact's name, else its id, else
// "artifact-<i>" (sanitised); <n> counts the artifact's parts from 1. A
// file part without a name takes the last segment of its URI's path, else
// <artifact>-<n> with an extension for its media type (.bin when
// unknown). A v1.0 text or data part that carries a filename is written
// under it. A part of a kind the SDK does not know is written as
// <artifact>-<n>.json, its JSON as received. Names that repeat (case
// aside) get "-2", "-3"… before the extension. dir is created when
// missing. Without force, every target is checked before anything is
// written and then created exclusively (an existing file or link is
// never opened); with force, each file is written beside its target and
// renamed over it (a link there is replaced, not followed). maxBytes ≤ 0
// means a2a.DefaultMaxResponseBytes; fetch nil means a plain client. On an
// error, the paths written so far are returned with it; a file cut short
// is removed.
func download(ctx context.Context, task *a2a.Task, dir string, force bool, fetch *http.Client, maxBytes int64) ([]string, error) {
	if maxBytes <= 0 {
		maxBytes = a2a.DefaultMaxResponseBytes
	}
	items, err := downloadItems(task)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	for _, it := range items {
		target := filepath.Join(dir, it.name)
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		case !force:
			return nil, &fileExistsError{target}
		case !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0:
			return nil, fmt.Errorf("%s exists and is not a file: not overwritten", target)
		}
	}
	var written []string
	for _, it := range items {
		target := filepath.Join(dir, it.name)
		if it.uri != "" {
			err = fetchTo(ctx, fetch, it.uri, maxBytes, target, force)
		} else {
			err = writeTo(target, force, func(w io.Writer) error { _, err := w.Write(it.content); return err })
		}
		if err != nil {
			return written, err
		}
		written = append(written, target)
	}
	return written, nil
}

// downloadItems is the files task's artifacts make, named and made
// unique.
func downloadItems(task *a2a.Task) ([]downloadItem, error) {
	var items []downloadItem
	used := map[string]bool{}
	add := func(name, fallback string, it downloadItem) {
		if name = sanitizeName(name); name == "" {
			name = fallback
		}
		it.name = uniqueName(name, used)
		items = append(items, it)
	}
	if task == nil {
		return nil, nil
	}
	for i, a := range task.Artifacts {
		label := sanitizeName(a.Name)
		if label == "" {
			label = sanitizeName(a.ArtifactID)
		}
		if label == "" {
			label = fmt.Sprintf("artifact-%d", i+1)
		}
		for j, part := range a.Parts {
			base := fmt.Sprintf("%s-%d", label, j+1)
			switch p := part.(type) {
			case a2a.FilePart:
				f := p.File
				if f.URI != "" && f.Bytes == "" {
					name := f.Name
					if name == "" {
						if u, err := url.Parse(f.URI); err == nil {
							name = u.Path
						}
					}
					add(name, base+extensionFor(f.MIMEType), downloadItem{uri: f.URI})
					continue
				}
				b, err := f.Decode()
				if err != nil {
					return nil, fmt.Errorf("artifact %s, part %d: %w", label, j+1, err)
				}
				add(f.Name, base+extensionFor(f.MIMEType), downloadItem{content: b})
			case a2a.DataPart:
				add(p.Filename, base+".json", downloadItem{content: downloadJSON(p.Data)})
			case a2a.TextPart:
				add(p.Filename, base+".txt", downloadItem{content: []byte(p.Text)})
			case a2a.UnknownPart:
				add("", base+".json", downloadItem{content: downloadJSON(p.Raw)})
			}
		}
	}
	return items, nil
}

// downloadJSON is b indented by two spaces with a final newline; compact
// when it nests deeper than 64 levels (the indentation of a hostile nest
// would grow as the square of its depth); b as it is (and the newline)
// when it is not JSON.
func downloadJSON(b []byte) []byte {
	var out bytes.Buffer
	err := json.Compact(&out, b)
	if err == nil && jsonDepth(b) <= 64 {
		out.Reset()
		err = json.Indent(&out, b, "", "  ")
	}
	if err != nil {
		out.Reset()
		out.Write(b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// jsonDepth is the deepest nesting of objects and arrays in b.
func jsonDepth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// extensionFor is the file extension of a media type, ".bin" when not
// one of the common ones (a fixed table: the system's mime.types would
// make names differ between machines).
func extensionFor(mediaType string) string {
	mt, _, _ := strings.Cut(strings.ToLower(mediaType), ";")
	switch strings.TrimSpace(mt) {
	case "application/json":
		return ".json"
	case "text/plain":
		return ".txt"
	case "text/markdown":
		return ".md"
	case "text/csv":
		return ".csv"
	case "text/html":
		return ".html"
	case "application/pdf":
		return ".pdf"
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/svg+xml":
		return ".svg"
	case "application/zip":
		return ".zip"
	}
	return ".bin"
}

// sanitizeName is name as a safe file name: its last path element (after
// any "/" or "\"), each control, format or invalid byte and each of
// <>:"|?* replaced by "_", leading dots and spaces and trailing dots and
// spaces removed, cut to maxNameBytes (the extension kept); "" when
// nothing is left or the name is reserved on Windows (CON, NUL, COM1…).
func sanitizeName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(name[i:], "\uFFFD"),
			unicode.IsControl(r), unicode.Is(unicode.Cf, r), !unicode.IsPrint(r) && r != ' ',
			strings.ContainsRune(`<>:"|?*`, r):
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimLeft(b.String(), ". ")
	name = strings.TrimRight(name, ". ")
	if len(name) > maxNameBytes {
		ext := filepath.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		stem := name[:maxNameBytes-len(ext)]
		for !utf8.ValidString(stem) {
			stem = stem[:len(stem)-1]
		}
		name = stem + ext
	}
	stem, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(strings.TrimSpace(stem)) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return ""
	}
	return name
}

// uniqueName is name, or name with "-2", "-3"… before its extension,
// the first not in used (compared without case, as macOS and Windows
// file systems do); it is added to used.
func uniqueName(name string, used map[string]bool) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	out := name
	for n := 2; used[strings.ToLower(out)]; n++ {
		out = fmt.Sprintf("%s-%d%s", stem, n, ext)
	}
	used[strings.ToLower(out)] = true
	return out
}

// writeTo writes target with fill. Without force the file is created
// exclusively (it, or a link there, must not exist); with force a file
// beside it is filled and renamed over it. A file cut short by an error
// is removed.
func writeTo(target string, force bool, fill func(io.Writer) error) error {
	path := target
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		var r [8]byte
		rand.Read(r[:])
		path = filepath.Join(filepath.Dir(target), ".a2a-download-"+hex.EncodeToString(r[:]))
	}
	f, err := os.OpenFile(path, flags, 0o666)
	if errors.Is(err, os.ErrExist) && !force {
		return &fileExistsError{target}
	}
	if err != nil {
		return err
	}
	err = fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && force {
		err = os.Rename(path, target)
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// fetchTo writes the body of a GET of uri to target: http or https only,
// each redirect too (at most downloadMaxRedirects), a 2xx status, at most
// maxBytes. Errors name the URI without its query or user info (a signed
// URL's query is a credential).
func fetchTo(ctx context.Context, fetch *http.Client, uri string, maxBytes int64, target string, force bool) error {
	u, err := url.Parse(uri)
	if err != nil {
		return fmt.Errorf("file URI %q: %w", shownURI(nil, uri), errors.Unwrap(err))
	}
	shown := shownURI(u, uri)
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("file URI %s: only http and https URIs are fetched", shown)
	}
	hc := &http.Client{}
	if fetch != nil {
		cp := *fetch
		hc = &cp
	}
	next := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if s := req.URL.Scheme; s != "http" && s != "https" {
			return fmt.Errorf("redirect to a %s URI refused: only http and https are fetched", s)
		}
		if len(via) >= downloadMaxRedirects {
			return fmt.Errorf("more than %d redirects", downloadMaxRedirects)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return fmt.Errorf("fetching %s: %w", shown, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("fetching %s: %w", shown, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("fetching %s: HTTP %d %s", shown, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	tooLarge := fmt.Errorf("fetching %s: more than %d bytes (--max-bytes)", shown, maxBytes)
	if resp.ContentLength > maxBytes {
		return tooLarge
	}
	return writeTo(target, force, func(w io.Writer) error {
		n, err := io.Copy(w, io.LimitReader(resp.Body, maxBytes+1))
		switch {
		case err != nil:
			return fmt.Errorf("fetching %s: %w", shown, err)
		case n > maxBytes:
			return tooLarge
		}
		return nil
	})
}

// shownURI is a URI as an error names it: without user info, its query
// and fragment replaced by "…".
func shownURI(u *url.URL, raw string) string {
	if u == nil {
		s, _, _ := strings.Cut(raw, "?")
		if i := strings.Index(s, "@"); i >= 0 {
			s = s[i+1:]
		}
		return s
	}
	cp := *u
	cp.User = nil
	hidden := cp.RawQuery != "" || cp.Fragment != ""
	cp.RawQuery, cp.Fragment, cp.RawFragment = "", "", ""
	s := cp.String()
	if hidden {
		s += "?…"
	}
	return s
}
