package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Configuration (S§7.2, S§8.3): a setting is named A2ACLI_ and the long
// flag in upper snake case (--agent-card: A2ACLI_AGENT_CARD) and comes,
// highest first, from the flag, the environment, the local dotenv file
// (--config PATH, else the first ".env" walking up from the working
// directory), the global dotenv file ($XDG_CONFIG_HOME/a2a-cli/.env, else
// $HOME/.config/a2a-cli/.env), or the built-in default. loadSettings reads
// the middle three; the caller applies its flags above and its defaults
// below. Nothing here writes a file, and no value is ever put in an error
// or a warning: a value may be a credential.

// setting is one A2ACLI_* value and where it came from.
type setting struct {
	Value string
	// Source is "environment", or "file " followed by the file's
	// absolute path.
	Source string
}

// settings are the A2ACLI_* values of the environment and the dotenv
// files, by name ("A2ACLI_BEARER"), each the one of highest precedence.
type settings struct {
	values map[string]setting
	// files are the dotenv files read, the local one first, by
	// absolute path.
	files []string
}

// get returns the setting called name (as "A2ACLI_TIMEOUT") and whether
// the environment or a file gave it. A value a file gave may be empty
// ("A2ACLI_TENANT="); an empty environment variable counts as not set.
func (s *settings) get(name string) (setting, bool) {
	if s == nil {
		return setting{}, false
	}
	v, ok := s.values[name]
	return v, ok
}

// credentialSettings are the settings that hold a credential: a dotenv
// file that gives one a value and that group or others may read is
// warned about.
var credentialSettings = []string{
	"A2ACLI_BEARER", "A2ACLI_API_KEY", "A2ACLI_CLIENT_SECRET", // agent and auth login credentials
	"A2ACLI_TOKEN", "A2ACLI_CREDENTIALS", // a push config's
}

// secretSetting reports whether the setting called name is never shown,
// only said to be "(set)": a credential, or the service parameters (HTTP
// headers that may carry one).
func secretSetting(name string) bool {
	return slices.Contains(credentialSettings, name) || name == "A2ACLI_SVC_PARAM"
}

// configFileMax is the largest dotenv file read, in bytes: a larger one
// is an error, as a file of settings is a few hundred bytes.
const configFileMax = 64 << 10

// maxLineWarnings is how many lines of one file that cannot be read or
// name no setting are warned about one by one; beyond it, one warning
// counts the rest.
const maxLineWarnings = 10

// loadSettings reads, in precedence order, the environment (e.getenv of
// each of names, the settings the caller knows), the local file
// (configPath when not empty, relative to e.dir: an error when it cannot
// be read; else the first ".env" found walking up from e.dir to the
// filesystem root), and the global file ($XDG_CONFIG_HOME/a2a-cli/.env
// when XDG_CONFIG_HOME is an absolute path, else
// $HOME/.config/a2a-cli/.env; absent is fine).
// Only keys starting "A2ACLI_" are read from a file, others are ignored.
//
// The warnings, for the caller to print on stderr, say file:line and
// never a value: an A2ACLI_ key that is not among names (with the
// nearest name), a line that is not KEY=value, a file that gives a
// credential (credentialSettings) a value and that group or others may
// read, a found file owned by another user (ignored, as git does: it
// may have been planted in a shared directory such as /tmp) or that
// cannot be opened (ignored).
//
// The error is about configPath (cannot be opened, a directory), or a
// file larger than configFileMax, naming the file.
func loadSettings(e env, names []string, configPath string) (*settings, []string, error) {
	s := &settings{values: map[string]setting{}}
	var warnings []string
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}

	// Lowest first: each level overwrites the ones below it.
	var local, global string
	explicit := configPath != ""
	if explicit {
		if !filepath.IsAbs(configPath) && e.dir != "" {
			configPath = filepath.Join(e.dir, configPath)
		}
		abs, err := filepath.Abs(configPath)
		if err != nil {
			return nil, nil, fmt.Errorf("--config %s: %v", quote(configPath), err)
		}
		local = abs
	} else {
		local = findLocalConfig(e.dir)
	}
	if e.getenv == nil {
		e.getenv = func(string) string { return "" }
	}
	global = globalConfigPath(e)
	if global == local {
		global = "" // the working directory is the global file's: read once
	}

	read := func(path string, explicit bool) error {
		if path == "" {
			return nil
		}
		entries, ws, err := readConfigFile(path, explicit, func(en dotenvEntry) string {
			if known[en.key] {
				return ""
			}
			return unknownSettingWarning(path, en, names)
		})
		warnings = append(warnings, ws...)
		if err != nil || entries == nil {
			return err
		}
		s.files = append(s.files, path)
		for _, en := range entries {
			s.values[en.key] = setting{Value: en.value, Source: "file " + path}
		}
		return nil
	}
	if err := read(global, false); err != nil {
		return nil, nil, err
	}
	if err := read(local, explicit); err != nil {
		return nil, nil, err
	}
	// Local first in the list of files read (global was read first).
	if len(s.files) == 2 {
		s.files[0], s.files[1] = s.files[1], s.files[0]
	}
	for _, n := range names {
		if v := e.getenv(n); v != "" {
			s.values[n] = setting{Value: v, Source: "environment"}
		}
	}
	return s, warnings, nil
}

