package a2a_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path, as go.mod declares it.
const module = "github.com/caoliao-a2a/a2a-go"

// TestLayers: the packages under internal/ are leaves (ARCHITECTURE.md,
// Layers). Every one of their files, tests and all, under any build tag,
// imports only the standard library, the module's dependencies and other
// packages under internal/: never the root package, a2atest or anything
// else of this module that is not internal. The compiler refuses an
// internal package importing the root (the root imports them: a cycle);
// this also holds their tests and the other packages to it.
func TestLayers(t *testing.T) {
	packages := map[string]bool{}
	err := walkImports("internal", func(file, imp string) {
		packages[path.Dir(file)] = true
		if (imp == module || strings.HasPrefix(imp, module+"/")) && !strings.HasPrefix(imp, module+"/internal/") {
			t.Errorf("%s imports %s: a package under internal/ imports only other internal packages of this module", file, imp)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The leaves ARCHITECTURE.md names: a test that found none would pass
	// whatever the imports.
	for _, want := range []string{"backoff", "httpbody", "inert", "jsonread", "redact", "roundtrip", "sse"} {
		if !packages[path.Join("internal", want)] {
			t.Errorf("internal/%s not found", want)
		}
	}
}

// TestNestedModulesStayOut: a nested module (a directory below the root
// with its own go.mod, such as interop/) is versioned apart from the root,
// so it uses the public API only: Go's internal rule goes by import path
// and would let it import the root's internal packages.
func TestNestedModulesStayOut(t *testing.T) {
	nested := 0
	err := filepath.WalkDir(".", func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case e.IsDir() && p != "." && skipped(e.Name()):
			return filepath.SkipDir
		case e.IsDir() || e.Name() != "go.mod" || p == "go.mod":
			return nil
		}
		nested++
		return walkImports(filepath.Dir(p), func(file, imp string) {
			if strings.HasPrefix(imp, module+"/internal/") {
				t.Errorf("%s imports %s: a nested module uses the public API only", file, imp)
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if nested == 0 {
		t.Error("no nested module found (interop/ has one): the walk checks nothing")
	}
}

// walkImports calls check with each import of every Go file under dir,
// tests and all, under any build tag (the file's path with slashes).
func walkImports(dir string, check func(file, imp string)) error {
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case e.IsDir() && p != dir && skipped(e.Name()):
			return filepath.SkipDir
		case e.IsDir() || !strings.HasSuffix(p, ".go"):
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			check(filepath.ToSlash(p), imp)
		}
		return nil
	})
}

// skipped reports whether a folder holds no Go code of the module's own.
func skipped(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// TestRootCompilesNoJOSE: package a2a holds only the seam of signed agent
// cards (options_cards.go); the verifier lives in cardsig with its JOSE
// and JCS libraries, so a program that imports package a2a alone compiles
// neither. go list -deps names every package the root package builds.
func TestRootCompilesNoJOSE(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps named %d packages: the check sees nothing", len(deps))
	}
	for _, d := range deps {
		if strings.Contains(d, "go-jose") || strings.Contains(d, "gowebpki") || d == module+"/cardsig" {
			t.Errorf("package a2a depends on %s: the root package must not compile the card verifier", d)
		}
	}
}
