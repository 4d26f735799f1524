//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A found .env that is not a regular file (a FIFO, which would block an
// open, a link to a device) is passed over; a --config device is read
// within the bound.
func TestLoadSettingsNotRegular(t *testing.T) {
	w := newConfigWorld(t)
	if err := os.MkdirAll(filepath.Dir(w.globalFile()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(w.globalFile(), 0o600); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(w.work, ".env")); err != nil {
		t.Fatal(err)
	}
	top := w.write(t, ".env", "A2ACLI_TIMEOUT=top\n", 0o600)
	s, warnings := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "top", "file "+top)
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
	_, _, err := loadSettings(w.env(), configNames, "/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 64 KiB") {
		t.Errorf("err = %v; want the bound", err)
	}
}