// unknownSettingWarning is the warning about en, an A2ACLI_ key of the
// file at path that is not among names: its file:line, the key (a name,
// not a value) and, when one is near, the name probably meant.
func unknownSettingWarning(path string, en dotenvEntry, names []string) string {
	w := fmt.Sprintf("%s:%d: %s is not a setting; ignored", quote(path), en.line, inert.Printable(inert.Truncate(en.key, 80)))
	switch {
	case en.key == "A2ACLI_STREAM":
		w += " (--stream is given on the command line only)"
	default:
		if near := nearestSetting(en.key, names); near != "" {
			w += "; did you mean " + near + "?"
		}
	}
	return w
}

// nearestSetting is the name among names nearest to key, an unknown
// setting: the same in upper case, or the closest by edit distance
// (closest); "" when none is near.
func nearestSetting(key string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return n
		}
	}
	if len(key) > 64 {
		return ""
	}
	return closest(strings.ToUpper(key), names)
}

// findLocalConfig returns the absolute path of the first regular file
// named ".env" in dir or one of its parents up to the filesystem root;
// "" when there is none or dir is "".
func findLocalConfig(dir string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, ".env")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// configDir is a2a's configuration directory (the global .env, "auth
// login"'s tokens): the directory of globalConfigPath, "" when the
// environment names no home.
func configDir(e env) string {
	if p := globalConfigPath(e); p != "" {
		return filepath.Dir(p)
	}
	return ""
}

// globalConfigPath is the global dotenv file's path:
// $XDG_CONFIG_HOME/a2a-cli/.env when XDG_CONFIG_HOME is absolute (the
// XDG rule: a relative one is ignored), else $HOME/.config/a2a-cli/.env
// (%USERPROFILE% when HOME is not set, as on Windows); "" when none is
// set: the environment e gives is the only one looked at.
func globalConfigPath(e env) string {
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "a2a-cli", ".env")
	}
	for _, v := range []string{"HOME", "USERPROFILE" /* Windows */} {
		if h := e.getenv(v); h != "" && filepath.IsAbs(h) {
			return filepath.Join(h, ".config", "a2a-cli", ".env")
		}
	}
	return ""
}

// readConfigFile reads the dotenv file at path, an absolute path, and
// returns its A2ACLI_ entries (not nil, perhaps empty, when the file was
// read) and the warnings about it. explicit is a file the user named
// (--config): any file but a directory, and one that cannot be opened is
// an error. A found one (explicit false) must be a regular file: absent,
// or owned by another user, or unopenable, it is skipped (with a warning
// for the last two). A file larger than configFileMax is an error.
func readConfigFile(path string, explicit bool, unknown func(dotenvEntry) string) ([]dotenvEntry, []string, error) {
	shown := quote(path)
	if !explicit {
		// Not a regular file (a directory, a FIFO that would block the
		// open, a device): not a file of settings; looked at before
		// opening it.
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, nil, nil
		}
	}
	f, err := os.Open(path)
	if err != nil {
		switch {
		case explicit:
			return nil, nil, fmt.Errorf("--config %s: cannot read it: %v", shown, pathErrText(err))
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil, nil
		}
		return nil, []string{fmt.Sprintf("%s: cannot read it (%v); ignored", shown, pathErrText(err))}, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", shown, pathErrText(err))
	}
	switch {
	case fi.IsDir():
		if explicit {
			return nil, nil, fmt.Errorf("--config %s: is a directory, not a file of settings", shown)
		}
		return nil, nil, nil
	case !explicit && !fi.Mode().IsRegular():
		return nil, nil, nil
	case !explicit && ownedByOther(fi):
		return nil, []string{fmt.Sprintf("%s: owned by another user; ignored (read it with --config %s if you trust it)", shown, shown)}, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, configFileMax+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot read it: %v", shown, pathErrText(err))
	}
	if len(data) > configFileMax {
		return nil, nil, fmt.Errorf("%s: larger than %d KiB; a file of settings is not that large", shown, configFileMax>>10)
	}
	entries, warnings := parseDotenv(data, path, unknown)
	if entries == nil {
		entries = []dotenvEntry{}
	}
	if fi.Mode().IsRegular() && groupOrOthersRead(fi) {
		for _, en := range entries {
			if en.value != "" && slices.Contains(credentialSettings, en.key) {
				warnings = append(warnings, fmt.Sprintf("%s holds %s and is readable by group or others (mode %04o): chmod 600 %s",
					shown, en.key, fi.Mode().Perm(), shown))
				break
			}
		}
	}
	return entries, warnings, nil
}

// pathErrText is err's text without the path an *fs.PathError repeats
// (the caller names the file, quoted).
func pathErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
