package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

func dlFileBytes(name, mime string, b []byte) a2a.FilePart {
	return a2a.FilePart{File: a2a.FileContent{Name: name, MIMEType: mime, Bytes: base64.StdEncoding.EncodeToString(b)}}
}

func dlFileURI(name, uri string) a2a.FilePart {
	return a2a.FilePart{File: a2a.FileContent{Name: name, URI: uri}}
}

func dlTaskWith(parts ...a2a.Part) *a2a.Task {
	return &a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: parts}}}
}

// fileServer serves /report.pdf, /big (100 bytes, known length), /chunked
// (100 bytes, no length), /to-file (a redirect to file:///etc/passwd),
// /to-self (to /report.pdf); it counts requests.
func dlFileServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		switch r.URL.Path {
		case "/report.pdf":
			if r.Header.Get("Authorization") != "" || r.Header.Get("X-API-Key") != "" {
				t.Errorf("credentials sent with a file URI")
			}
			w.Write([]byte("%PDF-1.7 report"))
		case "/big":
			w.Write([]byte(strings.Repeat("x", 100)))
		case "/chunked":
			for range 10 {
				w.Write([]byte(strings.Repeat("y", 10)))
				w.(http.Flusher).Flush()
			}
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/to-self":
			http.Redirect(w, r, "/report.pdf", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func dlReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDownloadParts(t *testing.T) {
	srv, _ := dlFileServer(t)
	dir := t.TempDir()
	task := dlTaskWith(
		dlFileBytes("photo.png", "image/png", []byte{0x89, 'P', 'N', 'G'}),
		dlFileURI("", srv.URL+"/report.pdf?sig=secret"),
		a2a.DataPart{Data: json.RawMessage(`{"a":1,"b":[2]}`)},
		a2a.TextPart{Text: "数控车床-A08-03-06"},
		dlFileURI("saved.pdf", srv.URL+"/to-self"),
		dlFileBytes("", "application/pdf", []byte("no name")),
		a2a.TextPart{Text: "# notes", Filename: "notes.md"},
	)
	paths, err := download(context.Background(), task, dir, false, srv.Client(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"photo.png", "report.pdf", "entity-3.json", "entity-4.txt", "saved.pdf", "entity-6.pdf", "notes.md"}
	for i := range want {
		want[i] = filepath.Join(dir, want[i])
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths %v, want %v", paths, want)
	}
	for path, content := range map[string]string{
		want[0]: "\x89PNG", want[1]: "%PDF-1.7 report", want[2]: "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n",
		want[3]: "数控车床-A08-03-06", want[4]: "%PDF-1.7 report", want[5]: "no name", want[6]: "# notes",
	} {
		if got := dlReadFile(t, path); got != content {
			t.Errorf("%s = %q, want %q", path, got, content)
		}
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"report.pdf":                      "report.pdf",
		"../../etc/passwd":                "passwd",
		"/etc/passwd":                     "passwd",
		`..\..\win.ini`:                   "win.ini",
		"..":                              "",
		".":                               "",
		"":                                "",
		".bashrc":                         "bashrc",
		"...":                             "",
		"evil\x1b[31m.txt":                "evil_[31m.txt",
		"bidi\u202eexe.txt":               "bidi_exe.txt",
		"bad\xffbyte":                     "bad_byte",
		"new\nline":                       "new_line",
		"CON":                             "",
		"nul.txt":                         "",
		"com1.tar.gz":                     "",
		"a:b?c*.txt":                      "a_b_c_.txt",
		"trailing. ":                      "trailing",
		"草料.json":                         "草料.json",
		"dir/":                            "",
		strings.Repeat("长", 100) + ".pdf": strings.Repeat("长", 65) + ".pdf",
	} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDownloadHostileNames(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	task := dlTaskWith(
		dlFileBytes("../../escape.txt", "", []byte("1")),
		dlFileBytes("/etc/passwd", "", []byte("2")),
		dlFileBytes("passwd", "", []byte("3")),
		dlFileBytes("PASSWD", "", []byte("4")),
		dlFileBytes("bell\x07\x1b]8;;http://x\x07.txt", "", []byte("5")),
		dlFileBytes("..", "text/plain", []byte("6")),
		dlFileBytes(".hidden", "", []byte("7")),
	)
	task.Artifacts[0].Name = "../../art"
	paths, err := download(context.Background(), task, dir, false, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		if filepath.Dir(p) != dir {
			t.Errorf("%s is outside %s", p, dir)
		}
		names = append(names, filepath.Base(p))
	}
	want := []string{"escape.txt", "passwd", "passwd-2", "PASSWD-3", "x_.txt", "art-6.txt", "hidden"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries beside the directory, want only it", len(entries))
	}
}

func TestDownloadDuplicates(t *testing.T) {
	dir := t.TempDir()
	task := dlTaskWith(dlFileBytes("same.txt", "", []byte("one")), dlFileBytes("same.txt", "", []byte("two")))
	task.Artifacts = append(task.Artifacts, a2a.Artifact{ArtifactID: "a2", Parts: []a2a.Part{dlFileBytes("same.txt", "", []byte("three"))}})
	paths, err := download(context.Background(), task, dir, false, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"one", "two", "three"} {
		if got := dlReadFile(t, paths[i]); got != want {
			t.Errorf("%s = %q, want %q", paths[i], got, want)
		}
	}
	if filepath.Base(paths[1]) != "same-2.txt" || filepath.Base(paths[2]) != "same-3.txt" {
		t.Errorf("paths %v", paths)
	}
}

func TestDownloadExisting(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "report.txt")
	os.WriteFile(existing, []byte("mine"), 0o644)
	task := dlTaskWith(dlFileBytes("first.txt", "", []byte("new first")), dlFileBytes("report.txt", "", []byte("theirs")))

	paths, err := download(context.Background(), task, dir, false, nil, 0)
	if err == nil || !strings.Contains(err.Error(), existing) || !strings.Contains(err.Error(), "--force") || len(paths) != 0 {
		t.Fatalf("download = %v, %v; want an error naming %s", paths, err, existing)
	}
	if fe, ok := err.(*fileExistsError); !ok || fe.Path != existing {
		t.Errorf("error %T %v, want a *fileExistsError for %s", err, err, existing)
	}
	if dlReadFile(t, existing) != "mine" {
		t.Error("existing file overwritten without force")
	}
	if _, err := os.Stat(filepath.Join(dir, "first.txt")); err == nil {
		t.Error("a file was written before the check failed")
	}

	// A link where a file would go: refused without force; with force the
	// link is replaced, its target untouched.
	other := filepath.Join(t.TempDir(), "other")
	os.WriteFile(other, []byte("elsewhere"), 0o644)
	os.Symlink(other, filepath.Join(dir, "first.txt"))
	if _, err := download(context.Background(), task, dir, false, nil, 0); err == nil {
		t.Error("a link at the target was not refused")
	}

	paths, err = download(context.Background(), task, dir, true, nil, 0)
	if err != nil || len(paths) != 2 {
		t.Fatalf("force: %v, %v", paths, err)
	}
	if dlReadFile(t, existing) != "theirs" || dlReadFile(t, filepath.Join(dir, "first.txt")) != "new first" || dlReadFile(t, other) != "elsewhere" {
		t.Error("force did not replace the files, or wrote through the link")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries, want 2 (no temporary file left)", len(entries))
	}
}

func TestDownloadURIRefused(t *testing.T) {
	srv, requests := dlFileServer(t)
	for _, tc := range []struct {
		uri, want string
		requests  int32
	}{
		{"file:///etc/passwd", "only http and https", 0},
		{"ftp://127.0.0.1/x", "only http and https", 0},
		{"data:text/plain,hi", "only http and https", 0},
		{srv.URL + "/to-file", "redirect to a file URI refused", 1},
		{srv.URL + "/big", "more than 10 bytes", 1},
		{srv.URL + "/chunked?token=s3cr3t", "more than 10 bytes", 1},
		{srv.URL + "/missing", "HTTP 404", 1},
	} {
		requests.Store(0)
		dir := t.TempDir()
		paths, err := download(context.Background(), dlTaskWith(dlFileURI("f.bin", tc.uri)), dir, false, srv.Client(), 10)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(paths) != 0 {
			t.Errorf("%s: %v, %v; want %q", tc.uri, paths, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the URI's query: %v", tc.uri, err)
		}
		if n := requests.Load(); n != tc.requests {
			t.Errorf("%s: %d requests, want %d", tc.uri, n, tc.requests)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: %d files left", tc.uri, len(entries))
		}
	}
}

func TestDownloadPartial(t *testing.T) {
	// The files written before a failure are returned with the error.
	srv, _ := dlFileServer(t)
	dir := t.TempDir()
	paths, err := download(context.Background(), dlTaskWith(dlFileBytes("ok.txt", "", []byte("ok")), dlFileURI("", srv.URL+"/big")), dir, false, srv.Client(), 10)
	if err == nil || len(paths) != 1 || filepath.Base(paths[0]) != "ok.txt" {
		t.Errorf("download = %v, %v", paths, err)
	}
	// Bytes that are not base64, and a part with both bytes and a URI.
	for _, p := range []a2a.FilePart{{File: a2a.FileContent{Name: "x", Bytes: "!!!"}}, {File: a2a.FileContent{Name: "x", Bytes: "aGk=", URI: srv.URL}}} {
		if _, err := download(context.Background(), dlTaskWith(p), t.TempDir(), false, nil, 0); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
	// A hostile nest is written compact, not indented to its depth squared.
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	paths, err = download(context.Background(), dlTaskWith(a2a.DataPart{Data: json.RawMessage(deep)}), t.TempDir(), false, nil, 0)
	if err != nil || dlReadFile(t, paths[0]) != deep+"\n" {
		t.Errorf("deep nest: %v, %v", paths, err)
	}
	// No artifacts: nothing written, no error.
	if paths, err := download(context.Background(), &a2a.Task{ID: "t"}, dir, false, nil, 0); err != nil || paths != nil {
		t.Errorf("no artifacts: %v, %v", paths, err)
	}
}
