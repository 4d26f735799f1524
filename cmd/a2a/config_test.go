package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// configNames are the settings the tests' loadSettings knows.
var configNames = []string{
	"A2ACLI_AGENT_CARD", "A2ACLI_BEARER", "A2ACLI_API_KEY", "A2ACLI_TIMEOUT",
	"A2ACLI_TENANT", "A2ACLI_OUTPUT", "A2ACLI_TRANSPORT",
}

// configWorld is a fake machine for loadSettings: a home, an XDG config
// directory, a working directory, all under t.TempDir, and environment
// variables.
type configWorld struct {
	root, home, xdg, work string
	vars                  map[string]string
}

func newConfigWorld(t *testing.T) *configWorld {
	t.Helper()
	root := t.TempDir()
	w := &configWorld{root: root, home: filepath.Join(root, "home"), xdg: filepath.Join(root, "xdg"),
		work: filepath.Join(root, "proj", "sub", "dir"), vars: map[string]string{}}
	for _, d := range []string{w.home, w.xdg, w.work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.vars["HOME"], w.vars["XDG_CONFIG_HOME"] = w.home, w.xdg
	return w
}

func (w *configWorld) env() env {
	return env{getenv: func(k string) string { return w.vars[k] }, dir: w.work}
}

// write writes content to path (made absolute under w.root when
// relative) with mode, making its directory, and returns the path.
func (w *configWorld) write(t *testing.T, path, content string, mode os.FileMode) string {
	t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(w.root, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return path
}

func (w *configWorld) globalFile() string { return filepath.Join(w.xdg, "a2a-cli", ".env") }

func (w *configWorld) load(t *testing.T, configPath string) (*settings, []string) {
	t.Helper()
	s, warnings, err := loadSettings(w.env(), configNames, configPath)
	if err != nil {
		t.Fatalf("loadSettings: %v", err)
	}
	return s, warnings
}

func wantSetting(t *testing.T, s *settings, name, value, source string) {
	t.Helper()
	got, ok := s.get(name)
	if !ok || got.Value != value || got.Source != source {
		t.Errorf("%s = %+v, %v; want {%q %q}", name, got, ok, value, source)
	}
}

func wantUnset(t *testing.T, s *settings, name string) {
	t.Helper()
	if got, ok := s.get(name); ok {
		t.Errorf("%s = %+v; want unset", name, got)
	}
}

// Every level beats the ones below it: environment > local > global;
// --config takes the local file's place, the global one is still read.
func TestLoadSettingsPrecedence(t *testing.T) {
	w := newConfigWorld(t)
	global := w.write(t, w.globalFile(),
		"A2ACLI_AGENT_CARD=global-card\nA2ACLI_TIMEOUT=1m\nA2ACLI_TENANT=global-tenant\nA2ACLI_OUTPUT=json\n", 0o600)
	local := w.write(t, "proj/.env", "A2ACLI_TIMEOUT=2m\nA2ACLI_TENANT=local-tenant\nA2ACLI_TRANSPORT=JSONRPC\n", 0o600)
	w.vars["A2ACLI_TENANT"] = "env-tenant"
	w.vars["A2ACLI_OUTPUT"] = "" // empty: not set

	s, warnings := w.load(t, "")
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
	wantSetting(t, s, "A2ACLI_AGENT_CARD", "global-card", "file "+global)
	wantSetting(t, s, "A2ACLI_TIMEOUT", "2m", "file "+local)
	wantSetting(t, s, "A2ACLI_TENANT", "env-tenant", "environment")
	wantSetting(t, s, "A2ACLI_OUTPUT", "json", "file "+global)
	wantSetting(t, s, "A2ACLI_TRANSPORT", "JSONRPC", "file "+local)
	wantUnset(t, s, "A2ACLI_BEARER")
	if got := s.files; !slices.Equal(got, []string{local, global}) {
		t.Errorf("filesRead = %q; want local then global", got)
	}

	// --config replaces the local file (its A2ACLI_TRANSPORT is gone), not the global one.
	explicit := w.write(t, "agents/one.env", "A2ACLI_TIMEOUT=3m\nA2ACLI_AGENT_CARD=explicit-card\n", 0o600)
	s, _ = w.load(t, explicit)
	wantSetting(t, s, "A2ACLI_TIMEOUT", "3m", "file "+explicit)
	wantSetting(t, s, "A2ACLI_AGENT_CARD", "explicit-card", "file "+explicit)
	wantSetting(t, s, "A2ACLI_OUTPUT", "json", "file "+global)
	wantSetting(t, s, "A2ACLI_TENANT", "env-tenant", "environment")
	wantUnset(t, s, "A2ACLI_TRANSPORT")

	// A relative --config is taken from the working directory and shown absolute.
	s, _ = w.load(t, "../../../agents/one.env")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "3m", "file "+explicit)

	// An empty value in a file is a value: the local file clears the global one.
	w.write(t, "proj/.env", "A2ACLI_AGENT_CARD=\n", 0o600)
	s, _ = w.load(t, "")
	wantSetting(t, s, "A2ACLI_AGENT_CARD", "", "file "+local)
}

// The local file is the first .env walking up from the working
// directory: a directory named .env is passed; the walk ends at the root.
func TestLoadSettingsWalkUp(t *testing.T) {
	w := newConfigWorld(t)
	if above := findLocalConfig(filepath.Dir(w.root)); above == "" { // else a .env above t.TempDir: not ours to remove
		s, _ := w.load(t, "")
		wantUnset(t, s, "A2ACLI_TIMEOUT") // none anywhere
	}

	top := w.write(t, ".env", "A2ACLI_TIMEOUT=top\n", 0o600)
	if err := os.MkdirAll(filepath.Join(w.root, "proj", "sub", ".env"), 0o700); err != nil {
		t.Fatal(err)
	}
	s, _ := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "top", "file "+top)

	nearer := w.write(t, "proj/.env", "A2ACLI_TIMEOUT=proj\n", 0o600)
	s, _ = w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "proj", "file "+nearer)
	if got := s.files; !slices.Equal(got, []string{nearer}) {
		t.Errorf("filesRead = %q; want only the nearest", got)
	}

	// No working directory: no local file.
	e := w.env()
	e.dir = ""
	s, _, err := loadSettings(e, configNames, "")
	if err != nil {
		t.Fatal(err)
	}
	wantUnset(t, s, "A2ACLI_TIMEOUT")
}

