//go:build !unix

package main

import "io/fs"

// ownedByOther reports whether fi belongs to another user: never known
// here (not a Unix system), so false.
func ownedByOther(fs.FileInfo) bool { return false }

// groupOrOthersRead reports whether others may read fi: Unix mode bits
// do not say it here (not a Unix system), so false.
func groupOrOthersRead(fs.FileInfo) bool { return false }
