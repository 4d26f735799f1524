//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByOther reports whether fi, a found dotenv file, belongs to a
// user other than the one running the command: such a file may have been
// planted in a shared directory (a .env in /tmp, above the working
// directory) and is not read unless named with --config.
func ownedByOther(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Getuid()
}

// groupOrOthersRead reports whether fi's mode lets its group or others
// read it.
func groupOrOthersRead(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o044 != 0 }