// The global file is under $XDG_CONFIG_HOME when it is absolute, else
// under $HOME/.config; neither set: none.
func TestLoadSettingsGlobalPath(t *testing.T) {
	w := newConfigWorld(t)
	xdg := w.write(t, w.globalFile(), "A2ACLI_TIMEOUT=xdg\n", 0o600)
	home := w.write(t, filepath.Join(w.home, ".config", "a2a-cli", ".env"), "A2ACLI_TIMEOUT=home\n", 0o600)
	s, _ := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "xdg", "file "+xdg)

	w.vars["XDG_CONFIG_HOME"] = "relative/dir" // ignored, as XDG says
	s, _ = w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "home", "file "+home)

	delete(w.vars, "XDG_CONFIG_HOME")
	delete(w.vars, "HOME")
	s, _ = w.load(t, "")
	wantUnset(t, s, "A2ACLI_TIMEOUT")

	w.vars["USERPROFILE"] = w.home // Windows
	s, _ = w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "home", "file "+home)
	delete(w.vars, "USERPROFILE")

	// The working directory is the global file's: it is read once, as the local one.
	w.vars["HOME"] = w.home
	w.work = filepath.Dir(home)
	s, warnings := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "home", "file "+home)
	if got := s.files; !slices.Equal(got, []string{home}) || len(warnings) != 0 {
		t.Errorf("filesRead = %q, warnings %q; want the file once", got, warnings)
	}
}

// A --config that cannot be read is an error naming it; so is a file
// over 64 KiB, wherever it is. A missing found file is no error.
func TestLoadSettingsFileErrors(t *testing.T) {
	w := newConfigWorld(t)
	for _, tc := range []struct{ name, path, want string }{
		{"missing", filepath.Join(w.root, "nope.env"), "nope.env: cannot read it: open: no such file"},
		{"directory", w.root, "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := loadSettings(w.env(), configNames, tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--config ") {
				t.Fatalf("err = %v; want --config … %q", err, tc.want)
			}
		})
	}

	big := "A2ACLI_BEARER=sekrit-value\n" + strings.Repeat("# padding\n", configFileMax/10)
	for _, tc := range []struct{ name, rel, config string }{
		{"local", "proj/.env", ""},
		{"explicit", "big.env", "big.env"},
		{"global", w.globalFile(), ""},
	} {
		t.Run("oversized "+tc.name, func(t *testing.T) {
			path := w.write(t, tc.rel, big, 0o600)
			defer os.Remove(path)
			cfg := ""
			if tc.config != "" {
				cfg = path
			}
			_, _, err := loadSettings(w.env(), configNames, cfg)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "larger than 64 KiB") {
				t.Fatalf("err = %v; want the file named and its bound", err)
			}
			if strings.Contains(err.Error(), "sekrit") {
				t.Errorf("err shows a value: %v", err)
			}
		})
	}

	// Exactly the bound is read.
	path := w.write(t, "proj/.env", "A2ACLI_TENANT=t\n"+strings.Repeat("#", configFileMax-len("A2ACLI_TENANT=t\n")), 0o600)
	s, _ := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TENANT", "t", "file "+path)
}

// Keys starting A2ACLI_ that are not settings are warned about by
// file:line and name, with the name probably meant; other keys are
// ignored in silence.
func TestLoadSettingsUnknownKeys(t *testing.T) {
	w := newConfigWorld(t)
	path := w.write(t, "proj/.env", strings.Join([]string{
		"OTHER_TOOL=x",           // 1: not ours
		"A2ACLI_BEARE=tok-value", // 2: a typo
		"a2acli_timeout=5s",      // 3: lower case
		"A2ACLI_STREAM=1",        // 4: explicit-only
		"A2ACLI_NOTHING_LIKE=1",  // 5
		"A2ACLI_TENANT=ok",       // 6
		"not a line",             // 7
		"A2ACLI_TIMEOUTT=1s",     // 8
	}, "\n"), 0o600)
	s, warnings := w.load(t, "")
	want := []string{ // in line order
		path + ":2: A2ACLI_BEARE is not a setting; ignored; did you mean A2ACLI_BEARER?",
		path + ":3: a2acli_timeout is not a setting; ignored; did you mean A2ACLI_TIMEOUT?",
		path + ":4: A2ACLI_STREAM is not a setting; ignored (--stream is given on the command line only)",
		path + ":5: A2ACLI_NOTHING_LIKE is not a setting; ignored",
		path + ":7: not KEY=value; line ignored",
		path + ":8: A2ACLI_TIMEOUTT is not a setting; ignored; did you mean A2ACLI_TIMEOUT?",
	}
	if !slices.Equal(warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	wantSetting(t, s, "A2ACLI_TENANT", "ok", "file "+path)
	wantUnset(t, s, "A2ACLI_BEARER")
	wantUnset(t, s, "A2ACLI_TIMEOUT")

	// Many unknown keys: maxLineWarnings warnings and one that counts the rest.
	w.write(t, "proj/.env", strings.Repeat("A2ACLI_NO_SUCH=1\n", 500)+"A2ACLI_TENANT=still\n", 0o600)
	s, warnings = w.load(t, "")
	if len(warnings) != maxLineWarnings+1 || !strings.HasSuffix(warnings[maxLineWarnings], ": 490 more lines cannot be read or name no setting; ignored") {
		t.Errorf("%d warnings, the last %q", len(warnings), warnings[len(warnings)-1])
	}
	wantSetting(t, s, "A2ACLI_TENANT", "still", "file "+path)
}

// A file that gives a credential a value and that group or others may
// read is warned about (and still read); at 0600, or holding no
// credential, it is not.
func TestLoadSettingsCredentialFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	w := newConfigWorld(t)
	for _, tc := range []struct {
		name, content string
		mode          os.FileMode
		warn          bool
	}{
		{"bearer 0644", "A2ACLI_BEARER=tok-123456\n", 0o644, true},
		{"api key 0640", "A2ACLI_API_KEY=key-123456\n", 0o640, true},
		{"bearer 0600", "A2ACLI_BEARER=tok-123456\n", 0o600, false},
		{"no credential 0644", "A2ACLI_TIMEOUT=1m\n", 0o644, false},
		{"empty credential 0644", "A2ACLI_BEARER=\n", 0o644, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := w.write(t, "proj/.env", tc.content, tc.mode)
			s, warnings := w.load(t, "")
			key, value, _ := strings.Cut(strings.TrimSpace(tc.content), "=")
			wantSetting(t, s, key, value, "file "+path)
			if !tc.warn {
				if len(warnings) != 0 {
					t.Errorf("warnings: %q; want none", warnings)
				}
				return
			}
			want := fmt.Sprintf("%s holds %s and is readable by group or others (mode %04o): chmod 600 %s", path, key, tc.mode, path)
			if len(warnings) != 1 || warnings[0] != want {
				t.Errorf("warnings = %q; want [%q]", warnings, want)
			}
			if strings.Contains(strings.Join(warnings, ""), value) {
				t.Errorf("a warning shows the credential")
			}
		})
	}
}

// A found .env owned by another user is not read (warned about), as it
// may have been planted above the working directory; named with
// --config it is read.
func TestLoadSettingsForeignOwner(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	w := newConfigWorld(t)
	path := w.write(t, "proj/.env", "A2ACLI_AGENT_CARD=evil.example\n", 0o644)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Skip(err)
	}
	s, warnings := w.load(t, "")
	wantUnset(t, s, "A2ACLI_AGENT_CARD")
	want := path + ": owned by another user; ignored (read it with --config " + path + " if you trust it)"
	if !slices.Equal(warnings, []string{want}) {
		t.Errorf("warnings = %q; want [%q]", warnings, want)
	}
	s, warnings = w.load(t, path)
	wantSetting(t, s, "A2ACLI_AGENT_CARD", "evil.example", "file "+path)
	if len(warnings) != 0 {
		t.Errorf("warnings = %q; want none", warnings)
	}
}

// A nil *settings holds nothing.
func TestSettingsNil(t *testing.T) {
	var nilSettings *settings
	if _, ok := nilSettings.get("A2ACLI_BEARER"); ok {
		t.Error("a nil *settings holds something")
	}
}

// An env without getenv reads the files alone.
func TestLoadSettingsNoGetenv(t *testing.T) {
	w := newConfigWorld(t)
	path := w.write(t, "proj/.env", "A2ACLI_TIMEOUT=9s\n", 0o600)
	s, _, err := loadSettings(env{dir: w.work}, configNames, "")
	if err != nil {
		t.Fatal(err)
	}
	wantSetting(t, s, "A2ACLI_TIMEOUT", "9s", "file "+path)
}

// Reading the settings writes nothing (CONFIG_001, INTERACT_005): every
// file and directory of the fake machine is as it was, modes included.
func TestLoadSettingsWritesNothing(t *testing.T) {
	w := newConfigWorld(t)
	w.write(t, w.globalFile(), "A2ACLI_BEARER=tok-123456\n", 0o644)
	w.write(t, "proj/.env", "A2ACLI_TIMEOUT=1m\nA2ACLI_UNKNOWN=1\njunk\n", 0o600)
	snapshot := func() map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(w.root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			var content []byte
			if fi.Mode().IsRegular() {
				content, _ = os.ReadFile(p)
			}
			m[p] = fmt.Sprintf("%v %d %v %q", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), content)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := snapshot()
	if _, warnings := w.load(t, ""); len(warnings) != 3 {
		t.Errorf("warnings %q; want 3", warnings)
	}
	if after := snapshot(); !maps.Equal(before, after) {
		t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
	}
}
